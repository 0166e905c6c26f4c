/**
 * The bytes each cake photo takes (its full size and preview together), so an account's total is
 * one sum over a small column instead of a read of every photo (api/gifts/README.md: at most
 * 50 MB per account). Photos already kept are measured once here. And an index on the lines'
 * photo ids: the sweep of unused photos asks, for each photo, whether any line references it.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('cake_photos')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const size = isPostgres(db) ? sql.raw('octet_length') : sql.raw('length');
  await sql`update cake_photos set bytes = ${size}(full_webp) + ${size}(preview_webp)`.execute(db);
  await db.schema.createIndex('order_items_photo').on('order_items').column('photo_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('order_items_photo').execute();
  await db.schema.alterTable('cake_photos').dropColumn('bytes').execute();
}
