/**
 * What a pincode is, on its own: the header's pincode chip (on the first screen) checks the saved
 * one with it, and must not pull the rest of the delivery rules (`delivery.ts`) into that screen.
 */

/** The spec: a pincode is exactly 6 digits (Indian PIN codes never start with 0). */
export function isValidPincode(value: string): boolean {
  return /^[1-9]\d{5}$/.test(value);
}
