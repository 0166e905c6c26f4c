/**
 * The order page's Cancel, sent: online, `POST /my-orders/{id}/cancel` at once and its answer (the
 * order cancelled, with its refund) kept as the page's copy; offline, or when the shop could not
 * be reached, the cancel goes into the request queue (`sw/requests.ts`) under the same key and the
 * outbox's senders send it once the phone is back. The server judges either way.
 */
import { cancelMessages as t } from '../../domain/order-cancel.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { db } from '../../sw/db.js';
import { keepOrderCopy, queueCancel } from '../../sw/requests.js';
import { currentSession } from '../../sw/session.js';
import { ApiError, call } from '../api/client.js';
import { registerBackgroundSync, startPageSender } from '../checkout/page-sender.js';
import { newKey } from '../hooks/new-key.js';
import type { Said } from '../hooks/useAlerts.js';

export async function cancelOrder(orderID: number): Promise<Said> {
  const session = currentSession();
  if (!session) return { message: t.signIn, tone: 'error' };
  const key = newKey();
  if (navigator.onLine) {
    try {
      const answer = await call(ordersContract.cancelMyOrder, {
        params: { id: orderID },
        headers: { 'idempotency-key': key },
      });
      if (answer.data) await keepOrderCopy(db, session.userId, answer.data, Date.now());
      return { message: t.cancelled, tone: 'success' };
    } catch (err) {
      // The server's definite no (too late, not yours): said as it is; nothing is queued. No answer,
      // a 5xx or a 429 decided nothing: the cancel waits in the queue and goes again.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429)
        return { message: err.message, tone: 'error' };
    }
  }
  await queueCancel(db, session.userId, orderID, key, Date.now());
  startPageSender();
  void registerBackgroundSync();
  return { message: t.waiting, tone: 'info' };
}
