/**
 * A paid order the page never sent, placed by the server: see README.md, "Paid means placed".
 *
 * The provider order keeps the priced request it was made for (`request_json`). When its payment
 * is captured (`payment.captured`, `order.paid`, or the reconciliation finding it), the order is
 * placed from that request under the same Idempotency-Key, as at the moment of payment, at the
 * kept figures. If the order's rules refuse it by then, the money goes back at once and the
 * shopper is told why. Every step is safe to run twice, in any order, on any process: the key's
 * lock decides who places it, and the payment row's `order_id` / `outcome` say it is done.
 */

import type * as v from 'valibot';
import { formatRupees, fromPaise } from '../../domain/money.js';
import type { OrderRequest, OrderTotals } from '../../domain/orders.js';
import { cartKey, payWindowOver } from '../../domain/payment-cart.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import type { ProviderOrderRequestSchema } from '../../domain/payments.contract.js';
import { refundMessages, unplacedMessages } from '../../domain/refunds.js';
import { HttpError } from '../http/errors.js';
import { requestHash } from '../orders/idempotency.js';
import type { PricedOrderLine } from '../orders/order.pricing.js';
import type { KeptPricing } from '../orders/order.quote.js';
import { placePaidOrder } from '../orders/order.service.js';
import { queueShopperNotice } from '../push/push.repository.js';
import type { PaymentContext } from './payment.context.js';
import {
  findPaymentByProviderOrder,
  findPaymentRow,
  type KeptColumns,
  markRefunded,
  notePaymentSeen,
  paymentStillOpen,
  type StoredPayment,
} from './payment.repository.js';
import { applyWebhookEvent, paymentsService, paysFor, sentence } from './payment.service.js';
import type { ProviderEvent, ProviderPayment } from './provider.js';
import { startRefund } from './refunds.service.js';

type ProviderOrderRequest = v.InferOutput<typeof ProviderOrderRequestSchema>;

/** What `request_json` holds: the request as the server read it, and the figures it was priced at. */
interface KeptRequest extends KeptPricing {
  request: ProviderOrderRequest;
  /**
   * The idempotency hash of the order as the page would send it, taken before images were left
   * out, so the page's own late `place-order` is the same request. Absent from rows kept before.
   */
  hash?: string;
}

/** A kept request never holds more than this (bytes of JSON): 50 lines of gifts fit well under it. */
export const MAX_KEPT_BYTES = 48 * 1024;

/** The order the server places from a kept request: online, its proof the provider's event. */
function serverBody(request: ProviderOrderRequest): OrderRequest {
  return {
    ...request,
    PaymentMethod: PAYMENT_METHODS.online,
    RazorpayPaymentId: null,
    RazorpayOrderId: null,
    RazorpaySignature: null,
  };
}

/**
 * What is kept with a provider order: only what placing needs. Image addresses are left out (the
 * order's lines take the product's own picture when placed), so a request is a few KB whatever the
 * page sent; its cart (`cartKey`, hashed) and coupon are kept in their own columns.
 */
export function keptColumns(
  request: ProviderOrderRequest,
  priced: { lines: PricedOrderLine[]; totals: OrderTotals },
): KeptColumns {
  const kept: KeptRequest = {
    request: { ...request, OrderItems: request.OrderItems.map((i) => ({ ...i, ProductImage: '' })) },
    lines: priced.lines.map((l) => ({ ...l, image: '' })),
    totals: priced.totals,
    hash: requestHash(serverBody(request)),
  };
  const requestJson = JSON.stringify(kept);
  if (Buffer.byteLength(requestJson) > MAX_KEPT_BYTES) {
    throw new HttpError(413, 'This order is too large to pay online in one go. Split it into two orders.');
  }
  return {
    requestJson,
    cartKey: cartKey(request),
    couponCode: request.CouponCode ?? null,
  };
}

function readKept(json: string | null): KeptRequest | null {
  if (!json) return null;
  try {
    const kept = JSON.parse(json) as Partial<KeptRequest>;
    return kept.request && Array.isArray(kept.lines) && kept.totals ? (kept as KeptRequest) : null;
  } catch {
    return null;
  }
}

/** Why a payment is refunded when its key's order was placed without it (another way of paying). */
const ALREADY_PLACED = 'This order was already placed another way.';

const PLACING_EVENTS = new Set(['payment.captured', 'order.paid']);

/**
 * `payment.*` and `order.paid`: the payment's status moves forward; an authorization is noted
 * (the capture job's clock); a capture on a provider order without an order places it, or refunds it.
 */
export async function onPaymentEvent(ctx: PaymentContext, e: ProviderEvent): Promise<boolean> {
  let running = handling.get(ctx.db);
  if (!running) {
    running = new Map();
    handling.set(ctx.db, running);
  }
  const same = running.get(e.eventId);
  if (same) {
    // The same delivery, arrived twice at once, is being handled here: it answers for both. Its
    // failure is this one's too (Razorpay then sends it again).
    await same;
    return false;
  }
  const handled = handlePaymentEvent(ctx, e);
  running.set(e.eventId, handled);
  try {
    return await handled;
  } finally {
    running.delete(e.eventId);
  }
}

/** Events being handled in this process, by database and event id (see `onPaymentEvent`). */
const handling = new WeakMap<object, Map<string, Promise<boolean>>>();

async function handlePaymentEvent(ctx: PaymentContext, e: ProviderEvent): Promise<boolean> {
  const mismatch = () =>
    ctx.log.warn(
      { providerOrderId: e.providerOrderId, eventId: e.eventId },
      'event payment is not the provider order amount in INR',
    );
  let moved = await applyWebhookEvent(ctx.db, e, ctx.now, mismatch);
  if (!e.providerOrderId) return moved;
  const stored = await findPaymentByProviderOrder(ctx.db, e.providerOrderId);
  if (!stored || (e.payment && !paysFor(e.payment, stored))) return moved;
  if (e.payment?.status === 'authorized') {
    await notePaymentSeen(ctx.db, stored.id, { authorizedAt: ctx.now(), paidAt: e.payment.createdAt });
  }
  if (!PLACING_EVENTS.has(e.event)) return moved;
  let payment = e.payment?.status === 'captured' ? e.payment : null;
  if (!payment) {
    // The event's payment is not captured, or it named none: only a capture the provider confirms
    // places the order, and it moves the status.
    payment = await capturedPaymentOf(ctx, stored);
    if (!payment) return moved;
    moved = (await applyWebhookEvent(ctx.db, { ...e, payment }, ctx.now, mismatch)) || moved;
  }
  await notePaymentSeen(ctx.db, stored.id, { paidAt: payment.createdAt });
  const settled = await settleCapture(ctx, stored, payment);
  return moved || settled;
}

/** `order.paid` may name no payment (or one not yet captured): the provider says which one was. */
async function capturedPaymentOf(
  ctx: PaymentContext,
  stored: StoredPayment,
): Promise<ProviderPayment | null> {
  const payments = await ctx.provider.fetchOrderPayments(stored.providerOrderId);
  return payments.find((p) => p.status === 'captured' && paysFor(p, stored)) ?? null;
}

/**
 * A captured payment of a provider order: its order placed, or its money back. True when this
 * call placed or refunded something.
 */
export async function settleCapture(
  ctx: PaymentContext,
  stored: StoredPayment,
  payment: ProviderPayment,
): Promise<boolean> {
  if (stored.orderId !== null) return false;
  if (stored.outcome === 'closed')
    return refundPayment(ctx, stored, payment, 'late', stored.outcomeReason ?? refundMessages.lateReason);
  if (stored.outcome === 'refunded') {
    await ensureRefund(ctx, stored, payment);
    return false;
  }
  const kept = readKept(stored.requestJson);
  if (!kept) {
    // Made before requests were kept: only the page's own place-order can place it.
    ctx.log.warn(
      { providerOrderId: stored.providerOrderId },
      'a paid provider order has no kept request; the page must place it',
    );
    return false;
  }
  // The provider's event is the proof here (no Checkout signature), and proof is no part of the
  // key's request hash: the page's own place-order with its proof is the same request.
  const body = serverBody(kept.request);
  const judgedAt = new Date(payment.createdAt ?? stored.paidAt ?? ctx.now());
  let placement: Awaited<ReturnType<typeof placePaidOrder>>;
  try {
    placement = await placePaidOrder(
      {
        db: ctx.db,
        dialect: ctx.dialect,
        payments: paymentsService(ctx.db, ctx.provider, ctx.now),
        now: () => new Date(ctx.now()),
        maxUnpaidPerSlot: ctx.config.maxUnpaidPerSlot,
      },
      {
        userId: stored.userId,
        key: stored.idempotencyKey,
        body,
        hash: kept.hash,
        paid: {
          payment: {
            paymentRowId: stored.id,
            providerOrderId: stored.providerOrderId,
            paymentId: payment.id,
          },
          judgedAt,
          // Paid after the price window: placed at the kept figures only if they still hold.
          kept: { ...kept, stale: payWindowOver(stored.createdAt, judgedAt.getTime()) },
        },
        stillOpen: (trx) => paymentStillOpen(trx, stored.id),
      },
    );
  } catch (err) {
    // A refusal of the order's rules (the slot filled, the product went, the date passed): the
    // shopper paid for an order that cannot be, so the money goes back. Anything else (the
    // database down) is thrown, and the event is handled again.
    if (!(err instanceof HttpError) || err.statusCode >= 500) throw err;
    ctx.log.info(
      { providerOrderId: stored.providerOrderId, reason: err.message },
      'a paid order could not be placed; refunding it',
    );
    return refundPayment(ctx, stored, payment, 'unplaceable', err.message);
  }
  if (placement.kind === 'placed') {
    ctx.log.info(
      { providerOrderId: stored.providerOrderId, orderId: placement.orderId },
      'a paid order the page did not send was placed by the server',
    );
    return true;
  }
  const row = await findPaymentRow(ctx.db, stored.id);
  if (!row || row.orderId !== null) return false;
  if (row.outcome === 'refunded') {
    await ensureRefund(ctx, row, payment);
    return false;
  }
  // The key was answered by an order that did not take this payment (placed another way under
  // the same key): this money has no order, so it goes back.
  return refundPayment(ctx, row, payment, 'unplaceable', ALREADY_PLACED);
}

/**
 * The refund's key, the provider's `X-Refund-Idempotency` (at least 10 characters): one per
 * payment row, so every process asking refunds once. `late-` ids are zero-padded to reach 10.
 */
export const refundKey = (kind: 'unplaceable' | 'late', paymentRowId: number) =>
  kind === 'late' ? `late-${String(paymentRowId).padStart(5, '0')}` : `unplaced-${paymentRowId}`;

/**
 * Marks the payment refunded (once: the process that moves it tells the shopper, by push in the
 * same transaction and by mail right after), then asks the provider for the whole amount back.
 */
async function refundPayment(
  ctx: PaymentContext,
  stored: StoredPayment,
  payment: ProviderPayment,
  kind: 'unplaceable' | 'late',
  why: string,
): Promise<boolean> {
  const now = ctx.now();
  const text = unplacedMessages.reason(sentence(why));
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const first = await markRefunded(trx, stored.id, kind === 'late' ? 'closed' : null, why, now);
    if (first) {
      await queueShopperNotice(
        trx,
        {
          userId: stored.userId,
          orderId: 0,
          once: refundKey(kind, stored.id),
          // No order: the worker shows the title and body and refreshes nothing (`status` is unread).
          payload: {
            title: unplacedMessages.pushTitle,
            body: text,
            tag: `payment-${stored.id}`,
            url: '/cart',
            orderID: 0,
            status: 'cancelled',
          },
        },
        now,
      );
    }
    return first;
  });
  const row = await findPaymentRow(ctx.db, stored.id);
  // Placed meanwhile (the page's own place-order won the row): nothing to refund.
  if (row?.outcome !== 'refunded') return false;
  if (moved) await mailShopper(ctx, stored.userId, text, stored.amountPaise);
  await ensureRefund(ctx, row, payment);
  return moved;
}

/** The full refund of a payment marked refunded, under its own key: asking twice is one refund. */
export async function ensureRefund(
  ctx: PaymentContext,
  stored: StoredPayment,
  payment: Pick<ProviderPayment, 'id'>,
): Promise<void> {
  // A payment captured after the shop closed its provider order (`closed_at`) is a late one.
  const kind = stored.closedAt !== null ? 'late' : 'unplaceable';
  try {
    await startRefund(ctx, {
      paymentRowId: stored.id,
      paymentId: payment.id,
      orderId: null,
      kind,
      key: refundKey(kind, stored.id),
      amountPaise: stored.amountPaise,
      reason: stored.outcomeReason ?? refundMessages.lateReason,
      by: 'shop',
      receipt: stored.providerOrderId,
    });
  } catch (err) {
    // Another process is asking for this very refund right now (the provider's 409 for its key):
    // it is being made. Were that ask to fail, the reconciliation asks again (`refundsOwed`).
    if (err instanceof HttpError && err.statusCode === 409) {
      ctx.log.info(
        { providerOrderId: stored.providerOrderId },
        'the refund is being made by another process',
      );
      return;
    }
    throw err;
  }
}

async function mailShopper(ctx: PaymentContext, userId: number, text: string, amountPaise: number) {
  const user = await ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (!user?.email) return;
  ctx.mailer.send({
    to: user.email,
    subject: unplacedMessages.mailSubject,
    text: `${text}\n\n${formatRupees(fromPaise(amountPaise))} goes back to the account you paid from, usually within 5-7 working days.\n`,
    order: true,
  });
}
