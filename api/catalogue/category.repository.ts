/** The categories' SQL: live ones, and writes stamped with the version they are given. */
import type { Transaction } from 'kysely';
import type { Category } from '../../domain/catalogue.js';
import type { Database } from '../db/schema.js';
import type { Executor } from './catalogue.repository.js';

export async function listCategories(db: Executor): Promise<Category[]> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ categoryID: r.id, categoryName: r.name }));
}

export async function findCategory(db: Executor, id: number): Promise<Category | null> {
  const row = await db
    .selectFrom('categories')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { categoryID: row.id, categoryName: row.name } : null;
}

/** Every live category's id and name. */
export async function liveCategories(db: Executor): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('categories').select(['id', 'name']).where('deleted_at', 'is', null).execute();
}

/** A new category stamped with `version`; a name the unique index already has fails with its violation. */
export async function insertCategory(
  trx: Transaction<Database>,
  name: string,
  version: number,
  now: number,
): Promise<Category> {
  const row = await trx
    .insertInto('categories')
    .values({ name, version, created_at: now, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { categoryID: row.id, categoryName: name };
}

/**
 * Deleting a category detaches it from its products instead of refusing: the
 * products stay on sale under their other categories (or under none, still
 * listed in All Products and search). Each detached product is re-stamped so
 * devices re-fetch it without the category.
 */
export async function deleteCategory(
  trx: Transaction<Database>,
  id: number,
  version: number,
  now: number,
): Promise<number> {
  const linked = trx.selectFrom('product_categories').select('product_id').where('category_id', '=', id);
  const touched = await trx
    .updateTable('products')
    .set({ version, updated_at: now })
    .where('id', 'in', linked)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  await trx.deleteFrom('product_categories').where('category_id', '=', id).execute();
  await trx
    .updateTable('categories')
    .set({ deleted_at: now, updated_at: now, version })
    .where('id', '=', id)
    .execute();
  return Number(touched.numUpdatedRows);
}

/** Which of these ids are live categories. */
export async function liveCategoryIds(db: Executor, ids: number[]): Promise<Set<number>> {
  const rows = await db
    .selectFrom('categories')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Renames a category, stamped with `version`, and re-stamps its live products (they carry the name). */
export async function renameCategory(
  trx: Transaction<Database>,
  id: number,
  name: string,
  version: number,
  now: number,
): Promise<void> {
  // A renamed demo category is the owner's now: the demo's removal keeps it (its products are not
  // edited by it, so they stay the demo's).
  await trx
    .updateTable('categories')
    .set({ name, version, updated_at: now, demo: 0 })
    .where('id', '=', id)
    .execute();
  const linked = trx.selectFrom('product_categories').select('product_id').where('category_id', '=', id);
  await trx
    .updateTable('products')
    .set({ version, updated_at: now })
    .where('id', 'in', linked)
    .where('deleted_at', 'is', null)
    .execute();
}
