/** SQL for coupons and their redemptions (the migration 20261129_0900 says how uses are counted). */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { REVENUE_STATUSES } from '../../domain/admin-dashboard.js';
import type { CouponOff } from '../../domain/coupon-terms.js';
import type { Coupon, CouponEdit, CouponSummary } from '../../domain/coupons.js';
import { couponState } from '../../domain/coupons.js';
import type { Database } from '../db/schema.js';
import type { CouponsTable } from './coupon.tables.js';

type Db = Kysely<Database> | Transaction<Database>;

function couponOf(row: Selectable<CouponsTable>): Coupon & { createdAt: number; uses: number } {
  const off: CouponOff =
    row.percent === null
      ? { kind: 'flat', amount: row.discount_amount }
      : { kind: 'percent', percent: row.percent, cap: row.discount_amount };
  return {
    code: row.code,
    off,
    minItems: Number(row.min_items),
    firstOrderOnly: row.first_order_only === 1,
    maxUses: row.max_uses === null ? null : Number(row.max_uses),
    perAccount: Number(row.per_account),
    startsAt: row.starts_at === null ? null : Number(row.starts_at),
    endsAt: row.expires_at === null ? null : Number(row.expires_at),
    active: row.active === 1,
    createdAt: Number(row.created_at),
    uses: Number(row.uses),
  };
}

/** The columns the owner's form writes. */
function columnsOf(c: CouponEdit) {
  return {
    discount_amount: c.off.kind === 'flat' ? c.off.amount : c.off.cap,
    percent: c.off.kind === 'percent' ? c.off.percent : null,
    min_items: c.minItems,
    first_order_only: c.firstOrderOnly ? 1 : 0,
    max_uses: c.maxUses,
    per_account: c.perAccount,
    starts_at: c.startsAt,
    expires_at: c.endsAt,
  };
}

export async function findCoupon(db: Db, code: string): Promise<(Coupon & { uses: number }) | null> {
  const row = await db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
  return row ? couponOf(row) : null;
}

/** Which of its uses of the coupon this account holds now (their slots). */
export async function accountSlots(db: Db, code: string, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('coupon_redemptions')
    .select('account_slot')
    .where('coupon_code', '=', code)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => Number(r.account_slot));
}

/** Orders the account placed that still count (a cancelled first order does not use up a first-order offer). */
export async function hasOrders(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes one of the coupon's uses in all: one conditional update, which on PostgreSQL waits for a
 * racing order's lock and then sees its use, and on SQLite runs alone. False when none is left.
 */
export async function takeShopUse(db: Db, code: string): Promise<boolean> {
  const res = await db
    .updateTable('coupons')
    .set({ uses: sql`uses + 1` })
    .where('code', '=', code)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Throws the database's unique violation when another order took this slot of the account's uses. */
export async function insertRedemption(
  db: Db,
  r: { code: string; userId: number; orderId: number; slot: number; now: number },
): Promise<void> {
  await db
    .insertInto('coupon_redemptions')
    .values({
      coupon_code: r.code,
      user_id: r.userId,
      order_id: r.orderId,
      account_slot: r.slot,
      redeemed_at: r.now,
    })
    .execute();
}

/** A cancelled order gives its use back, to the account and to the shop's count. */
export async function releaseRedemption(db: Db, orderId: number): Promise<void> {
  const row = await db
    .deleteFrom('coupon_redemptions')
    .where('order_id', '=', orderId)
    .returning('coupon_code')
    .executeTakeFirst();
  if (!row) return;
  await db
    .updateTable('coupons')
    .set({ uses: sql`uses - 1` })
    .where('code', '=', row.coupon_code)
    .where('uses', '>', 0)
    .execute();
}

/**
 * Adds a coupon (the Coupons screen, and tests); codes are kept upper-case, as they are matched.
 * Throws the database's unique violation for a code the shop has.
 */
export async function insertCoupon(
  db: Db,
  c: { code: string } & Partial<CouponEdit> & { amount?: number },
  now = Date.now(),
): Promise<void> {
  const edit: CouponEdit = {
    off: c.off ?? { kind: 'flat', amount: c.amount ?? 100 },
    minItems: c.minItems ?? 0,
    firstOrderOnly: c.firstOrderOnly ?? false,
    maxUses: c.maxUses ?? null,
    perAccount: c.perAccount ?? 1,
    startsAt: c.startsAt ?? null,
    endsAt: c.endsAt ?? null,
  };
  await db
    .insertInto('coupons')
    .values({ code: c.code.toUpperCase(), ...columnsOf(edit), active: 1, created_at: now })
    .execute();
}

/** The owner's edit; false when no coupon has the code. */
export async function updateCoupon(db: Db, code: string, c: CouponEdit): Promise<boolean> {
  const res = await db.updateTable('coupons').set(columnsOf(c)).where('code', '=', code).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends the coupon at `now` (an end already past stays). */
export async function endCoupon(db: Db, code: string, now: number): Promise<void> {
  await db
    .updateTable('coupons')
    .set({ expires_at: now })
    .where('code', '=', code)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/** Every coupon with what it gave: orders that count and the rupees they took off. */
export async function listCoupons(db: Db, now: number): Promise<CouponSummary[]> {
  const [rows, given] = await Promise.all([
    db.selectFrom('coupons').selectAll().orderBy('created_at', 'desc').orderBy('code').execute(),
    db
      .selectFrom('orders')
      .select(['coupon_code', (eb) => eb.fn.sum<number | string>('discount').as('given')])
      .where('coupon_code', 'is not', null)
      .where('status', 'in', REVENUE_STATUSES)
      .groupBy('coupon_code')
      .execute(),
  ]);
  const givenBy = new Map(given.map((g) => [g.coupon_code, Number(g.given ?? 0)]));
  return rows.map((row) => {
    const coupon = couponOf(row);
    const { active: _active, ...c } = coupon;
    return { ...c, state: couponState(coupon, now), discountGiven: givenBy.get(row.code) ?? 0 };
  });
}

/** The coupons a shopper could use now: active, started and not past their end, by code. */
export async function liveCoupons(db: Db, now: number): Promise<Coupon[]> {
  return (await notEnded(db, now)).filter((c) => couponState(c, now) === 'live');
}

/** The coupons not ended yet (live, or starting later), by code: the phones' list is made from them. */
export async function notEnded(db: Db, now: number): Promise<Coupon[]> {
  const rows = await db
    .selectFrom('coupons')
    .selectAll()
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('code')
    .execute();
  return rows.map(couponOf);
}
