import type { Kysely } from 'kysely';
import type { StatusChange } from '../../domain/admin-answers.js';
import { canMoveTo, type OrderStatus } from '../../domain/orders.js';
import { releaseRedemption } from '../coupons/coupon.repository.js';
import type { Database } from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
import { claimCancelRefund } from '../payments/refunds.service.js';
import { queueOrderUpdate } from '../push/push.repository.js';
import { findOrderStatus, moveStatus } from './order.repository.js';

/**
 * What asks the provider for a cancelled order's refund once the cancel committed
 * (`app.refunds`, api/payments/refund.routes.ts). Without it the refund is still kept with the
 * cancel, and the retry job asks for it.
 */
export interface CancelRefunds {
  afterCancel(orderId: number): Promise<void>;
}

/**
 * Moving an order along its statuses, for both the spec-era endpoint
 * (`PUT /orders/{id}/status`) and the admin area's (`PUT /admin/orders/{id}/status`,
 * which adds a note): one transaction checks the move, makes it only if
 * nobody moved the order meanwhile, writes the timeline row, and gives a
 * cancelled order's coupon back. A cancelled order paid online keeps, in the same transaction,
 * the refund of what is left of its payment (one per order: only one cancel moves the order,
 * and the refund's key is the order's); the provider is asked after the commit, since a network
 * call never holds a transaction.
 */
export async function changeOrderStatus(
  db: Kysely<Database>,
  orderId: number,
  to: OrderStatus,
  by: { id: number; email: string },
  note: string,
  options: { now?: number; refunds?: CancelRefunds | null } = {},
): Promise<StatusChange> {
  const now = options.now ?? Date.now();
  let refund = false;
  const change = await db.transaction().execute(async (trx) => {
    const from = await findOrderStatus(trx, orderId);
    if (!from) throw notFound(`Order ${orderId} was not found.`);
    if (!canMoveTo(from, to))
      throw conflict(`An order that is ${from} cannot become ${to}.`, { status: from });
    // Before the move: the refund takes the payment's row lock first, as a payment's events do
    // before they touch the order, so the two never wait on each other in a circle. A move that
    // then fails undoes the refund with the rest of the transaction.
    if (to === 'cancelled') refund = await claimCancelRefund(trx, orderId, by.email, now);
    if (!(await moveStatus(trx, orderId, from, to, now))) {
      throw conflict('The order changed meanwhile. Please reload it.');
    }
    await trx
      .insertInto('order_status_history')
      .values({
        order_id: orderId,
        from_status: from,
        to_status: to,
        changed_by: by.id,
        changed_by_email: by.email,
        note,
        created_at: now,
      })
      .execute();
    // A cancelled order gives its coupon's use back (a first-order offer is again the account's).
    if (to === 'cancelled') await releaseRedemption(trx, orderId);
    // The shopper's devices hear of it: queued with the move, sent after it commits (api/push).
    await queueOrderUpdate(trx, orderId, to, now);
    return { from, to, by: by.email, at: new Date(now).toISOString(), note };
  });
  if (refund) await options.refunds?.afterCancel(orderId);
  return change;
}
