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

/**
 * What Razorpay Checkout may offer. Since 28 February 2026 NPCI no longer allows UPI "collect"
 * requests (the shopper types a UPI ID and approves a request in their app) from merchants on
 * Android and desktop: UPI is paid by Intent (the app list) on a phone and by QR code on a
 * desktop. Razorpay's UPI collect migration notes hide the flow with this `config.display` block;
 * the local test provider's stand-in reads the same block, so what it shows is what Razorpay shows.
 */
export const CHECKOUT_DISPLAY = {
  hide: [{ method: 'upi', flows: ['collect'] }],
} as const satisfies { hide: readonly { method: string; flows?: readonly string[] }[] };

export type CheckoutDisplay = { hide?: readonly { method: string; flows?: readonly string[] }[] };

/** The ways to pay a Checkout with this `display` block offers, as the stand-in lists them. */
export function onlineMethodsShown(display: CheckoutDisplay): string[] {
  const hidden = (method: string, flow?: string) =>
    (display.hide ?? []).some(
      (h) => h.method === method && (h.flows === undefined || (flow !== undefined && h.flows.includes(flow))),
    );
  const upi = hidden('upi') ? null : hidden('upi', 'collect') ? 'UPI (app or QR)' : 'UPI (app, QR or UPI ID)';
  return [upi, hidden('card') ? null : 'Cards', hidden('netbanking') ? null : 'Net banking'].filter(
    (m): m is string => m !== null,
  );
}
