/**
 * The schedule's lease (api/backup/README.md): one row per job, holding when
 * its last run began. A process runs a scheduled backup only when it moves
 * `started_at` forward from the value it read (compare and set), so with
 * several processes on one database, one of them backs up per period. A row,
 * not PostgreSQL's advisory lock, so SQLite behaves the same.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('job_leases').values({ name: 'backup', started_at: 0, holder: '' }).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
