/**
 * What an online payment pays for, and how long its price holds (README of `api/payments`).
 *
 * `cartKey` names the cart a provider order was made for: its lines (product, option, quantity,
 * the cake's message and photo), the delivery date and slot, and where it goes (address, pincode,
 * recipient). Two requests with one key are the same purchase, whatever else differs (the card's
 * words, the name typed). The server uses it to reuse the open provider order of a cart asked for
 * again under a new key, and, when an order is placed, to close the account's other open provider
 * orders of the same cart (an abandoned payment is then refunded if it is ever paid). The phone uses
 * it to end a payment in progress whose cart was ordered another way.
 */
import type { OrderRequestInput } from './orders.js';

/** A price the shop quoted holds this long: an unpaid provider order is closed after it. */
export const PAY_WINDOW_MS = 60 * 60_000;

/** Open provider orders (nothing paid yet) an account may hold at once: a cart asked again reuses its own. */
export const MAX_OPEN_PAYMENTS = 5;

/** The provider is asked about one provider order at most this often from the phone's polls. */
export const ASK_PROVIDER_EVERY_MS = 15_000;

type CartRequest = Pick<
  OrderRequestInput,
  'OrderItems' | 'DeliveryDate' | 'DeliverySlotID' | 'CustomerAddress' | 'CustomerPincode' | 'Recipient'
>;

const words = (s: unknown) =>
  String(s ?? '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** The cart a request buys, as one canonical string (equal for the same purchase). */
export function cartKey(r: CartRequest): string {
  const lines = r.OrderItems.map((i) => [
    i.ProductID ?? null,
    i.VariationID ?? null,
    i.ProductID == null ? words(i.ProductName) : '',
    Number(i.Quantity),
    words(i.CakeMessage),
    i.PhotoID ?? null,
  ]);
  return JSON.stringify([
    lines,
    String(r.DeliveryDate).trim(),
    r.DeliverySlotID ?? null,
    words(r.CustomerAddress),
    String(r.CustomerPincode).trim(),
    r.Recipient ? [words(r.Recipient.Name), words(r.Recipient.Phone)] : null,
  ]);
}

/** Whether a payment's price window has passed at `now` (ms) for a provider order made at `madeAt`. */
export function payWindowOver(madeAt: number, now: number): boolean {
  return now - madeAt > PAY_WINDOW_MS;
}

/** What the shopper reads when the money paths refuse or undo a payment. */
export const paymentCartMessages = {
  /** A second open payment carrying a coupon an account may use once. */
  couponInPayment: (code: string) =>
    `${code} is already in a payment in progress. Finish that payment (Pay again), or order without the coupon.`,
  tooManyOpen: `You have ${MAX_OPEN_PAYMENTS} payments not finished yet. Finish one of them, or try again in an hour.`,
  /** The coupon no longer holds when a payment is placed by the server: the money goes back. */
  couponGone: (code: string, why: string) =>
    `The coupon ${code} could not be used (${why.replace(/[.!]$/, '')})`,
  /** Why an abandoned payment's provider order was closed: its cart was ordered another way. */
  orderedAnotherWay: (orderId: number) => `These items were already ordered (order ${orderId}).`,
  /** Why a payment made after its price window, at a price that has since risen, goes back. */
  priceWindowOver: 'The prices changed while the payment was open for more than an hour.',
  /** The same items were asked for again at another price: the older payment is closed. */
  replaced: 'A newer payment for the same items replaced this one.',
  /** The phone ended the payment (its lines were ordered another way). */
  endedOnPhone: 'This payment was ended on your phone before it was paid.',
} as const;
