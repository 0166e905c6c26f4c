/**
 * The SQL of "Make it yours": which rows are still the demo's (`demo = 1`: written by the demo seed,
 * never changed by an admin since, see api/db/migrations/20261128_1800_demo_rows.ts) and their
 * removal. Writes take the version they are given; the rules are `golive.service.ts`'s.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DemoLeft } from '../../domain/go-live.js';
import { DEMO_COUPON } from '../../domain/go-live.js';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;
const num = (x: unknown) => Number(x ?? 0);

/** The live products that are still the demo's. */
function demoProducts(db: Db) {
  return db
    .selectFrom('products')
    .select('products.id')
    .where('demo', '=', 1)
    .where('deleted_at', 'is', null);
}

/**
 * The live demo categories the removal takes: those no product of the owner's is in. A demo
 * category holding a product the owner added or edited is kept, so that product keeps its place.
 */
function removableCategories(db: Db) {
  return db
    .selectFrom('categories')
    .select('categories.id')
    .where('categories.demo', '=', 1)
    .where('categories.deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('product_categories')
            .innerJoin('products', 'products.id', 'product_categories.product_id')
            .select('products.id')
            .whereRef('product_categories.category_id', '=', 'categories.id')
            .where('products.deleted_at', 'is', null)
            .where('products.demo', '=', 0),
        ),
      ),
    );
}

/** Whether the demo coupon is still on offer. */
async function demoCouponActive(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('coupons')
    .select('code')
    .where('code', '=', DEMO_COUPON)
    .where('active', '=', 1)
    .executeTakeFirst();
  return Boolean(row);
}

export async function demoLeft(db: Db): Promise<DemoLeft> {
  const [products, categories, images, coupon] = await Promise.all([
    db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id', 'in', demoProducts(db))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id', 'in', removableCategories(db))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('product_images')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('product_id', 'in', demoProducts(db))
      .executeTakeFirstOrThrow(),
    demoCouponActive(db),
  ]);
  return { products: num(products.n), categories: num(categories.n), images: num(images.n), coupon };
}

/** What one removal found to remove, read inside its transaction (after the version bump's lock). */
export interface DemoRows {
  productIds: number[];
  categoryIds: number[];
  images: { product_id: number; file_stem: string; widths: string }[];
}

export async function demoRows(trx: Transaction<Database>): Promise<DemoRows> {
  const productIds = (await demoProducts(trx).execute()).map((r) => r.id);
  const categoryIds = (await removableCategories(trx).execute()).map((r) => r.id);
  const images = productIds.length
    ? await trx
        .selectFrom('product_images')
        .select(['product_id', 'file_stem', 'widths'])
        .where('product_id', 'in', productIds)
        .execute()
    : [];
  return { productIds, categoryIds, images };
}

/** The pictures order lines show (`product_image`, its address) among these products' lines. */
export async function pictureAddressesInOrders(db: Db, productIds: number[]): Promise<string[]> {
  const out: string[] = [];
  // Chunks keep each IN list under SQLite's bound-parameter limit.
  for (let i = 0; i < productIds.length; i += 500) {
    const rows = await db
      .selectFrom('order_items')
      .select('product_image')
      .distinct()
      .where('product_id', 'in', productIds.slice(i, i + 500))
      .execute();
    out.push(...rows.map((r) => r.product_image));
  }
  return out;
}

/** Removes the image rows of these (soft-deleted) products: no live answer reads them again. */
export async function deleteImageRows(trx: Transaction<Database>, productIds: number[]): Promise<void> {
  for (let i = 0; i < productIds.length; i += 500) {
    await trx
      .deleteFrom('product_images')
      .where('product_id', 'in', productIds.slice(i, i + 500))
      .execute();
  }
}

/**
 * Takes the demo coupon off offer: deleted when no order or payment ever carried it, ended
 * (inactive, the row kept) when one did, so that order still names a coupon the shop had. Answers
 * what it did.
 */
export async function withdrawDemoCoupon(trx: Transaction<Database>): Promise<'deleted' | 'ended' | 'none'> {
  if (!(await demoCouponActive(trx))) return 'none';
  // A cancelled first order gives its redemption back, but the order still names the coupon.
  const [redeemed, ordered, paying] = await Promise.all([
    trx
      .selectFrom('coupon_redemptions')
      .select('id')
      .where('coupon_code', '=', DEMO_COUPON)
      .executeTakeFirst(),
    trx.selectFrom('orders').select('id').where('coupon_code', '=', DEMO_COUPON).executeTakeFirst(),
    trx.selectFrom('payments').select('id').where('coupon_code', '=', DEMO_COUPON).executeTakeFirst(),
  ]);
  if (redeemed || ordered || paying) {
    await trx.updateTable('coupons').set({ active: 0 }).where('code', '=', DEMO_COUPON).execute();
    return 'ended';
  }
  await trx.deleteFrom('coupons').where('code', '=', DEMO_COUPON).execute();
  return 'deleted';
}
