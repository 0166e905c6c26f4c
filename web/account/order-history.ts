import { ordersContract } from '../../domain/orders.contract.js';
import type { OrderHistoryRow } from '../../domain/orders.js';
import { db, type OrderHistoryCache } from '../../sw/db.js';
import { call } from '../api/client.js';

/**
 * My Orders' history: `GET /GetOrderHistoryByEmail` for the signed-in
 * account, kept in Dexie (`orderHistory`, one row per user id) with the time
 * it was fetched, so the screen shows the last answer while offline. A
 * failed fetch leaves the kept copy as it was.
 */
export async function refreshOrderHistory(userId: number, email: string): Promise<OrderHistoryCache> {
  const res = await call(ordersContract.orderHistoryByEmail, { query: { email } });
  const rows: OrderHistoryRow[] = res.data ?? [];
  const cache: OrderHistoryCache = { userId, rows, fetchedAt: Date.now() };
  await db.orderHistory.put(cache);
  return cache;
}

/** The kept history, or null when this device never fetched one for the account. */
export async function keptOrderHistory(userId: number): Promise<OrderHistoryCache | null> {
  return (await db.orderHistory.get(userId)) ?? null;
}
