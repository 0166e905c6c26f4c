import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The session secret kept in the database (PostgreSQL without JWT_SECRET), so a token signed by
 * one process is accepted by every other. The first process to start inserts one; the name is the
 * primary key and a second insert does nothing, so processes starting together all read back the
 * same value. A shop that ran on one machine before keeps its tokens valid: the secret it had
 * generated into DATA_DIR is the one offered first.
 */
export async function sharedSecret(db: Kysely<Database>, offered: string | null): Promise<string> {
  await db
    .insertInto('shop_secrets')
    .values({ name: 'jwt', value: offered ?? randomBytes(48).toString('base64url'), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('shop_secrets')
    .select('value')
    .where('name', '=', 'jwt')
    .executeTakeFirstOrThrow();
  return row.value;
}
