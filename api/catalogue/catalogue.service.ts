/**
 * The catalogue's writes and their rules; the SQL is `catalogue.repository.ts`'s.
 *
 * Versioning: every write starts with `bumpVersion`, which increments the one
 * `catalogue_state` row and returns the new value; each row the write changes
 * is stamped with it. On PostgreSQL the update takes that row's lock, so
 * writers queue and commit in version order; a reader that first reads the
 * counter and then only rows with `version <= counter` therefore never skips a
 * row that commits later with a lower number (the delta feed relies on this).
 *
 * Checks come AFTER `bumpVersion`: the bump's lock makes a write wait for any
 * write in progress, and a check made after the wait sees what that write
 * committed. A check made before it would let two admins both delete the same
 * product, or update one that was deleted meanwhile (both answered 200).
 * SQLite runs one transaction at a time, so there the order makes no difference.
 */
import type { Transaction } from 'kysely';
import type { Category, UpdateProductInput } from '../../domain/catalogue.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import {
  bumpVersion,
  type Executor,
  type ImageRow,
  insertProduct,
  isLiveProduct,
  liveProductIds,
  type NewProduct,
  productImages,
  type StoredImageRecord,
  softDeleteProducts,
  updateProduct as updateProductRows,
  writeProductImages,
} from './catalogue.repository.js';
import {
  deleteCategory as detachAndDeleteCategory,
  findCategory,
  insertCategory,
  liveCategories,
  liveCategoryIds,
  renameCategory as renameCategoryRows,
} from './category.repository.js';

/** One spelling of a name for comparison: the same letters in any case or Unicode composition. */
function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

const nameTaken = (name: string, categoryID?: number) =>
  conflict(
    `A category named "${name}" already exists.`,
    categoryID === undefined ? undefined : { categoryID },
  );

/** The live category (other than `except`) that already has this name, in any case. */
async function sameName(trx: Transaction<Database>, name: string, except?: number) {
  // Names are compared case-insensitively: "Plants" and "plants" would be one menu entry to a
  // shopper. Compared here, not with SQL lower(): SQLite's lower() knows only ASCII, so "Éclair"
  // and "éclair" would be one name on PostgreSQL and two on SQLite. The shop has dozens of categories.
  const key = nameKey(name);
  return (await liveCategories(trx)).find((c) => c.id !== except && nameKey(c.name) === key);
}

export async function addCategory(trx: Transaction<Database>, name: string): Promise<Category> {
  const version = await bumpVersion(trx);
  const taken = await sameName(trx, name);
  if (taken) throw nameTaken(name, taken.id);
  try {
    return await insertCategory(trx, name, version, Date.now());
  } catch (err) {
    // Another request added the same name between our check and our insert (unique index).
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
}

/** Renames a live category; the same uniqueness as adding. Its products are re-stamped (they carry the name). */
export async function renameCategory(
  trx: Transaction<Database>,
  id: number,
  name: string,
): Promise<Category> {
  const version = await bumpVersion(trx);
  if (!(await findCategory(trx, id))) throw notFound('Category not found.');
  const taken = await sameName(trx, name, id);
  if (taken) throw nameTaken(name, taken.id);
  try {
    await renameCategoryRows(trx, id, name, version, Date.now());
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
  return { categoryID: id, categoryName: name };
}

/**
 * Deleting a category detaches it from its products instead of refusing: the
 * products stay on sale under their other categories (or under none, still
 * listed in All Products and search). Each detached product is re-stamped so
 * devices re-fetch it without the category. Answers how many were detached.
 */
export async function deleteCategory(trx: Transaction<Database>, id: number): Promise<number> {
  const version = await bumpVersion(trx);
  if (!(await findCategory(trx, id))) throw notFound('Category not found.');
  return detachAndDeleteCategory(trx, id, version, Date.now());
}

/** The ids, deduplicated, or a 400 naming the ones that are not live categories. */
export async function checkCategoriesExist(db: Executor, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await liveCategoryIds(db, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    throw badRequest(`Category ${missing.join(', ')} does not exist.`, { field: 'CategoryID' });
  return unique;
}

/** A new product with its images (already processed into their files); answers its id. */
export async function addProduct(
  trx: Transaction<Database>,
  input: NewProduct,
  images: StoredImageRecord[],
): Promise<number> {
  const version = await bumpVersion(trx);
  const categoryIDs = await checkCategoriesExist(trx, input.categoryIDs);
  return insertProduct(trx, version, { ...input, categoryIDs }, images);
}

async function requireLiveProduct(db: Executor, id: number): Promise<void> {
  if (!(await isLiveProduct(db, id))) throw notFound('Product not found.');
}

/** Soft delete: the row stays (stamped) so the feed can tell devices the product is gone. */
export async function deleteProduct(trx: Transaction<Database>, id: number): Promise<void> {
  const version = await bumpVersion(trx);
  await requireLiveProduct(trx, id);
  await softDeleteProducts(trx, [id], version, Date.now());
}

/** Soft-deletes several products in one version: all of them, or none when one is not live (a 404 naming it). */
export async function deleteProducts(trx: Transaction<Database>, ids: number[]): Promise<number[]> {
  const version = await bumpVersion(trx);
  const unique = [...new Set(ids)];
  const found = await liveProductIds(trx, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw notFound(`Product ${missing.join(', ')} was not found.`);
  await softDeleteProducts(trx, unique, version, Date.now());
  return unique;
}

export async function updateProduct(trx: Transaction<Database>, input: UpdateProductInput): Promise<void> {
  const version = await bumpVersion(trx);
  await requireLiveProduct(trx, input.productID);
  const categoryIds = input.categories
    ? await checkCategoriesExist(
        trx,
        input.categories.map((c) => c.categoryID),
      )
    : null;
  await updateProductRows(trx, input, categoryIds, version, Date.now());
}

/** An image of the new list: one the product already has (by its file stem), or one just processed. */
export type ImageSlot = { keep: string } | { add: StoredImageRecord };

/**
 * Replaces a product's image list (order = position; the first is the main
 * picture). Kept images must be the product's own; files of images left out
 * stay on disk (devices not yet synced still show them, see api/images/README.md).
 */
export async function replaceProductImages(
  trx: Transaction<Database>,
  productId: number,
  slots: ImageSlot[],
): Promise<void> {
  const version = await bumpVersion(trx);
  await requireLiveProduct(trx, productId);
  const byStem = await productImages(trx, productId);
  const rows = slots.map((slot): ImageRow => {
    if ('add' in slot) {
      const img = slot.add;
      return { stem: img.stem, widths: img.widths.join(','), width: img.width, height: img.height };
    }
    const row = byStem.get(slot.keep);
    if (!row) throw badRequest("An image to keep is not one of this product's images.", { field: 'order' });
    return row;
  });
  await writeProductImages(trx, productId, rows, version, Date.now());
}
