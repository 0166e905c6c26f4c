/**
 * Order updates pushed to the shopper's devices (Web Push, RFC 8030/8291 with VAPID, RFC 8292).
 * The texts are the shop's words for each status an admin can move an order to; the server
 * queues one per device at the move, the service worker shows it.
 */
import * as v from 'valibot';
import { formatCalendarDay } from './india-time.js';
import { formatRupees } from './money.js';
import type { OrderStatus } from './orders.js';
import { SITE_NAME } from './page-head.js';
import { paymentMethodLabel } from './payment-methods.js';
import { type DeliverySlot, windowLabel } from './slots.js';

export const ORDER_UPDATE_TEXTS: Readonly<Record<Exclude<OrderStatus, 'placed'>, string>> = {
  paid: 'Order #{id} is paid. Thank you!',
  confirmed: 'Order #{id} is confirmed: the bakers have it.',
  'out for delivery': 'Order #{id} is out for delivery.',
  delivered: 'Order #{id} has been delivered. Enjoy!',
  cancelled: 'Order #{id} has been cancelled.',
};

export interface OrderUpdatePush {
  title: string;
  body: string;
  /** One notification per order: a newer status replaces the older one on the device. */
  tag: string;
  /** Where a tap opens the shop. */
  url: string;
  orderID: number;
  status: OrderStatus;
}

/** `shopName`: the profile's name when the server queues it (api/push); the default shop's otherwise. */
export function orderUpdatePush(
  orderId: number,
  status: OrderStatus,
  shopName: string = SITE_NAME,
): OrderUpdatePush | null {
  if (status === 'placed') return null;
  return {
    title: shopName,
    body: ORDER_UPDATE_TEXTS[status].replace('{id}', String(orderId)),
    tag: `order-${orderId}`,
    url: `/my-orders/${orderId}`,
    orderID: orderId,
    status,
  };
}

/**
 * "New order #12" on an admin's device that asked for it: the total and how it is paid, the
 * delivery day and slot. A notice with no shopper's order to refresh (`orderID` 0, as the worker
 * reads it), one notification per order (its own tag), and a tap opens the admin's order page.
 */
export function newOrderPush(o: {
  orderID: number;
  status: OrderStatus;
  total: number;
  paymentMethod: string;
  deliveryDate: string;
  slot: Pick<DeliverySlot, 'name' | 'start' | 'end'>;
}): OrderUpdatePush {
  return {
    title: `New order #${o.orderID}`,
    body: `${formatRupees(o.total)}, ${paymentMethodLabel(o.paymentMethod)}. For ${formatCalendarDay(o.deliveryDate)}, ${o.slot.name} (${windowLabel(o.slot)}).`,
    tag: `new-order-${o.orderID}`,
    url: `/admin-orders/${o.orderID}`,
    orderID: 0,
    status: o.status,
  };
}

/** A P-256 public key (65 bytes) and a 16-byte auth secret, base64url as PushSubscription.toJSON() gives them. */
const base64url = (bytes: number, what: string) =>
  v.pipe(
    v.string(`${what} is required.`),
    v.regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url.`),
    // Unpadded base64url of n bytes is ceil(4n / 3) characters.
    v.check(
      (s) => s.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3),
      `${what} must be ${bytes} bytes.`,
    ),
  );

/** What the browser's `PushSubscription.toJSON()` gives, as the device sends it. */
export const PushSubscriptionSchema = v.object({
  endpoint: v.pipe(
    v.string('The subscription needs its endpoint.'),
    v.maxLength(2048, 'The endpoint is too long.'),
    v.url('The endpoint must be an https URL.'),
    v.startsWith('https://', 'The endpoint must be an https URL.'),
  ),
  expirationTime: v.optional(v.nullable(v.number())),
  keys: v.object(
    {
      p256dh: base64url(65, 'keys.p256dh'),
      auth: base64url(16, 'keys.auth'),
    },
    'The subscription needs its keys.',
  ),
});
export type PushSubscriptionInput = v.InferOutput<typeof PushSubscriptionSchema>;

export const PushEndpointSchema = v.object({
  endpoint: v.pipe(v.string('The endpoint is required.'), v.maxLength(2048, 'The endpoint is too long.')),
});

export const PushKeySchema = v.object({
  /** The VAPID public key for `pushManager.subscribe({ applicationServerKey })`, base64url. */
  publicKey: v.string(),
});

export const PushPreferencesSchema = v.object({
  orderUpdates: v.boolean('orderUpdates must be true or false.'),
});
export type PushPreferences = v.InferOutput<typeof PushPreferencesSchema>;

export const PushSubscribedSchema = v.object({ devices: v.number() });
