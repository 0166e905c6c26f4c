/**
 * The coupon rules (domain/coupons.ts) against the database: `checkCoupon` judges a coupon for an
 * account and a basket (VerifyCoupon, and every order's pricing), `redeem` takes the use in the
 * order's transaction, where the database decides races. The owner's writes keep the phones' list
 * of coupon terms (the `coupons` device setting) and the advertised offer in step, under one new
 * catalogue version, so phones get both with their next sync.
 */
import type { Kysely, Transaction } from 'kysely';
import { type CouponTerms, couponKey } from '../../domain/coupon-terms.js';
import {
  type Coupon,
  type CouponEdit,
  type CouponInput,
  type CouponRefusalKind,
  couponFormMessages,
  couponMessages,
  couponRefusal,
  couponState,
} from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { bumpVersion } from '../catalogue/catalogue.repository.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { writeSettings } from '../settings/settings.repository.js';
import { readShopSettings } from '../settings/settings.service.js';
import {
  accountSlots,
  endCoupon,
  findCoupon,
  hasOrders,
  insertCoupon,
  insertRedemption,
  notEnded,
  takeShopUse,
  updateCoupon,
} from './coupon.repository.js';
import { offerOf } from './offer.service.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A condition's truthful status: a coupon that is not on offer is a bad code; a used one conflicts; a basket too small cannot take it. */
const STATUS: Record<CouponRefusalKind, number> = {
  ended: 400,
  'not-started': 400,
  'first-order': 409,
  used: 409,
  'used-up': 409,
  minimum: 422,
};

function refuse(kind: CouponRefusalKind, message: string, code: string): never {
  throw new HttpError(STATUS[kind], message, { reason: 'coupon', condition: kind, code });
}

/**
 * A coupon judged for an account, with the account's uses of it as read then (`redeem` picks the
 * next free one from them, in the same order's transaction; the unique slot settles a race).
 */
export type CheckedCoupon = Coupon & { takenSlots: readonly number[] };

/**
 * Whether a coupon applies to this account and basket now (`subtotal`: the items' total, null
 * when the asker did not say). The friendly check; the guarantee is `redeem`.
 */
export async function checkCoupon(
  db: Db,
  code: string,
  userId: number,
  now: number,
  subtotal: number | null,
): Promise<CheckedCoupon> {
  const coupon = await findCoupon(db, code.trim().toUpperCase());
  if (!coupon) throw badRequest(messages.couponInvalid);
  const [slots, ordered] = await Promise.all([
    accountSlots(db, coupon.code, userId),
    coupon.firstOrderOnly ? hasOrders(db, userId) : Promise.resolve(false),
  ]);
  const refusal = couponRefusal(coupon, {
    now,
    subtotal,
    usedByAccount: slots.length,
    usedInAll: coupon.uses,
    hasOrders: ordered,
  });
  if (refusal) refuse(refusal.kind, refusal.message, coupon.code);
  return { ...coupon, takenSlots: slots };
}

/**
 * Inside the order's transaction: one of the shop's uses (a conditional update), then the first
 * free one of the account's (a unique slot). Two orders racing for the last use, or for an
 * account's last one, make one redemption; the other is refused in the coupon's words.
 */
export async function redeem(
  db: Db,
  coupon: CheckedCoupon,
  userId: number,
  orderId: number,
  now: number,
): Promise<void> {
  const taken = new Set(coupon.takenSlots);
  let slot = 1;
  while (taken.has(slot)) slot++;
  if (slot > coupon.perAccount) refuse('used', couponMessages.used(coupon.code), coupon.code);
  if (!(await takeShopUse(db, coupon.code)))
    refuse('used-up', couponMessages.usedUp(coupon.code), coupon.code);
  try {
    await insertRedemption(db, { code: coupon.code, userId, orderId, slot, now });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    refuse('used', couponMessages.used(coupon.code), coupon.code);
  }
}

/** The phones' list: each coupon not ended yet, by the hash of its code, with its public conditions. */
async function couponTerms(db: Db, now: number): Promise<CouponTerms[]> {
  const coupons = await notEnded(db, now);
  return Promise.all(
    coupons.map(async (c) => ({
      key: await keyOf(c.code),
      off: c.off,
      minItems: c.minItems,
      firstOrderOnly: c.firstOrderOnly,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
    })),
  );
}

const keys = new Map<string, Promise<string>>();
/** A code's key is the same for life: worked out once a process. */
function keyOf(code: string): Promise<string> {
  let key = keys.get(code);
  if (!key) {
    key = couponKey(code);
    keys.set(code, key);
  }
  return key;
}

/**
 * After a coupon changed, in its transaction: a new catalogue version carrying the phones' list,
 * and the advertised offer as the coupon now is (gone, when the coupon no longer holds).
 */
async function publish(trx: Transaction<Database>, code: string, now: number): Promise<void> {
  const version = await bumpVersion(trx);
  const { offer } = await readShopSettings(trx);
  const patch: Record<string, unknown> = { coupons: await couponTerms(trx, now) };
  if (offer?.code === code) {
    const coupon = await findCoupon(trx, code);
    patch.offer = coupon && couponState(coupon, now) !== 'ended' ? offerOf(coupon) : null;
  }
  await writeSettings(trx, patch, version, now);
}

/** The phones' list rewritten under a catalogue version a caller already took (the demo's removal). */
export async function republishTerms(
  trx: Transaction<Database>,
  version: number,
  now: number,
): Promise<void> {
  await writeSettings(trx, { coupons: await couponTerms(trx, now) }, version, now);
}

export async function createCoupon(
  db: Kysely<Database>,
  input: CouponInput,
  now = Date.now(),
): Promise<void> {
  const { code, ...edit } = input;
  try {
    await db.transaction().execute(async (trx) => {
      await insertCoupon(trx, { code, ...edit }, now);
      await publish(trx, code, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(couponFormMessages.duplicate(code), { field: 'code' });
    throw err;
  }
}

export async function editCoupon(
  db: Kysely<Database>,
  code: string,
  edit: CouponEdit,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await updateCoupon(trx, code, edit))) throw notFound(couponFormMessages.notFound(code));
    await publish(trx, code, now);
  });
}

/** Ends a coupon now: never deleted, so every order that used it still names it. */
export async function endCouponNow(
  db: Kysely<Database>,
  code: string,
  now = Date.now(),
): Promise<'ended' | 'already'> {
  return db.transaction().execute(async (trx) => {
    const coupon = await findCoupon(trx, code);
    if (!coupon) throw notFound(couponFormMessages.notFound(code));
    if (couponState(coupon, now) === 'ended') return 'already';
    await endCoupon(trx, code, now);
    await publish(trx, code, now);
    return 'ended';
  });
}
