/**
 * The SQL of the catalogue's version and products (categories: `category.repository.ts`; the
 * delta feed's windows: `catalogue-feed.repository.ts`). Functions take the database or a
 * transaction first; rows never leave this file (callers get `domain/catalogue.ts` shapes).
 * Writes stamp the rows they change with the version they are given: the
 * version rule and the checks that come after it are `catalogue.service.ts`'s.
 */
import type { Kysely, Transaction } from 'kysely';
import type {
  AddProductFields,
  Product,
  UpdateProductInput,
  VariationInput,
} from '../../domain/catalogue.js';
import { splitMedia } from '../../domain/catalogue-media.js';
import { joinOccasions, splitOccasions } from '../../domain/occasions.js';
import type { Database } from '../db/schema.js';
import { imageOf } from '../images/images.js';

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
      occasions: splitOccasions(r.occasions),
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
  /** Only the demo seed sets it: the row is the demo's until an admin writes it (api/golive). */
  demo?: boolean;
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

/**
 * Inserts one product with its links, variations and image records, stamped with `version`.
 * Its categories must be live ones (`catalogue.service.ts` checks them in the same transaction).
 */
export async function insertProduct(
  trx: Transaction<Database>,
  version: number,
  input: NewProduct,
  images: StoredImageRecord[],
): Promise<number> {
  const categoryIds = [...new Set(input.categoryIDs)];
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
      occasions: joinOccasions(input.occasions ?? []),
      demo: input.demo ? 1 : 0,
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

/** Whether the product exists and is not deleted. */
export async function isLiveProduct(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('products')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** Soft delete: the rows stay (stamped) so the feed can tell devices the products are gone. */
export async function softDeleteProducts(
  trx: Transaction<Database>,
  ids: number[],
  version: number,
  now: number,
): Promise<void> {
  await trx
    .updateTable('products')
    .set({ deleted_at: now, updated_at: now, version })
    .where('id', 'in', ids)
    .execute();
}

/**
 * Writes an edit stamped with `version`; the category links are replaced when `categoryIds` is
 * given (live ones, checked by the caller), the options when the input has them.
 */
export async function updateProduct(
  trx: Transaction<Database>,
  input: UpdateProductInput,
  categoryIds: number[] | null,
  version: number,
  now: number,
): Promise<void> {
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
      ...(input.occasions !== undefined ? { occasions: joinOccasions(input.occasions) } : {}),
      // The owner's edit makes a demo product theirs: the demo's removal keeps it.
      demo: 0,
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

// -------------------------------------------------- the admin area's edits

/** Which of these ids are live products. */
export async function liveProductIds(db: Executor, ids: number[]): Promise<Set<number>> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** An image row of a product's list, in the stored form (`widths` comma-separated). */
export interface ImageRow {
  stem: string;
  widths: string;
  width: number;
  height: number;
}

/** The product's images by file stem. */
export async function productImages(db: Executor, productId: number): Promise<Map<string, ImageRow>> {
  const rows = await db
    .selectFrom('product_images')
    .select(['file_stem', 'widths', 'width', 'height'])
    .where('product_id', '=', productId)
    .execute();
  return new Map(
    rows.map((r) => [r.file_stem, { stem: r.file_stem, widths: r.widths, width: r.width, height: r.height }]),
  );
}

/** Replaces the product's image list (order = position) and stamps the product with `version`. */
export async function writeProductImages(
  trx: Transaction<Database>,
  productId: number,
  rows: ImageRow[],
  version: number,
  now: number,
): Promise<void> {
  await trx.deleteFrom('product_images').where('product_id', '=', productId).execute();
  await trx
    .insertInto('product_images')
    .values(
      rows.map((r, position) => ({
        product_id: productId,
        file_stem: r.stem,
        widths: r.widths,
        width: r.width,
        height: r.height,
        position,
      })),
    )
    .execute();
  // New pictures make a demo product the owner's: the demo's removal keeps it.
  await trx
    .updateTable('products')
    .set({ version, updated_at: now, demo: 0 })
    .where('id', '=', productId)
    .execute();
}
