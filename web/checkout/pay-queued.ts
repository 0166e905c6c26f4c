/**
 * A queued Cash on Delivery order the owner's rules refused (the server's 422 `cod`), paid online
 * instead, as the same order under its own key: a refused order stored nothing under it, so the
 * provider order, the payment and the order placed after it all share the row's key, and the
 * server can never place it twice. Its photos are the shop's already (or uploaded first, as the
 * checkout does), a provider order prices the row's request, Checkout takes the payment, and the
 * row is queued again with the payment's proof and sent (`requeuePaid`).
 *
 * While Checkout is open the payment is in progress on the device (`db.payments`, as the
 * checkout's own): a page that dies in the UPI app leaves the resume (`payment-resume.ts`) to
 * find the order the server placed from the payment, and to mark the row sent.
 */
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { messages } from '../../domain/messages.js';
import { classifyAnswer, type ProblemKind } from '../../domain/outbox.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import { withProof } from '../../domain/payment-resume.js';
import { type ProviderOrder, paymentsContract } from '../../domain/payments.contract.js';
import { defaultEnv, updateRow, uploadOrderPhotos } from '../../sw/outbox.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { requeuePaid } from '../../sw/outbox-shopper.js';
import { currentSession } from '../../sw/session.js';
import { ApiError, call } from '../api/client.js';
import type { Said } from '../hooks/useAlerts.js';
import { paymentRowOf, release, startedHere } from './payment-resume.js';
import { photoUploadError, sendWhileWaiting } from './place.js';
import type { PaymentResult, Prefill } from './razorpay.js';

/**
 * The refusals of the provider order the shopper fixes on the row, as the sender's would be. Any
 * other (paid already under this key: the resume shows that order) leaves the row as it is.
 */
const FIXABLE: ReadonlySet<ProblemKind> = new Set([
  'repriced',
  'product-gone',
  'delivery-date',
  'slot',
  'undeliverable',
]);

export type OpenCheckout = (order: ProviderOrder, prefill: Prefill) => Promise<PaymentResult>;

export async function payQueuedOnline(row: OutboxRow, open: OpenCheckout): Promise<Said> {
  const session = currentSession();
  if (!navigator.onLine) return { message: t.onlineNeedsNetwork, tone: 'error' };
  if (!session || session.userId !== row.userId) return { message: messages.orderFailed, tone: 'error' };
  const env = defaultEnv();
  const key = row.key;
  // This page follows its own payment; the resume (for a page that died) leaves it alone.
  startedHere.add(key);
  try {
    let current = row;
    const photos = await uploadOrderPhotos(
      env,
      { request: row.request, photos: row.photos ?? [] },
      session.token,
      async (next) => {
        current = await updateRow(env, current, next);
      },
    );
    if (photos.stopped) return { message: photoUploadError(photos.stopped.answer).message, tone: 'error' };
    const request = { ...photos.request, PaymentMethod: PAYMENT_METHODS.online };
    const { RazorpayOrderId: _o, RazorpayPaymentId: _p, RazorpaySignature: _s, ...body } = request;
    const answer = await call(paymentsContract.createRazorpayOrder, {
      body,
      headers: { 'idempotency-key': key },
    });
    const order = answer.data;
    if (!order) return { message: messages.orderFailed, tone: 'error' };
    // Kept before Checkout opens: if this page dies in the UPI app, the next one asks what became of it.
    // No cart lines are its: they left the cart when the order was queued.
    await env.db.payments.put(
      paymentRowOf(
        {
          key,
          userId: row.userId,
          email: row.email,
          request,
          figures: row.figures,
          slot: row.slot,
          cartKeys: [],
          photos: photos.photos,
          ...(row.lines ? { lines: row.lines } : {}),
        },
        order,
        env.now(),
      ),
    );
    const result = await open(order, {
      name: request.CustomerName,
      email: session.email,
      contact: session.phone,
    });
    if (result.kind === 'failed') {
      await env.db.payments.delete(key);
      return { message: t.paymentFailed(result.reason), tone: 'error' };
    }
    if (result.kind === 'dismissed') return { message: t.paymentCancelled, tone: 'info' };
    if (!(await requeuePaid(key, withProof(request, result.proof), env))) {
      // Decided elsewhere meanwhile (another tab): the resume settles what the payment became.
      return { message: messages.orderFailed, tone: 'error' };
    }
    const stored = await env.db.outbox.get(key);
    const sent = stored ? await sendWhileWaiting(stored) : undefined;
    return sent?.state === 'sent'
      ? { message: messages.orderPlaced, tone: 'success' }
      : { message: t.stillSending, tone: 'info' };
  } catch (err) {
    if (!(err instanceof ApiError)) return { message: messages.orderFailed, tone: 'error' };
    // The server refused the provider order (new prices, a slot gone, the area): the row waits
    // with that refusal instead, for the shopper to decide, exactly as if the order had been sent.
    const outcome = classifyAnswer({ status: err.status, body: err.envelope, retryAfter: null }, env.now());
    const stored = await env.db.outbox.get(key);
    if (outcome.kind === 'attention' && FIXABLE.has(outcome.problem.kind) && stored?.state === 'attention')
      await updateRow(env, upgradeRow(stored), { problem: outcome.problem });
    return { message: err.message || messages.orderFailed, tone: 'error' };
  } finally {
    // Not paid as far as this page knows: the resume follows it from here.
    release(key);
  }
}
