/// <reference lib="webworker" />
/**
 * The worker's side of order updates: what a push carries (domain/push.ts's
 * `orderUpdatePush`, checked here because it crossed the network), and the device's copies
 * brought up to date when one arrives, so the order page and My Orders show the new status even
 * if the shopper opens them offline after the notification.
 */
import * as v from 'valibot';
import type { ShopperOrder } from '../domain/order-tracking.js';
import { ordersContract } from '../domain/orders.contract.js';
import { OrderStatusSchema } from '../domain/orders.js';
import { isOwnedBy } from '../domain/ownership.js';
import { db, type ShopDatabase } from './db.js';
import { loadSession } from './session-writes.js';

export const OrderUpdatePushSchema = v.object({
  title: v.string(),
  body: v.string(),
  tag: v.string(),
  url: v.pipe(v.string(), v.startsWith('/')),
  /** 0: a notice with no order (a paid order that could not be placed): shown, refreshing nothing. */
  orderID: v.pipe(v.number(), v.integer(), v.minValue(0)),
  status: OrderStatusSchema,
});
export type OrderUpdate = v.InferOutput<typeof OrderUpdatePushSchema>;

/** The push's payload, or null when it is not an order update this worker understands. */
export function readOrderUpdate(json: unknown): OrderUpdate | null {
  const parsed = v.safeParse(OrderUpdatePushSchema, json);
  return parsed.success ? parsed.output : null;
}

/**
 * The order's status in the kept history at once (no network needed), then the order's own copy
 * from the server with its ETag, for the signed-in account only: a push is for the device, and
 * the phone may have changed hands since it subscribed (logout forgets the subscription, but a
 * push already on its way may still arrive).
 */
export async function refreshOrderCopies(update: OrderUpdate, store: ShopDatabase = db): Promise<void> {
  if (update.orderID === 0) return;
  const session = await loadSession(store);
  if (!session) return;
  const userId = session.userId;
  await store.transaction('rw', store.orderHistory, async () => {
    const history = await store.orderHistory.get(userId);
    if (!history?.rows.some((r) => r.orderID === update.orderID)) return;
    // The kept ETag no longer names this content: the next poll fetches the whole history.
    const { etag: _stale, ...rest } = history;
    await store.orderHistory.put({
      ...rest,
      rows: history.rows.map((r) => (r.orderID === update.orderID ? { ...r, status: update.status } : r)),
    });
  });
  const kept = await store.orderDetails.get(update.orderID);
  const mine = kept && isOwnedBy(kept, userId) ? kept : null;
  const path = ordersContract.myOrder.path.replace('{id}', String(update.orderID));
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  if (mine?.etag) headers['if-none-match'] = mine.etag;
  const res = await fetch(`/api${path}`, { headers });
  if (res.status === 304 || !res.ok) return;
  const body = (await res.json()) as { data?: ShopperOrder };
  if (!body.data || body.data.orderID !== update.orderID) return;
  await store.orderDetails.put({
    orderID: update.orderID,
    userId,
    order: body.data,
    fetchedAt: Date.now(),
    etag: res.headers.get('etag'),
  });
}

/** What a notification says when the payload could not be read (a push must always show one). */
export function fallbackText(update: OrderUpdate | null): { title: string; body: string } {
  if (update) return { title: update.title, body: update.body };
  return { title: 'Bakery & Blooms', body: 'There is news about your order: open My Orders.' };
}
