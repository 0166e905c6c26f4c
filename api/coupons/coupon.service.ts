import type { Kysely, Transaction } from 'kysely';
import { messages } from '../../domain/messages.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { badRequest, conflict } from '../http/errors.js';
import { type Coupon, findCoupon, hasOrders, insertRedemption, redemptionsOf } from './coupon.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Whether a coupon applies to this account now. This is the friendly check
 * (for `VerifyCoupon` and for pricing); the guarantee that a coupon is used
 * once is `redeem`, where the database's unique indexes decide races.
 */
export async function checkCoupon(db: Db, code: string, userId: number, now: number): Promise<Coupon> {
  const coupon = await findCoupon(db, code.trim().toUpperCase());
  if (!coupon?.active) throw badRequest(messages.couponInvalid);
  if (coupon.expiresAt !== null && coupon.expiresAt <= now) throw badRequest(messages.couponExpired);
  const used = await redemptionsOf(db, coupon.code, userId);
  if (used.byUser || (coupon.singleUse && used.byAnyone)) throw conflict(messages.couponUsed);
  if (coupon.firstOrderOnly && (await hasOrders(db, userId))) throw conflict(messages.couponFirstOrderOnly);
  return coupon;
}

/** Inside the order's transaction: a second redemption fails on a unique index, never on a race. */
export async function redeem(
  db: Db,
  coupon: Coupon,
  userId: number,
  orderId: number,
  now: number,
): Promise<void> {
  try {
    await insertRedemption(db, { coupon, userId, orderId, now });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(messages.couponUsed);
    throw err;
  }
}
