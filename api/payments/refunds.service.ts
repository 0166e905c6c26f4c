/** Refunds of online payments: see README.md, "Refunds". */
import type { Transaction } from 'kysely';
import { fromPaise, toPaise } from '../../domain/money.js';
import type { OrderStatus } from '../../domain/orders.js';
import {
  type OrderPayment,
  type RefundRequest,
  refundableLeft,
  refundedSoFar,
  refundLine,
  refundMessages,
} from '../../domain/refunds.js';
import type { Database } from '../db/schema.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { queueShopperNotice } from '../push/push.repository.js';
import type { PaymentContext } from './payment.context.js';
import { raisePaymentStatus } from './payment.repository.js';
import type { ProviderEvent } from './provider.js';
import {
  adminRefund,
  claimNotice,
  claimRefund,
  findRefundByKey,
  findRefundByProviderId,
  findUnmatchedRefund,
  holdPayment,
  markRefundRefused,
  type NewRefund,
  paymentOfOrder,
  paymentRow,
  recordProviderRefund,
  refundsOfPayment,
  type StoredRefund,
  shopperRefund,
  unansweredRefunds,
} from './refund.repository.js';

export interface RefundOrder extends NewRefund {
  /** The provider's payment id (`pay_…`). */
  paymentId: string;
  /** The receipt naming what is refunded ("order 41", or the provider order). */
  receipt: string;
}

/** A cancelled order's refund: one key per order, so it is one refund however often Cancel is pressed. */
export const cancelRefundKey = (orderId: number): string => `cancel-order-${orderId}`;
/** The receipt Razorpay keeps with a refund of an order. */
export const orderReceipt = (orderId: number): string => `order ${orderId}`;

/**
 * Asks the provider for a refund under its key, after keeping its row under the same key (so a
 * crash between the two leaves a pending row that the next ask, with the same key, completes).
 * The provider answers the same refund for the same key and body. A refusal that made no refund
 * (a 4xx other than "in progress") marks the row failed with the reason kept for the admin; a
 * provider that does not answer leaves it pending, to be asked again with the same key.
 */
export async function startRefund(ctx: PaymentContext, r: RefundOrder): Promise<StoredRefund> {
  const row = await claimRefund(ctx.db, {
    paymentRowId: r.paymentRowId,
    orderId: r.orderId,
    kind: r.kind,
    key: r.key,
    amountPaise: r.amountPaise,
    reason: r.reason,
    by: r.by,
    now: ctx.now(),
  });
  if (row.providerRefundId || row.status !== 'pending') return row;
  try {
    const refund = await ctx.provider.refund(
      r.paymentId,
      {
        amount: row.amountPaise,
        receipt: r.receipt.slice(0, 40),
        notes: { reason: row.reason.slice(0, 250), kind: row.kind },
      },
      row.key,
    );
    const status = refund.status === 'processed' || refund.status === 'failed' ? refund.status : 'pending';
    await recordProviderRefund(ctx.db, row.id, {
      providerRefundId: refund.id,
      status,
      failureReason: refund.failureReason,
      now: ctx.now(),
    });
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 409) {
      // Another ask under this key is still being made (another process, the retry): it finishes it.
      ctx.log.warn({ refund: row.id }, 'a refund under this key is still being made by the provider');
      throw err;
    }
    const answer =
      err instanceof HttpError
        ? (err.cause as { providerStatus?: unknown; providerAnswer?: unknown } | undefined)
        : undefined;
    const refused =
      typeof answer?.providerStatus === 'number' &&
      answer.providerStatus >= 400 &&
      answer.providerStatus < 500;
    if (refused) {
      ctx.log.warn({ err, refund: row.id }, 'the provider refused a refund');
      await markRefundRefused(ctx.db, row.id, refusalOf(answer?.providerAnswer), ctx.now());
    } else {
      ctx.log.error(
        { err, refund: row.id },
        'a refund could not reach the provider; it is asked again later',
      );
      throw err;
    }
  }
  const now = (await findRefundByKey(ctx.db, row.key)) ?? row;
  if (now.status === 'processed') await tellShopper(ctx, now);
  return now;
}

/** The provider's own words for a refusal (Razorpay's `error.description`), for the admin. */
function refusalOf(answer: unknown): string {
  const description = (answer as { error?: { description?: unknown } } | null | undefined)?.error
    ?.description;
  return typeof description === 'string' && description.length > 0
    ? `The payment provider refused the refund: ${description.slice(0, 200)}`
    : 'The payment provider refused the refund.';
}

/**
 * Asks the provider for a refund whose row is kept (claimed in a transaction, or left pending by
 * a provider that did not answer). An authorized payment is captured first: Razorpay refunds only
 * captured payments, and an uncaptured one would come back to the shopper only days later, with
 * no record here of it going back.
 */
export async function askForRefund(ctx: PaymentContext, row: StoredRefund): Promise<StoredRefund> {
  const payment = await paymentRow(ctx.db, row.paymentRowId);
  if (!payment?.paymentId) {
    await markRefundRefused(ctx.db, row.id, 'The payment has no payment id to refund.', ctx.now());
    return (await findRefundByKey(ctx.db, row.key)) ?? row;
  }
  if (payment.status === 'authorized') {
    const captured = await ctx.provider.capturePayment(payment.paymentId, payment.amountPaise);
    if (captured.status === 'captured' || captured.status === 'refunded') {
      await raisePaymentStatus(ctx.db, payment.id, 'captured', null, ctx.now());
    }
  }
  return startRefund(ctx, {
    paymentRowId: payment.id,
    paymentId: payment.paymentId,
    orderId: row.orderId,
    kind: row.kind,
    key: row.key,
    amountPaise: row.amountPaise,
    reason: row.reason,
    by: row.createdBy,
    receipt: row.orderId === null ? payment.providerOrderId : orderReceipt(row.orderId),
  });
}

/**
 * Inside the cancel's own transaction: keeps the refund of what is left of the order's online
 * payment, under the order's one cancel key. The row exists exactly when the cancel does; the
 * provider is asked after the commit (`refundCancelled`), or by the retry job if that ask is lost.
 */
export async function claimCancelRefund(
  trx: Transaction<Database>,
  orderId: number,
  by: string,
  now: number,
): Promise<boolean> {
  const payment = await paymentOfOrder(trx, orderId);
  if (!payment) return false;
  await holdPayment(trx, payment.id);
  const left = leftPaise(payment.amountPaise, await refundsOfPayment(trx, payment.id));
  if (left <= 0) return false;
  await claimRefund(trx, {
    paymentRowId: payment.id,
    orderId,
    kind: 'cancel',
    key: cancelRefundKey(orderId),
    amountPaise: left,
    reason: refundMessages.cancelReason,
    by,
    now,
  });
  return true;
}

/** After a cancel committed: asks the provider for its refund. Never throws (the retry job finishes it). */
export async function refundCancelled(ctx: PaymentContext, orderId: number): Promise<void> {
  try {
    const row = await findRefundByKey(ctx.db, cancelRefundKey(orderId));
    if (row && row.status === 'pending' && !row.providerRefundId) await askForRefund(ctx, row);
  } catch (err) {
    ctx.log.error({ err, orderId }, 'the refund of a cancelled order is left for the retry');
  }
}

function leftPaise(paid: number, refunds: readonly StoredRefund[]): number {
  return refundableLeft(
    paid,
    refunds.map((r) => ({ amount: r.amountPaise, status: r.status })),
  );
}

/**
 * The admin's partial refund. In one transaction, under the payment's row lock: what is left is
 * counted with every pending and processed refund, a refund not yet answered by the provider
 * makes this one wait (409: it is most likely the same click twice), and the row is kept under
 * the next number of the order's refunds. Then the provider is asked, outside the transaction.
 */
export async function partialRefund(
  ctx: PaymentContext,
  orderId: number,
  req: RefundRequest,
  by: string,
): Promise<OrderPayment> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom('orders').select('id').where('id', '=', orderId).executeTakeFirst();
    if (!order) throw notFound(`Order ${orderId} was not found.`);
    const payment = await paymentOfOrder(trx, orderId);
    if (!payment) throw new HttpError(422, refundMessages.notPaidOnline, { reason: 'not-paid-online' });
    await holdPayment(trx, payment.id);
    const refunds = await refundsOfPayment(trx, payment.id);
    if (refunds.some((r) => r.status === 'pending' && !r.providerRefundId)) {
      throw conflict(refundMessages.inProgress);
    }
    const left = leftPaise(payment.amountPaise, refunds);
    if (toPaise(req.amount) > left) {
      throw new HttpError(422, refundMessages.tooLarge(fromPaise(left), fromPaise(payment.amountPaise)), {
        field: 'amount',
        refundable: fromPaise(left),
        paid: fromPaise(payment.amountPaise),
      });
    }
    return claimRefund(trx, {
      paymentRowId: payment.id,
      orderId,
      kind: 'partial',
      key: `partial-${orderId}-${refunds.length + 1}`,
      amountPaise: toPaise(req.amount),
      reason: req.reason,
      by,
      now: ctx.now(),
    });
  });
  try {
    await askForRefund(ctx, row);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 409) throw err;
    // Kept and pending: the retry job asks again under the same key, and the admin sees it pending.
  }
  const payment = await orderPayment(ctx.db, orderId);
  if (!payment) throw notFound(`Order ${orderId} was not found.`);
  return payment;
}

/**
 * Refunds kept but never answered by the provider (it was down, the process stopped between the
 * two), asked again under their own keys. Only those left a minute, so an ask still under way is
 * not doubled (it would be one refund anyway: same key).
 */
export const RETRY_AFTER_MS = 60_000;
export async function retryRefunds(ctx: PaymentContext, limit = 20): Promise<number> {
  let done = 0;
  for (const row of await unansweredRefunds(ctx.db, ctx.now() - RETRY_AFTER_MS, limit)) {
    try {
      const after = await askForRefund(ctx, row);
      if (after.providerRefundId || after.status !== 'pending') done += 1;
    } catch (err) {
      ctx.log.warn({ err, refund: row.id }, 'a refund is still waiting for the provider');
    }
  }
  return done;
}

/**
 * `refund.created`, `refund.processed` and `refund.failed` move a refund's state forward only (a
 * late `created` after `processed` changes nothing); the refund is found by the provider's id,
 * else, when the answer to the ask was lost, by its payment and amount. A processed refund is
 * told to the shopper once. False when it moved nothing (a refund made on the provider's
 * dashboard by hand is not the shop's to track).
 */
export async function onRefundEvent(ctx: PaymentContext, e: ProviderEvent): Promise<boolean> {
  const refund = e.refund;
  if (!refund) return false;
  // By its id, else by payment and amount; and by its id once more, for an id kept meanwhile
  // (the ask's answer, or another event of the same refund handled at the same moment).
  const row =
    (await findRefundByProviderId(ctx.db, refund.id)) ??
    (await findUnmatchedRefund(ctx.db, refund.paymentId, refund.amount)) ??
    (await findRefundByProviderId(ctx.db, refund.id));
  if (!row) {
    ctx.log.info({ refund: refund.id, event: e.event }, 'a refund this shop did not ask for');
    return false;
  }
  const to =
    e.event === 'refund.processed' ? 'processed' : e.event === 'refund.failed' ? 'failed' : 'pending';
  const moved = await recordProviderRefund(ctx.db, row.id, {
    providerRefundId: refund.id,
    status: to,
    failureReason:
      to === 'failed' ? (refund.failureReason ?? 'The payment provider could not make the refund.') : null,
    now: ctx.now(),
  });
  const after = (await findRefundByKey(ctx.db, row.key)) ?? row;
  if (after.status === 'processed') await tellShopper(ctx, after);
  return moved;
}

/**
 * Tells the shopper a refund arrived, once (`notified_at`, claimed with the push in one
 * transaction): a push to their devices and a mail. A refund of an order goes to the order's
 * customer email; one of a payment that never became an order to the account's.
 */
export async function tellShopper(ctx: PaymentContext, r: StoredRefund): Promise<void> {
  const now = ctx.now();
  const rupeesBack = fromPaise(r.amountPaise);
  const mail = await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimNotice(trx, r.id, now))) return null;
    const payment = await paymentRow(trx, r.paymentRowId);
    if (!payment) return null;
    const order =
      r.orderId === null
        ? null
        : await trx
            .selectFrom('orders')
            .select(['user_id', 'customer_email', 'status'])
            .where('id', '=', r.orderId)
            .executeTakeFirst();
    const user = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', order?.user_id ?? payment.userId)
      .executeTakeFirst();
    const orderId = r.orderId ?? 0;
    const body = refundMessages.processedPush(orderId, rupeesBack);
    await queueShopperNotice(
      trx,
      {
        userId: order?.user_id ?? payment.userId,
        orderId,
        once: `refund-${r.id}`,
        payload: {
          title: refundMessages.processedTitle,
          body,
          url: orderId ? `/my-orders/${orderId}` : '/my-orders',
          tag: orderId ? `order-${orderId}` : `refund-${r.id}`,
          orderID: orderId,
          status: order ? (order.status as OrderStatus) : 'cancelled',
        },
      },
      now,
    );
    const to = order?.customer_email || user?.email;
    if (!to) return null;
    const line = refundLine(shopperRefund({ ...r, status: 'processed', processedAt: r.processedAt ?? now }));
    return {
      to,
      subject: refundMessages.mailSubject(orderId),
      text: `${line}.\n\n${body}\n`,
      order: true,
    };
  });
  if (mail) ctx.mailer.send(mail);
}

/** An order's online payment as the admin's order page shows it; null for Cash on Delivery or unpaid. */
export async function orderPayment(db: PaymentContext['db'], orderId: number): Promise<OrderPayment | null> {
  const payment = await paymentOfOrder(db, orderId);
  if (!payment) return null;
  const refunds = (await refundsOfPayment(db, payment.id)).map(adminRefund);
  const paid = fromPaise(payment.amountPaise);
  return {
    provider: payment.provider,
    providerOrderID: payment.providerOrderId,
    paymentID: payment.paymentId,
    status: payment.status,
    paid,
    refunded: refundedSoFar(refunds),
    refundable: refundableLeft(paid, refunds),
    refunds,
  };
}
