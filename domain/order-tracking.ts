/**
 * The shopper's own order, as `/my-orders/{id}` shows it: its lines, delivery,
 * address, payment, figures and the timeline of its statuses with their times. Unlike the
 * admin's order (`domain/admin-answers.ts`), a step carries neither the admin's note nor who made it:
 * notes are the shop's own words to itself.
 */
import * as v from 'valibot';
import { orderGiftEntries } from './gifts.js';
import { OrderLineSchema, type OrderStatus, OrderStatusSchema } from './orders.js';
import { PaymentMethodSchema } from './payment-methods.js';
import { ShopperRefundSchema } from './refunds.js';
import { OrderSlotSchema } from './slots.js';

const int = v.pipe(v.number(), v.integer());

export const OrderStepSchema = v.object({
  status: OrderStatusSchema,
  /** ISO time the order reached this status. */
  at: v.string(),
});
export type OrderStep = v.InferOutput<typeof OrderStepSchema>;

export const ShopperOrderSchema = v.object({
  orderID: int,
  status: OrderStatusSchema,
  orderDate: v.string(),
  deliveryDate: v.string(),
  deliverySlot: v.nullable(OrderSlotSchema),
  customerName: v.string(),
  customerPhone: v.string(),
  customerAddress: v.string(),
  state: v.string(),
  city: v.string(),
  pincode: v.string(),
  paymentMethod: PaymentMethodSchema,
  subtotal: int,
  deliveryCharge: int,
  slotCharge: int,
  discount: int,
  couponCode: v.nullable(v.string()),
  totalAmount: int,
  lines: v.array(OrderLineSchema),
  timeline: v.array(OrderStepSchema),
  /** Money given back on an online payment, oldest first ("Refund of ₹450 processed on 27 Nov"). */
  refunds: v.array(ShopperRefundSchema),
  /** Who receives it and the surprise choices. */
  ...orderGiftEntries,
});
export type ShopperOrder = v.InferOutput<typeof ShopperOrderSchema>;

/**
 * The steps an order normally takes, for the timeline's still-to-come part: a cancelled or
 * delivered order has none left. "paid" is not a step of its own: only online payment reaches it.
 */
const USUAL_STEPS: readonly OrderStatus[] = ['placed', 'confirmed', 'out for delivery', 'delivered'];

export function stepsToCome(status: OrderStatus): OrderStatus[] {
  if (status === 'cancelled' || status === 'delivered') return [];
  const reached = status === 'paid' ? 0 : USUAL_STEPS.indexOf(status);
  return USUAL_STEPS.slice(reached + 1);
}

/** What an order still in the phone's outbox is called beside the server's states. */
export const WAITING_TO_BE_SENT = 'Waiting to be sent';

/**
 * "Out for delivery" from "out for delivery": how a status reads on its own, the same on order
 * success, My Orders, the order page and queued orders (Waiting to be sent, Placed, Paid,
 * Confirmed, Out for delivery, Delivered, Cancelled).
 */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** Where an order the phone holds stands (the outbox's states, `sw/outbox-row.ts`). */
export type HeldOrderState = 'queued' | 'sending' | 'attention' | 'sent' | 'cancelled';

/**
 * An order the phone holds, in the same names as a placed one: the server's status once sent, and
 * until then waiting to be sent, whether it waits for the network, is on its way, or waits for the
 * shopper's decision (the screen says which beside it). Cancelled before it was sent is Cancelled.
 */
export function heldOrderLabel(state: HeldOrderState, placedStatus: OrderStatus | null): string {
  if (state === 'cancelled') return statusLabel('cancelled');
  if (state === 'sent') return statusLabel(placedStatus ?? 'placed');
  return WAITING_TO_BE_SENT;
}

/** The order page's and the order updates' own words (the spec has none for them). */
export const trackingMessages = {
  notFound: 'No such order.',
  title: (id: number) => `Order #${id}`,
  fetchedAt: (when: string) => `Updated ${when}. Changes show here within seconds while this page is open.`,
  offline: (when: string) => `You are offline. This is the order as it was at ${when}.`,
  notOnDevice: 'You are offline, and this order is not on this device yet. Open it once online.',
  timeline: 'Progress',
  toCome: 'still to come',
  updatesOffer:
    'Get a notification on this phone when your order is confirmed, out for delivery and delivered?',
  updatesYes: 'Notify me',
  updatesNo: 'Not now',
  updatesOn: 'You will be notified on this phone when your order moves.',
  updatesBlocked:
    'Notifications are blocked for this shop in the browser settings. My Orders still shows every change.',
  noPushIos:
    'This browser can only notify you about your order from the installed app: add the shop to your Home Screen (Share, then Add to Home Screen) and open it from there.',
  noPush: 'This browser cannot notify you when your order moves. My Orders shows every change.',
  switchLabel: 'Order updates on this device',
  switchHelp: 'A notification when an order is confirmed, out for delivery, delivered or cancelled.',
  switchUnsupported: 'This browser cannot show order updates.',
  switchBlocked: 'Notifications are blocked for this shop in the browser settings.',
} as const;
