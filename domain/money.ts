/**
 * Money is kept in whole rupees everywhere (database, API, cart): the shop's
 * prices, delivery charges and coupons are all whole rupees, and the spec
 * shows prices with no decimals. Paise exist only at the payment provider's
 * boundary (Razorpay takes amounts in paise).
 */
/**
 * "₹1,250", "₹12,34,568", "-₹200": what `Intl.NumberFormat('en-IN', {style: 'currency', currency: 'INR',
 * maximumFractionDigits: 0})` writes (tests/unit/money.test.ts compares the two), written by hand:
 * building that ICU formatter was the longest piece of the product page's first render on a phone
 * (about 100 ms at 4x CPU, `npm run bench -- storefront`'s trace), for a rule of four lines.
 * Indian grouping: the last three digits, then pairs. Half a rupee rounds away from zero, and a negative
 * amount keeps its sign even when it rounds to 0, as ICU does.
 */
export function formatRupees(rupees: number): string {
  if (!Number.isFinite(rupees)) return `₹${rupees}`;
  // Below 10^21 String() writes every digit; no price or total comes near it.
  const digits = String(Math.round(Math.abs(rupees)));
  const last = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${rupees < 0 || Object.is(rupees, -0) ? '-' : ''}₹${rest ? `${rest},` : ''}${last}`;
}

export function toPaise(rupees: number): number {
  if (!Number.isSafeInteger(rupees)) throw new RangeError(`Not a whole number of rupees: ${rupees}`);
  return rupees * 100;
}

export function isWholeRupees(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Paise back to rupees, for amounts the payment provider reports; refuses fractions of a rupee. */
export function fromPaise(paise: number): number {
  if (!Number.isSafeInteger(paise) || paise % 100 !== 0)
    throw new RangeError(`Not whole rupees in paise: ${paise}`);
  return paise / 100;
}
