/**
 * Refunds of online payments, and what an online payment in progress has become: the rules the
 * server, the admin and the shopper's screens share. Money here is whole rupees, as every figure
 * the shop shows; the server keeps paise for the provider (`toPaise`).
 *
 * A refund is one of:
 * - `cancel`: a paid order cancelled (by the shop, the admin's one-step cancel included): the rest of
 *   what was paid, once per order, however often Cancel is pressed and on whichever process;
 * - `partial`: the admin's, an amount and a reason, never more than what is left to refund;
 * - `unplaceable`: the money of a paid provider order whose kept request could no longer be placed
 *   (the slot filled, the product went, the date passed), in full, at once;
 * - `late`: a payment captured on a provider order the shop had closed as never paid, in full.
 */
import * as v from 'valibot';
import { formatIndiaDayMonth } from './india-time.js';
import { formatRupees } from './money.js';

const int = v.pipe(v.number(), v.integer());

export const REFUND_KINDS = ['cancel', 'partial', 'unplaceable', 'late'] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];

/** Razorpay's own states of a refund: `pending` until its `refund.processed` or `refund.failed`. */
export const REFUND_STATUSES = ['pending', 'processed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const RefundSchema = v.object({
  refundID: int,
  kind: v.picklist(REFUND_KINDS),
  /** Rupees. */
  amount: int,
  /** The admin's reason, or the shop's words for a refund it made itself. */
  reason: v.string(),
  status: v.picklist(REFUND_STATUSES),
  /** Razorpay's reason, for a failed refund (shown to the admin in red). */
  failureReason: v.nullable(v.string()),
  /** Razorpay's id (`rfnd_…`) once it answered. */
  providerRefundID: v.nullable(v.string()),
  /** The admin's email, or "shop" for a refund the server made itself. */
  by: v.string(),
  createdAt: v.string(),
  processedAt: v.nullable(v.string()),
});
export type Refund = v.InferOutput<typeof RefundSchema>;

/** What the shopper sees of a refund: the amount, whether it arrived, and when. */
export const ShopperRefundSchema = v.object({
  amount: int,
  status: v.picklist(REFUND_STATUSES),
  createdAt: v.string(),
  processedAt: v.nullable(v.string()),
});
export type ShopperRefund = v.InferOutput<typeof ShopperRefundSchema>;

/** An order's online payment as the admin's order page shows it. */
export const OrderPaymentSchema = v.object({
  provider: v.string(),
  providerOrderID: v.string(),
  paymentID: v.nullable(v.string()),
  /** created, failed, authorized, captured (the payment's, not the order's). */
  status: v.string(),
  /** Rupees taken, and refunded so far (processed or pending; a failed refund gave nothing back). */
  paid: int,
  refunded: int,
  /** What a partial refund may still ask for. */
  refundable: int,
  refunds: v.array(RefundSchema),
});
export type OrderPayment = v.InferOutput<typeof OrderPaymentSchema>;

/** The provider's states of a payment, in the owner's words. */
const PAYMENT_STATE_WORDS: Record<string, string> = {
  created: 'Not paid: the payment was never finished',
  failed: 'Failed: no money was taken',
  authorized: 'Authorized, not captured yet',
  captured: 'Paid',
};

/**
 * What the admin's order page says of an online payment: once money went back, that it is
 * refunded in full or in part (a refund still pending said so), never the provider's "captured",
 * which stays true of a payment refunded since; before that, the provider's state in words.
 */
export function paymentStateText(p: Pick<OrderPayment, 'status' | 'paid' | 'refunded' | 'refunds'>): string {
  const pending = p.refunds.some((r) => r.status === 'pending') ? ' (a refund is still on its way)' : '';
  if (p.paid > 0 && p.refunded >= p.paid) return `Refunded in full, ${formatRupees(p.refunded)}${pending}`;
  if (p.refunded > 0)
    return `Partly refunded: ${formatRupees(p.refunded)} of ${formatRupees(p.paid)} given back${pending}`;
  return PAYMENT_STATE_WORDS[p.status] ?? p.status;
}

export const REASON_MAX = 200;

/**
 * The most one refund may ask, in rupees: its paise must fit the refunds' `amount_paise`, a 32-bit
 * `integer` on PostgreSQL (₹2,14,74,836), and `toPaise` takes only safe integers. No order of the
 * shop comes near it; what is left of the payment is the service's check, this one keeps 1e21 or
 * 2^53 from reaching the arithmetic. (Its message writes it out: a formatter made when the module
 * loads would cost every screen that imports this one.)
 */
export const REFUND_AMOUNT_MAX = 20_000_000;

/** The admin's partial refund: whole rupees, and why (kept with the refund and sent as its note). */
export const RefundRequestSchema = v.object({
  amount: v.pipe(
    v.number('The amount must be a number of rupees.'),
    v.minValue(1, 'The amount must be at least ₹1.'),
    v.maxValue(REFUND_AMOUNT_MAX, 'The amount must be at most ₹2,00,00,000.'),
    v.safeInteger('The amount must be whole rupees.'),
  ),
  reason: v.pipe(
    v.string('Say why the money goes back.'),
    v.trim(),
    v.nonEmpty('Say why the money goes back.'),
    v.maxLength(REASON_MAX, `The reason is too long (at most ${REASON_MAX} characters).`),
  ),
});
export type RefundRequest = v.InferOutput<typeof RefundRequestSchema>;

/** Refunds that gave, or are giving, money back: a failed one gave nothing. */
export function refundedSoFar(refunds: readonly Pick<Refund, 'amount' | 'status'>[]): number {
  return refunds.reduce((sum, r) => (r.status === 'failed' ? sum : sum + r.amount), 0);
}

/** What may still be refunded of what was paid (never below zero). */
export function refundableLeft(paid: number, refunds: readonly Pick<Refund, 'amount' | 'status'>[]): number {
  return Math.max(0, paid - refundedSoFar(refunds));
}

/**
 * Whether the shopper is shown a refund. A failed one gave nothing back and is the shop's to make
 * again (the admin sees it in red with the provider's reason): shown to the shopper it would read
 * as money on its way that never comes, beside the refund that later replaced it.
 */
export function shopperSees(r: Pick<Refund, 'status'>): boolean {
  return r.status !== 'failed';
}

/**
 * The shopper's line for a refund: "Refund of ₹450 processed on 27 Nov", or, until Razorpay
 * says it is processed, "on its way".
 */
export function refundLine(r: ShopperRefund): string {
  const amount = formatRupees(r.amount);
  if (r.status === 'processed' && r.processedAt)
    return `Refund of ${amount} processed on ${formatIndiaDayMonth(r.processedAt)}`;
  return `Refund of ${amount} on its way (started ${formatIndiaDayMonth(r.createdAt)})`;
}

export const refundMessages = {
  tooLarge: (left: number, paid: number) =>
    left === 0
      ? `Nothing is left to refund: all ${formatRupees(paid)} paid is refunded already.`
      : `At most ${formatRupees(left)} can be refunded: ${formatRupees(paid)} was paid and ${formatRupees(paid - left)} is refunded already.`,
  notPaidOnline: 'This order was not paid online, so there is no payment to refund.',
  inProgress: 'A refund of this order is still being made. Please try again in a moment.',
  /** The shop's reasons for refunds it makes itself. */
  cancelReason: 'Order cancelled',
  lateReason: 'Payment arrived after the payment window closed',
  refundStarted: (amount: number) => `Refund of ${formatRupees(amount)} started.`,
  processedTitle: 'Refund processed',
  /** The shopper's push and mail; order 0 is a payment that never became an order (unplaceable, late). */
  processedPush: (orderId: number, amount: number) =>
    `Refund of ${formatRupees(amount)}${orderId ? ` for order #${orderId}` : ''} is processed. It reaches your account in 5-7 working days.`,
  mailSubject: (orderId: number) => (orderId ? `Refund for order #${orderId}` : 'Your refund is processed'),
} as const;

/**
 * What became of a payment the phone started (`GET /payments/attempts/{key}`):
 * - `open`: no payment arrived yet (the shopper may pay again with the same provider order);
 * - `paying`: a payment arrived and the order is being placed (say "Payment being confirmed");
 * - `placed`: the order exists (`order` is what `place-order` answers for it);
 * - `refunded`: it was paid but could not be placed, and the money went back (`reason` says why);
 * - `closed`: never paid, and the shop closed it after a day.
 */
export const PAYMENT_ATTEMPT_STATES = ['open', 'paying', 'placed', 'refunded', 'closed'] as const;
export type PaymentAttemptState = (typeof PAYMENT_ATTEMPT_STATES)[number];

export const unplacedMessages = {
  /** Why a paid order could not be placed, said to the shopper by push and mail, and on the phone. */
  reason: (why: string) =>
    `Your payment was received, but the order could not be placed: ${why} The full amount is being refunded.`,
  pushTitle: 'Payment refunded',
  mailSubject: 'Your payment is being refunded',
} as const;
