/** The admin area's product list: a page of live products, searched and sorted by the database. */
import { type Kysely, sql } from 'kysely';
import { type AdminProductRow, plainText } from '../../domain/admin-answers.js';
import type { AdminProductsQuery, Paged } from '../../domain/admin-queries.js';
import type { Database } from '../db/schema.js';
import { imageOf } from '../images/images.js';

type Db = Kysely<Database>;
const num = (x: unknown) => Number(x ?? 0);

/** `%text%` for LIKE, with the pattern's own wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function productPage(db: Db, query: AdminProductsQuery): Promise<Paged<AdminProductRow>> {
  let base = db.selectFrom('products').where('products.deleted_at', 'is', null);
  if (query.q) {
    const pattern = containsPattern(query.q);
    const id = /^\d{1,9}$/.test(query.q) ? Number(query.q) : null;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(products.title)`, 'like', sql`${pattern} escape '\\'`),
        ...(id !== null ? [eb('products.id', '=', id)] : []),
      ]),
    );
  }
  if (query.categoryId !== undefined) {
    const categoryId = query.categoryId;
    base = base.where('products.id', 'in', (eb) =>
      eb.selectFrom('product_categories').select('product_id').where('category_id', '=', categoryId),
    );
  }
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = num(counted?.n);
  let page = base.select([
    'products.id',
    'products.title',
    'products.description',
    'products.price',
    'products.size_or_weight',
  ]);
  switch (query.sort) {
    case 'oldest':
      page = page.orderBy('products.id', 'asc');
      break;
    case 'title':
      page = page.orderBy(sql`lower(products.title)`, 'asc').orderBy('products.id', 'asc');
      break;
    case 'price-asc':
      page = page.orderBy('products.price', 'asc').orderBy('products.id', 'asc');
      break;
    case 'price-desc':
      page = page.orderBy('products.price', 'desc').orderBy('products.id', 'desc');
      break;
    default:
      page = page.orderBy('products.id', 'desc');
  }
  const rows = await page
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const ids = rows.map((r) => r.id);
  const [links, images] = ids.length
    ? await Promise.all([
        db
          .selectFrom('product_categories')
          .innerJoin('categories', 'categories.id', 'product_categories.category_id')
          .select(['product_categories.product_id', 'categories.id', 'categories.name'])
          .where('product_categories.product_id', 'in', ids)
          .where('categories.deleted_at', 'is', null)
          .orderBy('categories.id')
          .execute(),
        db
          .selectFrom('product_images')
          .select(['product_id', 'file_stem', 'widths', 'width', 'height'])
          .where('product_id', 'in', ids)
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ])
    : [[], []];
  const items: AdminProductRow[] = rows.map((r) => ({
    productID: r.id,
    title: r.title,
    description: plainText(r.description),
    price: r.price,
    sizeOrWeight: r.size_or_weight,
    categories: links
      .filter((l) => l.product_id === r.id)
      .map((l) => ({ categoryID: l.id, categoryName: l.name })),
    images: images
      .filter((i) => i.product_id === r.id)
      .map((i) => imageOf(i.file_stem, i.widths, i.width, i.height)),
  }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}
