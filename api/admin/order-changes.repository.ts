/** The open admin screens' question: which orders were placed or moved since a time (README.md, "Live orders"). */
import type { Kysely } from 'kysely';
import { LIVE_MAX_CHANGES, type OrderChanges } from '../../domain/admin-live.js';
import type { OrderStatus } from '../../domain/orders.js';
import type { Database } from '../db/schema.js';

/**
 * Orders whose `updated_at` (set when placed and at every status move, the payment's too) is
 * after `since`, the latest first, at most LIVE_MAX_CHANGES: a range of the `orders_updated`
 * index, a handful of rows while the shop is quiet. `byYou`: the last change is a move this admin
 * made (its timeline row has the order's `updated_at`; a payment's move writes none).
 */
export async function orderChanges(
  db: Kysely<Database>,
  adminId: number,
  since: number,
  now: number,
): Promise<OrderChanges> {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [
      'orders.id',
      'orders.status',
      'orders.created_at',
      'orders.updated_at',
      eb
        .selectFrom('order_status_history')
        .select('order_status_history.changed_by')
        .whereRef('order_status_history.order_id', '=', 'orders.id')
        .whereRef('order_status_history.created_at', '=', 'orders.updated_at')
        .orderBy('order_status_history.id', 'desc')
        .limit(1)
        .as('moved_by'),
    ])
    .where('orders.updated_at', '>', since)
    .orderBy('orders.updated_at', 'desc')
    .orderBy('orders.id', 'desc')
    .limit(LIVE_MAX_CHANGES + 1)
    .execute();
  return {
    now,
    changes: rows.slice(0, LIVE_MAX_CHANGES).map((r) => ({
      orderID: r.id,
      status: r.status as OrderStatus,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      byYou: r.moved_by !== null && Number(r.moved_by) === adminId,
    })),
    more: rows.length > LIVE_MAX_CHANGES,
  };
}
