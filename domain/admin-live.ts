/**
 * The owner hears a new order (api/admin/README.md, "Live orders"): what the open orders list
 * and dashboard ask every few seconds ("which orders changed since"), the admin's switch for
 * new-order notifications on a device, and the words the screens say.
 */
import * as v from 'valibot';
import { adminMessages } from './admin-messages.js';
import { type OrderStatus, OrderStatusSchema } from './orders.js';

/** How often an open, visible admin screen asks: a new order shows within 15 s. */
export const LIVE_POLL_MS = 10_000;
/** A first question (no `since`) looks this far back; what it finds is the screen's starting point. */
export const LIVE_FIRST_LOOK_MS = 2 * 60_000;
/**
 * The next `since` reaches this far before the last answer's `now`: a write whose transaction
 * began before that answer and committed after it (its `updated_at` is older than the answer)
 * is still seen. The screen keeps what it has seen, so the overlap is never said twice.
 */
export const LIVE_OVERLAP_MS = 60_000;
/** At most this many changes in one answer, the newest; `more` says some were left out. */
export const LIVE_MAX_CHANGES = 50;
/**
 * The name of the event a live screen dispatches on the page's `window` when it heard of new
 * orders: the top bar's bell looks again at once (both are admin screens; the name is here
 * because both already load this module).
 */
export const NEW_ORDERS_EVENT = 'admin-new-orders';

const int = v.pipe(v.number(), v.integer());

export const OrderChangesQuerySchema = v.object({
  since: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'since is a time in milliseconds.'), v.transform(Number)),
  ),
});

export const OrderChangeSchema = v.object({
  orderID: int,
  status: OrderStatusSchema,
  /** When it was placed and when it last changed (ms). */
  createdAt: int,
  updatedAt: int,
  /** Its last change was a status move by the admin who asks (their own move is no news to them). */
  byYou: v.boolean(),
});
export type OrderChange = v.InferOutput<typeof OrderChangeSchema>;

export const OrderChangesSchema = v.object({
  /** Server time of this answer (ms): the next `since` is a little before it (LIVE_OVERLAP_MS). */
  now: int,
  /** Orders placed or moved after `since`, the latest change first. */
  changes: v.array(OrderChangeSchema),
  /** More changed than LIVE_MAX_CHANGES: the screen reloads without naming each. */
  more: v.boolean(),
});
export type OrderChanges = v.InferOutput<typeof OrderChangesSchema>;

/**
 * What a device needs to sign up: the shop's VAPID public key (as `GET /push/key` gives it), and
 * how many of the admin's devices hear of new orders.
 */
export const NewOrderAlertsStateSchema = v.object({ publicKey: v.string(), devices: int });

/**
 * The switch on one device, named by its push endpoint. With `keys` (on), the device's
 * subscription as `PushSubscription.toJSON()` gives it: the server checks and keeps it exactly as
 * `POST /push/subscriptions` does (domain/push.ts, its allow-list and limits) before marking it.
 * Only its outline is here: the admin's screens need none of the shopper's push code.
 */
export const NewOrderAlertsSchema = v.object({
  endpoint: v.pipe(v.string('The endpoint is required.'), v.maxLength(2048, 'The endpoint is too long.')),
  keys: v.optional(
    v.object({
      p256dh: v.pipe(v.string('keys.p256dh is required.'), v.maxLength(200, 'keys.p256dh is too long.')),
      auth: v.pipe(v.string('keys.auth is required.'), v.maxLength(200, 'keys.auth is too long.')),
    }),
  ),
  on: v.boolean('on must be true or false.'),
});
export const NewOrderAlertsAnswerSchema = v.object({
  on: v.boolean(),
  /** The admin's devices that hear of new orders now. */
  devices: int,
});

export const liveMessages = {
  /** "2 new orders", "Order #12 is now paid", "1 new order, 3 orders moved". */
  news(newOrders: number, moved: readonly { orderID: number; status: OrderStatus }[]): string {
    const parts: string[] = [];
    if (newOrders) parts.push(adminMessages.newOrders(newOrders));
    const [only] = moved;
    if (moved.length === 1 && only) parts.push(`order #${only.orderID} is now ${only.status}`);
    else if (moved.length > 1) parts.push(`${moved.length} orders moved`);
    const text = parts.join(', ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  },
  manyChanged: 'Many orders changed: what you see is up to date.',
  watching: 'New orders show here as they come.',
  showNewest: 'Show',
  dismiss: 'Dismiss',
  soundLabel: 'Sound for new orders',
  soundHelp: 'Plays a chime on this device while this screen is open.',
  soundNeedsTap: 'Click anywhere on the page once to let the browser play it.',
  pushLabel: 'Notify this device of new orders',
  pushHelp: "Shows each new order's number, delivery slot and total, even when the shop is closed.",
  pushBlocked: 'Notifications are blocked for this site: allow them in the browser’s site settings.',
  pushUnsupported:
    'This browser cannot show notifications from the shop. On an iPhone or iPad, add the shop to the Home Screen and turn this on there.',
  pushOn: 'New orders will be notified on this device.',
  pushOff: 'This device will no longer be notified of new orders.',
  pushFailed: 'Notifications could not be changed. Check your connection.',
  newTag: 'New',
} as const;
