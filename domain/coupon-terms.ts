/**
 * What a coupon takes off and when it holds, as a shopper's phone may know it: the discount
 * (`couponDiscount`, the one rule for the server, the checkout and the outbox) and a coupon's public
 * conditions. The rest of the coupon rules (the owner's form, the refusals) are `coupons.ts`'s.
 */
import * as v from 'valibot';

const int = v.pipe(v.number(), v.integer());

/** A flat amount in rupees, or a percentage of the items with a cap in rupees. */
export const CouponOffSchema = v.variant('kind', [
  v.object({ kind: v.literal('flat'), amount: v.pipe(int, v.minValue(1)) }),
  v.object({
    kind: v.literal('percent'),
    percent: v.pipe(int, v.minValue(1), v.maxValue(100)),
    cap: v.pipe(int, v.minValue(1)),
  }),
]);
export type CouponOff = v.InferOutput<typeof CouponOffSchema>;

/**
 * The rupees a coupon takes off items worth `subtotal`: never below ₹0 for the items, never
 * anything off delivery. A percentage rounds down to whole rupees, then meets its cap. A bare
 * number is a flat amount (the spec's `discountAmount`, and outbox rows queued before percentages).
 */
export function couponDiscount(off: CouponOff | number | null | undefined, subtotal: number): number {
  if (off === null || off === undefined) return 0;
  const wanted =
    typeof off === 'number'
      ? off
      : off.kind === 'flat'
        ? off.amount
        : Math.min(off.cap, Math.floor((subtotal * off.percent) / 100));
  return Math.max(0, Math.min(wanted, subtotal));
}

/**
 * A coupon's conditions a phone keeps with the catalogue (the `coupons` device setting), so an
 * order queued offline shows the coupon's likely effect. The code itself is not there: `key` is a
 * slow hash of it (`couponKey`), so the list reveals no code a shopper was not given. Uses are
 * not there either: the server decides those when the order is sent.
 */
export const CouponTermsSchema = v.object({
  key: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/)),
  off: CouponOffSchema,
  /** The items' total (before delivery) the coupon needs; 0 for none. */
  minItems: v.pipe(int, v.minValue(0)),
  firstOrderOnly: v.boolean(),
  /** Epoch ms; null: from when it was made, or with no end. */
  startsAt: v.nullable(v.number()),
  endsAt: v.nullable(v.number()),
});
export type CouponTerms = v.InferOutput<typeof CouponTermsSchema>;

const SALT = new TextEncoder().encode('shop-coupon-code/v1');
const ROUNDS = 20_000;

/**
 * The key a code is known by in the phone's list: PBKDF2-SHA-256 of the upper-case code, 128 bits
 * in hex. Slow on purpose (a few ms a code on a phone), so walking a dictionary over the list costs
 * what asking the server would, which the rate limit makes dear. Web Crypto: the same in Node.
 */
export async function couponKey(code: string): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const base = await subtle.importKey(
    'raw',
    new TextEncoder().encode(code.trim().toUpperCase()),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: SALT, iterations: ROUNDS },
    base,
    128,
  );
  return Array.from(new Uint8Array(bits), (b) => b.toString(16).padStart(2, '0')).join('');
}
