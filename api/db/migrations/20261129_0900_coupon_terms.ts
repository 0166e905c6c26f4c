/**
 * Coupons the owner runs (domain/coupons.ts): a flat amount or a percentage with a cap
 * (`percent`; `discount_amount` is then the cap), a minimum for the items, uses in all and per
 * account, and a start beside the end (`expires_at`). A shop-wide single-use coupon becomes one
 * with one use in all.
 *
 * Uses are counted exactly under concurrency, by the database, as before:
 * - in all: `coupons.uses`, taken by one conditional update (`uses < max_uses`), which waits on
 *   the row's lock, so two orders racing for the last use make one redemption;
 * - per account: each redemption fills one of the account's slots for the coupon, unique
 *   `(coupon_code, user_id, account_slot)`, so an account racing itself fills each slot once.
 * The old unique `(coupon_code, user_id)` cannot be dropped on SQLite, so the redemptions move to
 * a new table of the same name (ids renumbered: nothing refers to them).
 *
 * Phones learn the coupons' public terms from the `coupons` device setting, which every change on
 * the Coupons screen rewrites; the coupons a shop has now (the seeded SAVE200) are written here,
 * under a new catalogue version, with the key `couponKey` (domain/coupon-terms.ts) made the same
 * way, copied so that this migration never changes.
 */
import { pbkdf2Sync } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  const columns: [string, 'text' | 'integer' | 'bigint', string | number | null][] = [
    ['percent', 'integer', null],
    ['min_items', 'integer', 0],
    ['max_uses', 'integer', null],
    ['per_account', 'integer', 1],
    ['starts_at', 'bigint', null],
    ['uses', 'integer', 0],
  ];
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('coupons')
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }
  await db.updateTable('coupons').set({ max_uses: 1 }).where('single_use', '=', 1).execute();
  await db.schema.alterTable('coupons').dropColumn('single_use').execute();

  await db.schema
    .createTable('coupon_redemptions_next')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('coupon_code', 'text', (c) => c.notNull().references('coupons.code'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('account_slot', 'integer', (c) => c.notNull())
    .addColumn('redeemed_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('coupon_redemptions_account_slot', ['coupon_code', 'user_id', 'account_slot'])
    .execute();
  await sql`INSERT INTO coupon_redemptions_next (coupon_code, user_id, order_id, account_slot, redeemed_at)
    SELECT coupon_code, user_id, order_id, 1, redeemed_at FROM coupon_redemptions`.execute(db);
  await db.schema.dropTable('coupon_redemptions').execute();
  await db.schema.alterTable('coupon_redemptions_next').renameTo('coupon_redemptions').execute();
  await sql`UPDATE coupons SET uses = (SELECT COUNT(*) FROM coupon_redemptions r WHERE r.coupon_code = coupons.code)`.execute(
    db,
  );
  await writeTerms(db);
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
async function writeTerms(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  const coupons = await db
    .selectFrom('coupons')
    .selectAll()
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('code')
    .execute();
  const terms = coupons.map((c) => ({
    key: pbkdf2Sync(String(c.code).toUpperCase(), 'shop-coupon-code/v1', 20_000, 16, 'sha256').toString(
      'hex',
    ),
    off: { kind: 'flat', amount: Number(c.discount_amount) },
    minItems: 0,
    firstOrderOnly: Number(c.first_order_only) === 1,
    startsAt: null,
    endsAt: c.expires_at === null ? null : Number(c.expires_at),
  }));
  const state = await db
    .selectFrom('catalogue_state')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!state) return;
  const version = Number(state.version) + 1;
  await db.updateTable('catalogue_state').set({ version }).where('id', '=', 1).execute();
  await db
    .insertInto('shop_settings')
    .values({ key: 'coupons', value: JSON.stringify(terms), version, updated_at: now })
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('shop_settings').where('key', '=', 'coupons').execute();
  await db.schema
    .createTable('coupon_redemptions_prev')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('coupon_code', 'text', (c) => c.notNull().references('coupons.code'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('single_use_slot', 'text', (c) => c.unique())
    .addColumn('redeemed_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('coupon_redemptions_once_per_user', ['coupon_code', 'user_id'])
    .execute();
  await sql`INSERT INTO coupon_redemptions_prev (coupon_code, user_id, order_id, redeemed_at)
    SELECT coupon_code, user_id, MIN(order_id), MIN(redeemed_at) FROM coupon_redemptions GROUP BY coupon_code, user_id`.execute(
    db,
  );
  await db.schema.dropTable('coupon_redemptions').execute();
  await db.schema.alterTable('coupon_redemptions_prev').renameTo('coupon_redemptions').execute();
  await db.schema
    .alterTable('coupons')
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('coupons').set({ single_use: 1 }).where('max_uses', '=', 1).execute();
  for (const name of ['uses', 'starts_at', 'per_account', 'max_uses', 'min_items', 'percent']) {
    await db.schema.alterTable('coupons').dropColumn(name).execute();
  }
}
