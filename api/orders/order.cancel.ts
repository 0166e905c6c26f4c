/**
 * The shopper's own Cancel (`POST /my-orders/{id}/cancel`): the server judges by its own clock with
 * the rule in `domain/order-cancel.ts`, then cancels through `changeOrderStatus` as the shop's cancel
 * does (the full refund of what was paid online, once; the coupon back; the slot's place free; the
 * timeline, naming the shopper; the move pushed to their devices). A cancel sent twice (a retry, a
 * queued one sent again) finds the order cancelled and answers it as it is: never a second refund.
 */
import type { FastifyInstance } from 'fastify';
import { cancelContact, cancelMessages, cancelVerdict } from '../../domain/order-cancel.js';
import type { ShopperOrder } from '../../domain/order-tracking.js';
import { trackingMessages } from '../../domain/order-tracking.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { readSomeSettings } from '../settings/settings.service.js';
import { changeOrderStatus } from './order.status.js';
import { shopperOrder } from './order-tracking.repository.js';

export async function cancelByShopper(
  app: FastifyInstance,
  shopper: { id: number; email: string },
  orderId: number,
  now: number = Date.now(),
): Promise<ShopperOrder> {
  // Another account's order is a missing one, as on the order page.
  const order = await shopperOrder(app.db, shopper.id, orderId);
  if (!order) throw notFound(trackingMessages.notFound);
  const { cancelHoursBeforeSlot: hours, profile } = await readSomeSettings(app.db, [
    'cancelHoursBeforeSlot',
    'profile',
  ]);
  const verdict = cancelVerdict(order, hours, now);
  if (verdict.kind === 'cancelled') return order;
  const contact = cancelContact(profile);
  if (verdict.kind === 'closed')
    throw conflict(cancelMessages.closed(contact), { reason: 'cancel-closed', why: verdict.why });
  try {
    await changeOrderStatus(app.db, orderId, 'cancelled', shopper, cancelMessages.byShopper, {
      now,
      refunds: app.refunds,
    });
  } catch (err) {
    // Moved meanwhile (the same cancel twice at once, or the shop): judged again as it is now.
    if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
    const moved = await shopperOrder(app.db, shopper.id, orderId);
    if (moved?.status === 'cancelled') return moved;
    const again = moved ? cancelVerdict(moved, hours, now) : null;
    if (again?.kind === 'closed')
      throw conflict(cancelMessages.closed(contact), { reason: 'cancel-closed', why: again.why });
    throw err;
  }
  const cancelled = await shopperOrder(app.db, shopper.id, orderId);
  if (!cancelled) throw notFound(trackingMessages.notFound);
  return cancelled;
}
