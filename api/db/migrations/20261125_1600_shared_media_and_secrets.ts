/**
 * What several API processes on one database must share (api/images/README.md, README
 * "Running several processes"): the product images' WebP variants when `MEDIA_STORE` is
 * `database`, and the generated session secret when `JWT_SECRET` is unset on PostgreSQL.
 * The secret's name is the primary key, so two processes starting together keep one.
 */
import type { Kysely } from 'kysely';
import { isPostgres } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_files')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('shop_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_secrets').execute();
  await db.schema.dropTable('media_files').execute();
}
