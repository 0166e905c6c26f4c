/** How an order is paid: the method names the API carries, how they read to people, and old spellings. */
import * as v from 'valibot';

/** The spec's default is Cash on Delivery; its one selectable online option is the provider, Razorpay. */
export const PAYMENT_METHODS = { cod: 'Cash on Delivery', online: 'Razorpay' } as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[keyof typeof PAYMENT_METHODS];
export const PaymentMethodSchema = v.picklist([PAYMENT_METHODS.cod, PAYMENT_METHODS.online]);

/** How a method reads to people: the API's value "Razorpay" is the provider, the shopper paid online. */
export function paymentMethodLabel(method: string): string {
  return method === PAYMENT_METHODS.online ? 'Paid online' : method;
}

/** Old clients wrote the method in several ways; each known spelling maps to one of ours. */
export function normalizePaymentMethod(raw: string): PaymentMethod | null {
  const s = raw.trim().toLowerCase();
  if (s === '' || s === 'cash on delivery' || s === 'cod' || s === 'cash') return PAYMENT_METHODS.cod;
  if (s === 'razorpay' || s === 'online' || s.startsWith('upi')) return PAYMENT_METHODS.online;
  return null;
}
