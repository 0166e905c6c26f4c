/**
 * Products carry the occasions they are for (domain/occasions.ts): the names comma-joined in one
 * text column, '' for none, as a product's other short lists of the shop's own words are read whole
 * with the product. No index: the search reads the cached product list, never this column.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('occasions', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('occasions').execute();
}
