import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/**
 * Runs `fn` while no other process on this database runs the same named task: on PostgreSQL under
 * a session advisory lock held on one connection of the pool (the others wait for it, then find
 * the work done); on SQLite, one process owns the file and `fn` simply runs. Used for start-up
 * work that must happen once, such as seeding the demo catalogue into an empty database, so that
 * several processes starting together do it once instead of all doing it and all but one undoing it.
 */
export async function withStartupLock<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (dialect !== 'postgres') return fn();
  return db.connection().execute(async (conn) => {
    const key = sql`hashtext(${`storefront:${name}`})`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
