/** SQL for coupons and their redemptions. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface Coupon {
  code: string;
  amount: number;
  firstOrderOnly: boolean;
  singleUse: boolean;
  active: boolean;
  expiresAt: number | null;
}

export async function findCoupon(db: Db, code: string): Promise<Coupon | null> {
  const row = await db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) return null;
  return {
    code: row.code,
    amount: row.discount_amount,
    firstOrderOnly: row.first_order_only === 1,
    singleUse: row.single_use === 1,
    active: row.active === 1,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  };
}

/** Whether this user redeemed it, and (for single-use coupons) whether anyone did. */
export async function redemptionsOf(
  db: Db,
  code: string,
  userId: number,
): Promise<{ byUser: boolean; byAnyone: boolean }> {
  const rows = await db
    .selectFrom('coupon_redemptions')
    .select('user_id')
    .where('coupon_code', '=', code)
    .limit(50)
    .execute();
  return { byUser: rows.some((r) => r.user_id === userId), byAnyone: rows.length > 0 };
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

/** Throws the database's unique violation when the coupon is already redeemed (see the migration). */
export async function insertRedemption(
  db: Db,
  r: { coupon: Coupon; userId: number; orderId: number; now: number },
): Promise<void> {
  await db
    .insertInto('coupon_redemptions')
    .values({
      coupon_code: r.coupon.code,
      user_id: r.userId,
      order_id: r.orderId,
      single_use_slot: r.coupon.singleUse ? r.coupon.code : null,
      redeemed_at: r.now,
    })
    .execute();
}

/** Adds a coupon (the admin's coupon screen and the tests); codes are kept upper-case, as they are matched. */
export async function insertCoupon(
  db: Db,
  c: {
    code: string;
    amount: number;
    firstOrderOnly?: boolean;
    singleUse?: boolean;
    expiresAt?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('coupons')
    .values({
      code: c.code.toUpperCase(),
      discount_amount: c.amount,
      first_order_only: c.firstOrderOnly ? 1 : 0,
      single_use: c.singleUse ? 1 : 0,
      active: 1,
      expires_at: c.expiresAt ?? null,
      created_at: Date.now(),
    })
    .execute();
}

/** The coupons a shopper could use now: active and not past their end, by code. */
export async function liveCoupons(db: Db, now: number): Promise<Coupon[]> {
  const rows = await db
    .selectFrom('coupons')
    .selectAll()
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('code')
    .execute();
  return rows.map((row) => ({
    code: row.code,
    amount: row.discount_amount,
    firstOrderOnly: row.first_order_only === 1,
    singleUse: row.single_use === 1,
    active: row.active === 1,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  }));
}
