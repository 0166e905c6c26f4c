/** SQL for the sessions table that the account rules run (issuing and checking a token is `api/plugins/auth.ts`). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Drops every session that expired before `cutoff`, revoked ones too (they keep their expiry). */
export async function deleteSessionsExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', cutoff).execute();
}
