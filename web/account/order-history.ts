import { lineOption } from '../../domain/order-lines.js';
import { ordersContract } from '../../domain/orders.contract.js';
import type { OrderHistoryRow } from '../../domain/orders.js';
import type { ShopperRefund } from '../../domain/refunds.js';
import { db } from '../../sw/db.js';
import type { OrderHistoryCache } from '../../sw/db-rows.js';
import { callRevalidated } from '../api/client.js';
import type { ShownLine } from '../checkout/OrderLines.js';

/**
 * My Orders' history: `GET /GetOrderHistoryByEmail` for the signed-in
 * account, kept in Dexie (`orderHistory`, one row per user id) with the time
 * it was fetched, so the screen shows the last answer while offline. A
 * failed fetch leaves the kept copy as it was.
 */
export async function refreshOrderHistory(userId: number, email: string): Promise<OrderHistoryCache> {
  const kept = await keptOrderHistory(userId);
  // The open screen polls: with the kept copy's ETag, an unchanged history is a 304.
  const answer = await callRevalidated(ordersContract.orderHistoryByEmail, kept?.etag ?? null, {
    query: { email },
  });
  const now = Date.now();
  if (!answer && kept) {
    await db.orderHistory.update(userId, { fetchedAt: now });
    return { ...kept, fetchedAt: now };
  }
  const rows: OrderHistoryRow[] = answer?.envelope.data ?? [];
  const cache: OrderHistoryCache = {
    userId,
    rows,
    fetchedAt: now,
    ...(answer?.etag ? { etag: answer.etag } : {}),
  };
  await db.orderHistory.put(cache);
  return cache;
}

/** The kept history, or null when this device never fetched one for the account. */
export async function keptOrderHistory(userId: number): Promise<OrderHistoryCache | null> {
  return (await db.orderHistory.get(userId)) ?? null;
}

/** The parts of a line that copies of the history kept before them lack. */
type LineParts = 'productTitle' | 'variationName' | 'variationValue' | 'unitPrice';
export type KeptHistoryRow = Omit<OrderHistoryRow, LineParts> & Partial<Pick<OrderHistoryRow, LineParts>>;

/**
 * A history row's line for `OrderLineList`. A copy kept before lines had their parts shows the
 * name it was answered with ("Chocolate Truffle Delight (Weight)") and no price of one, until the
 * next fetch replaces it.
 */
export function historyLine(r: KeptHistoryRow): ShownLine {
  const common = {
    productID: null,
    quantity: r.quantity,
    image: r.productImage,
    message: r.cakeMessage ?? null,
    photo: r.photoID ? { blob: null, photoID: r.photoID } : null,
  };
  if (r.productTitle === undefined || r.unitPrice === undefined) {
    return { ...common, title: r.productName, option: null, unitPrice: null, lineTotal: null };
  }
  return {
    ...common,
    title: r.productTitle,
    option: lineOption({ variationName: r.variationName ?? null, variationValue: r.variationValue }),
    unitPrice: r.unitPrice,
    lineTotal: r.unitPrice * r.quantity,
  };
}

/**
 * The refunds of a history row's order (every row of the order carries the same list), oldest
 * first. A copy kept before refunds were answered has none until the next fetch.
 */
export function historyRefunds(r: KeptHistoryRow): ShopperRefund[] {
  return (r as { refunds?: ShopperRefund[] }).refunds ?? [];
}
