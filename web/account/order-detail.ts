import type { ShopperOrder } from '../../domain/order-tracking.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { isOwnedBy } from '../../domain/ownership.js';
import type { ShopperRefund } from '../../domain/refunds.js';
import { db } from '../../sw/db.js';
import type { OrderDetailCache } from '../../sw/db-rows.js';
import { callRevalidated } from '../api/client.js';

/**
 * One order's page (`/my-orders/{id}`): `GET /api/my-orders/{id}` for the signed-in account,
 * kept in Dexie (`orderDetails`) with the time it was fetched and its ETag, so the page shows
 * the last copy offline and a poll of an unchanged order costs a 304. A failed fetch leaves the
 * kept copy as it was. The worker refreshes the same row when a push says the order moved.
 */
export async function refreshOrderDetail(userId: number, orderID: number): Promise<OrderDetailCache | null> {
  const kept = await keptOrderDetail(userId, orderID);
  const answer = await callRevalidated(ordersContract.myOrder, kept?.etag ?? null, {
    params: { id: orderID },
  });
  const now = Date.now();
  if (!answer) {
    if (!kept) return null;
    // Not modified: the copy is as fresh as this moment.
    await db.orderDetails.update(orderID, { fetchedAt: now });
    return { ...kept, fetchedAt: now };
  }
  const order = answer.envelope.data as ShopperOrder;
  const cache: OrderDetailCache = { orderID, userId, order, fetchedAt: now, etag: answer.etag };
  await db.orderDetails.put(cache);
  return cache;
}

/** The kept copy, or null when this device never fetched the order for this account. */
export async function keptOrderDetail(userId: number, orderID: number): Promise<OrderDetailCache | null> {
  const row = await db.orderDetails.get(orderID);
  return row && isOwnedBy(row, userId) ? row : null;
}

/** The order's refunds, oldest first; a copy kept before refunds were answered has none until refreshed. */
export function orderRefunds(order: ShopperOrder): ShopperRefund[] {
  return (order as Partial<ShopperOrder>).refunds ?? [];
}
