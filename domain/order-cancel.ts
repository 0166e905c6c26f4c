/**
 * When a shopper may cancel their own order, and if not, why: one rule for the server (which
 * judges by its own clock, `POST /my-orders/{id}/cancel`) and the order page (which says it
 * before the shopper asks, offline too, from the device's copy of the order and its settings).
 *
 * An order can be cancelled:
 * - while it is `placed` or `paid` and its slot starts more than `cancelHoursBeforeSlot` hours
 *   later (a device setting, 0 to 72, 6 by default). The slot's start is the order's kept slot
 *   window on its delivery date in India's time; an order without one is Standard's (10 AM);
 * - and always within 15 minutes of being placed, unless it is out for delivery or delivered
 *   (a same-day order placed at 5 PM for 9 PM can still be undone at once).
 * No fee: the Consumer Protection (E-Commerce) Rules 2020 allow none the shop does not bear.
 */
import { indiaInstant } from './india-time.js';
import { formatRupees } from './money.js';
import type { OrderStatus } from './orders.js';
import type { ShopProfile } from './shop-profile.js';
import { type OrderSlot, STANDARD_SLOT } from './slots.js';

export const CANCEL_GRACE_MINUTES = 15;

export const cancelMessages = {
  button: 'Cancel order',
  buttonFor: (orderID: number) => `Cancel order ${orderID}`,
  title: 'Cancel this order?',
  paidBack: (amount: number) => `The ${formatRupees(amount)} you paid online goes back to you in full.`,
  nothingPaid: 'Nothing was paid online, so there is nothing to refund.',
  keep: 'Keep the order',
  confirm: 'Yes, cancel it',
  cancelled: 'Your order is cancelled.',
  /** The timeline's note (the move names the shopper's account). */
  byShopper: 'Cancelled by the shopper',
  keyRequired: 'The Idempotency-Key header is required to cancel an order.',
  signIn: 'Please log in to cancel this order.',
  understood: 'OK',
  waiting: 'Cancellation waiting to be sent',
  /** Why the button is gone, and who to call. */
  why: {
    confirmed: 'The shop has confirmed this order, so it can no longer be cancelled here.',
    soon: (hours: number) =>
      hours === 0
        ? 'Its delivery slot has started, so it can no longer be cancelled here.'
        : `Its delivery slot starts within ${hours} hours, so it can no longer be cancelled here.`,
    'out for delivery': 'It is out for delivery, so it can no longer be cancelled.',
    delivered: 'It has been delivered.',
  },
  callShop: (phone: string) => `To change it, please call the shop on ${phone}.`,
  /** The server's 409: with the shop's phone (or its email), else without. */
  closed: (contact: string) =>
    `This order can no longer be cancelled. ${contact ? `Please contact the shop on ${contact}.` : 'Please contact the shop.'}`,
  /** The policy's sentence; a shop that takes no payment online says nothing of paying online. */
  policy: (hours: number, online: boolean | undefined = true) =>
    `Cancel from your order page until ${hours} hours before your delivery slot, or within ${CANCEL_GRACE_MINUTES} minutes of ordering${online === false ? '.' : '; what you paid online comes back in full.'}`,
} as const;

/** What the rule needs of an order. */
export interface CancellableOrder {
  status: OrderStatus;
  /** When it was placed: an ISO time. */
  orderDate: string;
  /** Its delivery date (YYYY-MM-DD, India). */
  deliveryDate: string;
  /** The slot kept on it; null or absent: Standard. */
  deliverySlot?: Pick<OrderSlot, 'start'> | null;
}

/** Why an order cannot be cancelled by its shopper (the keys of `cancelMessages.why`). */
export type CancelClosed = 'confirmed' | 'soon' | 'out for delivery' | 'delivered';

export type CancelVerdict =
  | { kind: 'open'; until: number }
  | { kind: 'cancelled' }
  | { kind: 'closed'; why: CancelClosed };

/** When the order's slot starts (ms), in India's time. */
export function slotStart(order: CancellableOrder): number {
  return indiaInstant(order.deliveryDate, order.deliverySlot?.start ?? STANDARD_SLOT.start);
}

/**
 * Whether the shopper may cancel now, and until when (the later of the slot's cut-off and the
 * grace's end); or why not. `hours` is the shop's `cancelHoursBeforeSlot`.
 */
export function cancelVerdict(order: CancellableOrder, hours: number, now: number): CancelVerdict {
  if (order.status === 'cancelled') return { kind: 'cancelled' };
  if (order.status === 'out for delivery' || order.status === 'delivered')
    return { kind: 'closed', why: order.status };
  const graceEnds = Date.parse(order.orderDate) + CANCEL_GRACE_MINUTES * 60_000;
  const cutOff =
    order.status === 'confirmed' ? Number.NEGATIVE_INFINITY : slotStart(order) - hours * 3_600_000;
  const until = Math.max(graceEnds, cutOff);
  if (now < until) return { kind: 'open', until };
  return { kind: 'closed', why: order.status === 'confirmed' ? 'confirmed' : 'soon' };
}

/** Who a shopper asks once it can no longer be cancelled: the shop's phone, else its email ('' for none). */
export function cancelContact(profile: Pick<ShopProfile, 'care'>): string {
  return profile.care.phone || profile.care.email;
}

/** What the page says of a closed order: why, in words. */
export function closedReason(why: CancelClosed, hours: number): string {
  return why === 'soon' ? cancelMessages.why.soon(hours) : cancelMessages.why[why];
}
