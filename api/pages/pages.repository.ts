/**
 * The reads the page heads and the sitemap need beyond the catalogue's own
 * (`api/catalogue/catalogue.repository.ts`): lean lists for the sitemap, which
 * must stay cheap at 50,000 products, and a category's first product.
 */
import type { Executor } from '../catalogue/catalogue.repository.js';
import { imageOf } from '../images/images.js';

export interface SitemapProduct {
  productID: number;
  title: string;
  updatedAt: number;
  /** The product page's image (largest variant), or null when it has none. */
  image: string | null;
}

export interface SitemapCategory {
  categoryID: number;
  categoryName: string;
  updatedAt: number;
}

export async function sitemapProducts(db: Executor): Promise<SitemapProduct[]> {
  const [rows, images] = await Promise.all([
    db
      .selectFrom('products')
      .select(['id', 'title', 'updated_at'])
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('product_images')
      .select(['product_id', 'file_stem', 'widths', 'width', 'height'])
      .orderBy('product_id')
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const first = new Map<number, string>();
  for (const i of images) {
    if (!first.has(i.product_id))
      first.set(i.product_id, imageOf(i.file_stem, i.widths, i.width, i.height).src);
  }
  return rows.map((r) => ({
    productID: r.id,
    title: r.title,
    updatedAt: Number(r.updated_at),
    image: first.get(r.id) ?? null,
  }));
}

export async function sitemapCategories(db: Executor): Promise<SitemapCategory[]> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name', 'updated_at'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ categoryID: r.id, categoryName: r.name, updatedAt: Number(r.updated_at) }));
}

/** The lowest live product id in a category (its picture stands for the category in a preview), or null. */
export async function firstProductIn(db: Executor, categoryID: number): Promise<number | null> {
  const row = await db
    .selectFrom('product_categories')
    .innerJoin('products', 'products.id', 'product_categories.product_id')
    .select((eb) => eb.fn.min('products.id').as('id'))
    .where('product_categories.category_id', '=', categoryID)
    .where('products.deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}

/** Every live product id in a category: a category page's order is made from them (`domain/visit-order.ts`). */
export async function productIdsIn(db: Executor, categoryID: number): Promise<number[]> {
  const rows = await db
    .selectFrom('product_categories')
    .innerJoin('products', 'products.id', 'product_categories.product_id')
    .select('products.id as id')
    .where('product_categories.category_id', '=', categoryID)
    .where('products.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => Number(r.id));
}
