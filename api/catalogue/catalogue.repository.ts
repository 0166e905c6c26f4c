import type { Kysely, Transaction } from 'kysely';
import type {
  AddProductFields,
  Category,
  Product,
  UpdateProductInput,
  VariationInput,
} from '../../domain/catalogue.js';
import { splitMedia } from '../../domain/catalogue-media.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { imageOf } from '../images/images.js';

/**
 * All SQL of the catalogue. Functions take the database or a transaction
 * first; rows never leave this file (callers get `domain/catalogue.ts` shapes).
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
export type Executor = Kysely<Database> | Transaction<Database>;

export async function currentVersion(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('catalogue_state')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function bumpVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable('catalogue_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

// ---------------------------------------------------------------- categories

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

export async function addCategory(trx: Transaction<Database>, name: string): Promise<Category> {
  const version = await bumpVersion(trx);
  // Names are compared case-insensitively: "Plants" and "plants" would be one menu entry to a
  // shopper. Compared here, not with SQL lower(): SQLite's lower() knows only ASCII, so "Éclair"
  // and "éclair" would be one name on PostgreSQL and two on SQLite. The shop has dozens of categories.
  const key = nameKey(name);
  const live = await trx
    .selectFrom('categories')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .execute();
  const taken = live.find((c) => nameKey(c.name) === key);
  if (taken) throw conflict(`A category named "${name}" already exists.`, { categoryID: taken.id });
  const now = Date.now();
  try {
    const row = await trx
      .insertInto('categories')
      .values({ name, version, created_at: now, updated_at: now, deleted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { categoryID: row.id, categoryName: name };
  } catch (err) {
    // Another request added the same name between our check and our insert (unique index).
    if (isUniqueViolation(err)) throw conflict(`A category named "${name}" already exists.`);
    throw err;
  }
}

/** One spelling of a name for comparison: the same letters in any case or Unicode composition. */
function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Deleting a category detaches it from its products instead of refusing: the
 * products stay on sale under their other categories (or under none, still
 * listed in All Products and search). Each detached product is re-stamped so
 * devices re-fetch it without the category.
 */
export async function deleteCategory(trx: Transaction<Database>, id: number): Promise<number> {
  const version = await bumpVersion(trx);
  if (!(await findCategory(trx, id))) throw notFound('Category not found.');
  const now = Date.now();
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

/** The ids, deduplicated, or a 400 naming the ones that are not live categories. */
export async function checkCategoriesExist(db: Executor, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom('categories')
    .select('id')
    .where('id', 'in', unique)
    .where('deleted_at', 'is', null)
    .execute();
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    throw badRequest(`Category ${missing.join(', ')} does not exist.`, { field: 'CategoryID' });
  return unique;
}

// ------------------------------------------------------------------ products

/** Which live products to load. */
export type ProductScope = { all: true } | { categoryId: number } | { ids: number[] };

function scopeIds(db: Executor, scope: ProductScope) {
  let q = db.selectFrom('products').select('products.id').where('products.deleted_at', 'is', null);
  if ('categoryId' in scope) {
    q = q.where('products.id', 'in', (eb) =>
      eb.selectFrom('product_categories').select('product_id').where('category_id', '=', scope.categoryId),
    );
  } else if ('ids' in scope) {
    q = q.where('products.id', 'in', scope.ids.length ? scope.ids : [-1]);
  }
  return q;
}

/**
 * Loads products with their categories, variations and images in four
 * queries, whatever the number of products (no query per product).
 */
export async function loadProducts(db: Executor, scope: ProductScope): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', scopeIds(db, scope))
    .orderBy('id')
    .execute();
  if (!rows.length) return [];
  const [links, variations, images] = await Promise.all([
    db
      .selectFrom('product_categories')
      .innerJoin('categories', 'categories.id', 'product_categories.category_id')
      .select(['product_categories.product_id', 'categories.id', 'categories.name'])
      .where('product_categories.product_id', 'in', scopeIds(db, scope))
      .where('categories.deleted_at', 'is', null)
      .orderBy('categories.id')
      .execute(),
    db
      .selectFrom('variations')
      .select(['id', 'product_id', 'name', 'value', 'price'])
      .where('product_id', 'in', scopeIds(db, scope))
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('product_images')
      .select(['product_id', 'file_stem', 'widths', 'width', 'height'])
      .where('product_id', 'in', scopeIds(db, scope))
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);

  const byProduct = new Map<number, Product>();
  const products = rows.map((r) => {
    const p: Product = {
      productID: r.id,
      title: r.title,
      description: r.description,
      price: r.price,
      imagePath: '',
      categories: [],
      categoryName: '',
      labelHeading: r.label_heading,
      labelDescription: r.label_description,
      sizeOrWeight: r.size_or_weight,
      variations: [],
      images: [],
      updatedAt: new Date(Number(r.updated_at)).toISOString(),
      version: Number(r.version),
      takesMessage: Number(r.takes_message) === 1,
      photoCake: Number(r.photo_cake) === 1,
    };
    byProduct.set(r.id, p);
    return p;
  });
  for (const l of links)
    byProduct.get(l.product_id)?.categories.push({ categoryID: l.id, categoryName: l.name });
  for (const v of variations) {
    byProduct.get(v.product_id)?.variations.push({
      variationID: v.id,
      variationName: v.name,
      variationValue: v.value,
      price: v.price,
    });
  }
  for (const i of images) {
    byProduct.get(i.product_id)?.images.push(imageOf(i.file_stem, i.widths, i.width, i.height));
  }
  const extra = new Map(rows.map((r) => [r.id, r.extra_media]));
  for (const p of products) {
    p.categoryName = p.categories.map((c) => c.categoryName).join(', ');
    p.imagePath = [...p.images.map((i) => i.src), ...splitMedia(extra.get(p.productID) ?? '')].join(',');
  }
  return products;
}

export async function loadProduct(db: Executor, id: number): Promise<Product | null> {
  const [p] = await loadProducts(db, { ids: [id] });
  return p ?? null;
}

/** An image already processed into its variant files, to be recorded with its product. */
export interface StoredImageRecord {
  stem: string;
  widths: number[];
  width: number;
  height: number;
}

export interface NewProduct extends Omit<AddProductFields, 'categoryIDs'> {
  categoryIDs: number[];
  /** Media locations that are not our own images (videos, external images), in the spec's list form. */
  extraMedia?: string;
  /** Only the seed sets ids (the demo catalogue has fixed ids); the API lets the database choose. */
  id?: number;
}

/** Writes options at their places in the list (`position`: the list's order unless given). */
async function insertVariations(
  trx: Transaction<Database>,
  productId: number,
  variations: VariationInput[],
  positions: readonly number[] = variations.map((_, i) => i),
) {
  if (!variations.length) return;
  await trx
    .insertInto('variations')
    .values(
      variations.map((v, i) => ({
        product_id: productId,
        name: v.variationName,
        value: v.variationValue,
        price: v.price,
        position: positions[i] ?? i,
      })),
    )
    .execute();
}

/** Inserts one product with its links, variations and image records, stamped with `version`. */
export async function insertProduct(
  trx: Transaction<Database>,
  version: number,
  input: NewProduct,
  images: StoredImageRecord[],
): Promise<number> {
  const categoryIds = await checkCategoriesExist(trx, input.categoryIDs);
  const now = Date.now();
  const row = await trx
    .insertInto('products')
    .values({
      ...(input.id ? { id: input.id } : {}),
      title: input.title,
      description: input.description,
      price: input.price,
      label_heading: input.labelHeading,
      label_description: input.labelDescription,
      size_or_weight: input.sizeOrWeight,
      extra_media: input.extraMedia ?? '',
      takes_message: input.takesMessage ? 1 : 0,
      photo_cake: input.photoCake ? 1 : 0,
      version,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('product_categories')
    .values(categoryIds.map((category_id) => ({ product_id: row.id, category_id })))
    .execute();
  await insertVariations(trx, row.id, input.variations);
  if (images.length) {
    await trx
      .insertInto('product_images')
      .values(
        images.map((img, position) => ({
          product_id: row.id,
          file_stem: img.stem,
          widths: img.widths.join(','),
          width: img.width,
          height: img.height,
          position,
        })),
      )
      .execute();
  }
  return row.id;
}

async function requireLiveProduct(db: Executor, id: number): Promise<void> {
  const row = await db
    .selectFrom('products')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Product not found.');
}

/** Soft delete: the row stays (stamped) so the feed can tell devices the product is gone. */
export async function deleteProduct(trx: Transaction<Database>, id: number): Promise<void> {
  const version = await bumpVersion(trx);
  await requireLiveProduct(trx, id);
  const now = Date.now();
  await trx
    .updateTable('products')
    .set({ deleted_at: now, updated_at: now, version })
    .where('id', '=', id)
    .execute();
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
  const now = Date.now();
  await trx
    .updateTable('products')
    .set({
      title: input.title,
      description: input.description,
      price: input.price,
      ...(input.labelHeading != null ? { label_heading: input.labelHeading } : {}),
      ...(input.labelDescription != null ? { label_description: input.labelDescription } : {}),
      ...(input.sizeOrWeight != null ? { size_or_weight: input.sizeOrWeight } : {}),
      ...(input.takesMessage !== undefined ? { takes_message: input.takesMessage ? 1 : 0 } : {}),
      ...(input.photoCake !== undefined ? { photo_cake: input.photoCake ? 1 : 0 } : {}),
      version,
      updated_at: now,
    })
    .where('id', '=', input.productID)
    .execute();
  if (categoryIds) {
    await trx.deleteFrom('product_categories').where('product_id', '=', input.productID).execute();
    await trx
      .insertInto('product_categories')
      .values(categoryIds.map((category_id) => ({ product_id: input.productID, category_id })))
      .execute();
  }
  if (input.variations) await replaceVariations(trx, input.productID, input.variations);
}

/**
 * An edit keeps each option that is still offered under its id (the same name and value; its
 * price and place may change): carts and queued orders hold those ids, and an option deleted and
 * made again under a new id turned every one of them into "product gone" at the next edit of
 * the product. Options no longer offered go; new ones get new ids.
 */
async function replaceVariations(
  trx: Transaction<Database>,
  productId: number,
  variations: VariationInput[],
) {
  const existing = await trx
    .selectFrom('variations')
    .select(['id', 'name', 'value'])
    .where('product_id', '=', productId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const kept = new Set<number>();
  const added: { input: VariationInput; position: number }[] = [];
  for (const [position, v] of variations.entries()) {
    const same = existing.find(
      (e) => !kept.has(e.id) && e.name === v.variationName && e.value === v.variationValue,
    );
    if (!same) {
      added.push({ input: v, position });
      continue;
    }
    kept.add(same.id);
    await trx.updateTable('variations').set({ price: v.price, position }).where('id', '=', same.id).execute();
  }
  const gone = existing.filter((e) => !kept.has(e.id)).map((e) => e.id);
  if (gone.length) await trx.deleteFrom('variations').where('id', 'in', gone).execute();
  await insertVariations(
    trx,
    productId,
    added.map((a) => a.input),
    added.map((a) => a.position),
  );
}

// --------------------------------------------------------------- delta feed

/**
 * Live products changed in the version window (after, upTo], by id, after
 * `afterId`, at most `limit`; `hasMore` when more remain in the window.
 */
export async function changedProducts(
  db: Executor,
  window: { after: number; upTo: number; afterId: number; limit: number },
): Promise<{ products: Product[]; hasMore: boolean }> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .where('id', '>', window.afterId)
    .orderBy('id')
    .limit(window.limit + 1)
    .execute();
  const ids = rows.slice(0, window.limit).map((r) => r.id);
  return { products: await loadProducts(db, { ids }), hasMore: rows.length > window.limit };
}

export async function changedCategories(
  db: Executor,
  window: { after: number; upTo: number },
): Promise<{ live: Category[]; deletedIds: number[] }> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name', 'deleted_at'])
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('id')
    .execute();
  return {
    live: rows.filter((r) => r.deleted_at === null).map((r) => ({ categoryID: r.id, categoryName: r.name })),
    deletedIds: rows.filter((r) => r.deleted_at !== null).map((r) => r.id),
  };
}

export async function deletedProductIds(
  db: Executor,
  window: { after: number; upTo: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('deleted_at', 'is not', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

// ------------------------------------------------------- admin area (issue 12)

/** Renames a live category; the same uniqueness as adding. Its products are re-stamped (they carry the name). */
export async function renameCategory(
  trx: Transaction<Database>,
  id: number,
  name: string,
): Promise<Category> {
  const version = await bumpVersion(trx);
  if (!(await findCategory(trx, id))) throw notFound('Category not found.');
  const key = nameKey(name);
  const live = await trx
    .selectFrom('categories')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .execute();
  const taken = live.find((c) => c.id !== id && nameKey(c.name) === key);
  if (taken) throw conflict(`A category named "${name}" already exists.`, { categoryID: taken.id });
  const now = Date.now();
  try {
    await trx
      .updateTable('categories')
      .set({ name, version, updated_at: now })
      .where('id', '=', id)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A category named "${name}" already exists.`);
    throw err;
  }
  const linked = trx.selectFrom('product_categories').select('product_id').where('category_id', '=', id);
  await trx
    .updateTable('products')
    .set({ version, updated_at: now })
    .where('id', 'in', linked)
    .where('deleted_at', 'is', null)
    .execute();
  return { categoryID: id, categoryName: name };
}

/** Soft-deletes several products in one version: all of them, or none when one is not live (a 404 naming it). */
export async function deleteProducts(trx: Transaction<Database>, ids: number[]): Promise<number[]> {
  const version = await bumpVersion(trx);
  const unique = [...new Set(ids)];
  const live = await trx
    .selectFrom('products')
    .select('id')
    .where('id', 'in', unique)
    .where('deleted_at', 'is', null)
    .execute();
  const found = new Set(live.map((r) => r.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw notFound(`Product ${missing.join(', ')} was not found.`);
  const now = Date.now();
  await trx
    .updateTable('products')
    .set({ deleted_at: now, updated_at: now, version })
    .where('id', 'in', unique)
    .execute();
  return unique;
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
  const current = await trx
    .selectFrom('product_images')
    .select(['file_stem', 'widths', 'width', 'height'])
    .where('product_id', '=', productId)
    .execute();
  const byStem = new Map(current.map((r) => [r.file_stem, r]));
  const rows = slots.map((slot, position) => {
    if ('add' in slot) {
      const img = slot.add;
      return { stem: img.stem, widths: img.widths.join(','), width: img.width, height: img.height, position };
    }
    const row = byStem.get(slot.keep);
    if (!row) throw badRequest("An image to keep is not one of this product's images.", { field: 'order' });
    return { stem: row.file_stem, widths: row.widths, width: row.width, height: row.height, position };
  });
  await trx.deleteFrom('product_images').where('product_id', '=', productId).execute();
  await trx
    .insertInto('product_images')
    .values(
      rows.map((r) => ({
        product_id: productId,
        file_stem: r.stem,
        widths: r.widths,
        width: r.width,
        height: r.height,
        position: r.position,
      })),
    )
    .execute();
  await trx
    .updateTable('products')
    .set({ version, updated_at: Date.now() })
    .where('id', '=', productId)
    .execute();
}
