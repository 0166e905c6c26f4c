/**
 * Sessions are stored by the SHA-256 of their token's `sid` (api/plugins/auth.ts), so a copy of
 * the database names no session a token could be signed for. The rows made before are hashed here
 * with the same function, and the push subscriptions that name them follow, so a shopper signed
 * in before the upgrade stays signed in and keeps their devices' pushes. Hashed in TypeScript, one
 * row at a time: SQLite has no SHA-256 in SQL, and one way for both databases is one way to test.
 * Not reversible: `down` cannot turn a hash back into the token's `sid`, so it ends every session.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

function hashed(sid: string): string {
  return createHash('sha256').update(sid, 'utf8').digest('hex');
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL's migrations already run in a transaction; SQLite's do not.
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  const inOne = (work: (trx: Kysely<any>) => Promise<void>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  await inOne(async (trx) => {
    const rows = (await trx.selectFrom('sessions').select('id').execute()) as { id: string }[];
    for (const { id } of rows) {
      const to = hashed(id);
      await trx.updateTable('sessions').set({ id: to }).where('id', '=', id).execute();
      await trx
        .updateTable('push_subscriptions')
        .set({ session_id: to })
        .where('session_id', '=', id)
        .execute();
    }
  });
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('push_subscriptions').execute();
  await db.deleteFrom('sessions').execute();
}
