/**
 * Money is kept in whole rupees everywhere (database, API, cart): the shop's
 * prices, delivery charges and coupons are all whole rupees, and the spec
 * shows prices with no decimals. Paise exist only at the payment provider's
 * boundary (Razorpay takes amounts in paise).
 */
/**
 * Made at the first price shown, not when the module loads: building an ICU formatter is the
 * largest part of the first screen's module evaluation, its longest task on a phone, and a price
 * shows only once React renders.
 */
let rupeeFormat: Intl.NumberFormat | undefined;

/** "₹1,250" — en-IN grouping, no decimals. */
export function formatRupees(rupees: number): string {
  rupeeFormat ??= new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  });
  return rupeeFormat.format(rupees);
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
