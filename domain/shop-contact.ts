/**
 * How the shop is paid: the footer's payment marks. Apart from `domain/shop.ts` because only the
 * lazy footer uses them. How the shop is reached is its owner's (the profile,
 * `domain/shop-profile.ts`).
 */
/** The footer's payment marks, drawn in the stylesheet (`.pay--{id}`); the names are what a screen reader says. */
export const PAYMENT_METHODS = [
  { id: 'upi', name: 'UPI' },
  { id: 'visa', name: 'Visa' },
  { id: 'mastercard', name: 'Mastercard' },
  { id: 'rupay', name: 'RuPay' },
  { id: 'netbanking', name: 'Net banking' },
  { id: 'cod', name: 'Cash on delivery' },
] as const;
