/**
 * The catalogue. Every row that the device syncs carries `version`: the value
 * of the single catalogue counter (`catalogue_state.version`) when the row last
 * changed. The delta feed answers "everything with version > cursor".
 * Products and categories are soft-deleted (`deleted_at`) so the feed can tell
 * devices what disappeared.
 */
import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalogue_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('catalogue_state').values({ id: 1, version: 0 }).execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('categories_version').on('categories').column('version').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('label_heading', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('label_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('size_or_weight', 'text', (c) => c.notNull().defaultTo(''))
    // Extra media locations (videos or external images) kept in the spec's comma-separated form.
    .addColumn('extra_media', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('products_version').on('products').column('version').execute();
  await db.schema.createIndex('products_title').on('products').column('title').execute();

  await db.schema
    .createTable('product_categories')
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('product_categories_pk', ['product_id', 'category_id'])
    .execute();
  await db.schema
    .createIndex('product_categories_category')
    .on('product_categories')
    .column('category_id')
    .execute();

  await db.schema
    .createTable('variations')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('variations_product').on('variations').column('product_id').execute();

  // One row per image; its variants are files named `${file_stem}-${width}.webp`.
  await db.schema
    .createTable('product_images')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('file_stem', 'text', (c) => c.notNull().unique())
    .addColumn('widths', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('product_images_product').on('product_images').column('product_id').execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'posts',
    'product_images',
    'variations',
    'product_categories',
    'products',
    'categories',
    'catalogue_state',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
