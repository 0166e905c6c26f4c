/**
 * The payments' background job (README.md, "Paid means placed"): webhooks can be missed (the shop
 * was down, a misconfigured secret), so the provider is asked. Run once across processes per
 * period through the job lease; every step is safe twice, since a payment found here goes through
 * the webhook's own handler (`handleProviderEvent`) under the event id `reconcile:<payment id>`.
 *
 * - A payment this server saw authorized and not captured within 10 minutes is captured
 *   (Razorpay refunds uncaptured payments after a few days).
 * - A provider order with no order and no outcome, older than 15 minutes, is asked about
 *   (`GET /v1/orders/{id}/payments`, each at most every 15 minutes): a captured payment is
 *   handled as its webhook would be; an authorized one older than 10 minutes is captured first.
 *   One never paid is closed when its price window passes, an hour after it was made (a payment
 *   arriving later is refunded). Rows never asked go first, then the least recently asked.
 * - A payment marked refunded whose refund never reached the provider is asked for again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PAY_WINDOW_MS, payWindowOver } from '../../domain/payment-cart.js';
import { ensureRefund } from './paid-orders.js';
import type { PaymentContext } from './payment.context.js';
import { handleProviderEvent } from './payment.events.js';
import {
  closeUnpaid,
  noteAsked,
  openProviderOrders,
  refundsOwed,
  type StoredPayment,
  uncapturedPayments,
} from './payment.repository.js';
import { paysFor } from './payment.service.js';
import type { ProviderPayment } from './provider.js';

const MINUTE = 60_000;
export const RECONCILE_EVERY_MS = MINUTE;
/** An authorized payment not seen captured this long is captured by the shop. */
export const CAPTURE_AFTER_MS = 10 * MINUTE;
/** A provider order with no order this long is asked about (and asked again after as long). */
export const ASK_AFTER_MS = 15 * MINUTE;
/** A provider order never paid is closed when its price window passes (`PAY_WINDOW_MS`, an hour). */
export const CLOSE_AFTER_MS = PAY_WINDOW_MS;
/** Rows handled per step and run: the provider is asked a bounded number of times a minute. */
const BATCH = 50;

export interface ReconcileReport {
  /** Provider orders asked about. */
  asked: number;
  /** Payments captured by the shop. */
  captured: number;
  /** Payments handled as their capture webhook would be (the order placed, or refunded). */
  handled: number;
  /** Provider orders closed as never paid. */
  closed: number;
  /** Refunds asked for again. */
  refunds: number;
  /** Rows whose step failed (logged; tried again next run). */
  failed: number;
}

/** One run of the job, at `ctx.now()`. */
export async function reconcilePayments(ctx: PaymentContext): Promise<ReconcileReport> {
  const report: ReconcileReport = { asked: 0, captured: 0, handled: 0, closed: 0, refunds: 0, failed: 0 };
  const now = ctx.now();
  const provider = ctx.provider.name;
  const step = async (row: StoredPayment, what: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      report.failed += 1;
      ctx.log.error({ err, providerOrderId: row.providerOrderId }, `payments reconciliation: ${what} failed`);
    }
  };

  for (const row of await uncapturedPayments(ctx.db, {
    provider,
    before: now - CAPTURE_AFTER_MS,
    limit: BATCH,
  })) {
    const paymentId = row.paymentId;
    if (!paymentId) continue;
    await step(row, 'capture', async () => {
      await captureAndHandle(ctx, row, paymentId, report);
    });
  }

  const open = await openProviderOrders(ctx.db, {
    provider,
    madeBefore: now - ASK_AFTER_MS,
    askedBefore: now - ASK_AFTER_MS,
    limit: BATCH,
  });
  for (const row of open) {
    await step(row, 'asking the provider', async () => {
      report.asked += 1;
      // Marked first, whatever comes of it (an event seen before, a failure): the row goes to the
      // back of the queue, and no row is asked every minute for ever.
      await noteAsked(ctx.db, row.id, now);
      const payments = (await ctx.provider.fetchOrderPayments(row.providerOrderId)).filter((p) =>
        paysFor(p, row),
      );
      const captured = payments.find((p) => p.status === 'captured');
      const authorized = payments.find((p) => p.status === 'authorized');
      if (captured) {
        await handleCaptured(ctx, captured, report);
      } else if (authorized && (authorized.createdAt ?? now) <= now - CAPTURE_AFTER_MS) {
        await captureAndHandle(ctx, row, authorized.id, report);
      } else if (authorized) {
        // Seen now: captured by a later run if the provider does not capture it by then.
        await handleProviderEvent(ctx, synthetic('payment.authorized', authorized, 'reconcile:authorized:'));
      } else if (payWindowOver(row.createdAt, now)) {
        if (await closeUnpaid(ctx.db, row.id, now)) report.closed += 1;
      }
    });
  }

  for (const row of await refundsOwed(ctx.db, { provider, limit: BATCH })) {
    const paymentId = row.paymentId;
    if (!paymentId) continue;
    await step(row, 'the refund', async () => {
      await ensureRefund(ctx, row, { id: paymentId });
      report.refunds += 1;
    });
  }

  logReport(ctx.log, report);
  return report;
}

async function captureAndHandle(
  ctx: PaymentContext,
  row: StoredPayment,
  paymentId: string,
  report: ReconcileReport,
): Promise<void> {
  const payment = await ctx.provider.capturePayment(paymentId, row.amountPaise);
  report.captured += 1;
  ctx.log.info(
    { providerOrderId: row.providerOrderId, paymentId },
    'an authorized payment was captured by the shop',
  );
  await handleCaptured(ctx, payment, report);
}

async function handleCaptured(ctx: PaymentContext, payment: ProviderPayment, report: ReconcileReport) {
  const answer = await handleProviderEvent(ctx, synthetic('payment.captured', payment, 'reconcile:'));
  if (answer.handled) report.handled += 1;
}

/** The event a webhook would have brought, under an id of its own (handled once like any other). */
export function synthetic(event: string, payment: ProviderPayment, prefix: string) {
  return {
    eventId: `${prefix}${payment.id}`,
    event,
    providerOrderId: payment.orderId,
    payment,
    refund: null,
  };
}

function logReport(log: FastifyBaseLogger, r: ReconcileReport): void {
  if (r.asked + r.captured + r.handled + r.closed + r.refunds + r.failed === 0) return;
  log.info({ ...r }, 'payments reconciliation ran');
}
