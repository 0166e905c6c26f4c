/** Online payment's rules: provider orders, Checkout's proof, the provider's webhook events. */
import type { Kysely, Transaction } from 'kysely';
import { messages } from '../../domain/messages.js';
import { toPaise } from '../../domain/money.js';
import {
  MAX_OPEN_PAYMENTS,
  PAY_WINDOW_MS,
  paymentCartMessages,
  payWindowOver,
} from '../../domain/payment-cart.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods.js';
import type { PaymentMethods, ProviderOrder } from '../../domain/payments.contract.js';
import { refundMessages, unplacedMessages } from '../../domain/refunds.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, notFound, tooMany } from '../http/errors.js';
import {
  cartHash,
  closeOpen,
  closeUnpaid,
  findOpenPayment,
  findPaymentByProviderOrder,
  insertPayment,
  type KeptColumns,
  keepRequest,
  linkPaymentToOrder,
  markOrderPaid,
  notePaymentSeen,
  openPaymentsOf,
  PAYMENT_STATUSES,
  raisePaymentStatus,
  type StoredPayment,
} from './payment.repository.js';
import type { PaymentProvider, ProviderEvent, ProviderPayment, TestPaymentProvider } from './provider.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface VerifiedPayment {
  paymentRowId: number;
  providerOrderId: string;
  paymentId: string;
}

/** Payments as a service the order routes call (`app.payments`). See `README.md` for the flow. */
export interface PaymentsService {
  provider: PaymentProvider | null;
  methods(): PaymentMethods;
  /**
   * A provider order for this user's key and total, kept with the priced request it pays for
   * (`kept`: the server places it when paid). Asking again with the same key and amount reuses
   * it, with the new request kept instead while nothing was paid on it; so does the same cart
   * under a new key (the provider order moves to it). A coupon already in another open payment
   * of the account is a 409 `coupon-in-payment`; more than `MAX_OPEN_PAYMENTS` open is a 429.
   * One whose price window passed unpaid is closed, and a new one made.
   */
  createProviderOrder(input: {
    userId: number;
    key: string;
    totalAmount: number;
    kept: KeptColumns;
  }): Promise<ProviderOrder>;
  /**
   * Checks Checkout's proof inside the order's transaction: the provider order
   * must be one this server made for this user, for this amount, not used yet,
   * and the signature must match it under the key secret.
   */
  verifyCheckout(
    db: Db,
    input: {
      userId: number;
      providerOrderId: string;
      paymentId: string;
      signature: string;
      totalAmount: number;
    },
  ): Promise<VerifiedPayment>;
  /**
   * The spec's client sends only `RazorpayPaymentId` (its Checkout had no
   * provider order, so there is no signature). The provider is asked about the
   * payment instead, before the order's transaction (a network call never
   * holds a transaction open): null when the provider does not know it.
   */
  lookupPayment(paymentId: string): Promise<ProviderPayment | null>;
  /** Inside the transaction: the looked-up payment is authorized or captured, in INR, for this total, and unused. */
  verifyLookedUp(
    db: Db,
    input: { userId: number; payment: ProviderPayment | null; totalAmount: number },
  ): Promise<VerifiedPayment>;
  /** Ties the payment to the order it paid, in the same transaction; 409 when another order has it. */
  linkOrder(db: Db, payment: VerifiedPayment, orderId: number): Promise<void>;
}

/**
 * The stored provider order a payment claims, when this server made it for this user with this
 * provider. Someone else's provider order, or one this server never made, is as good as a bad
 * signature.
 */
async function ownProviderOrder(
  db: Db,
  provider: PaymentProvider,
  providerOrderId: string,
  userId: number,
): Promise<StoredPayment> {
  const stored = await findPaymentByProviderOrder(db, providerOrderId);
  if (!stored || stored.userId !== userId || stored.provider !== provider.name) {
    throw badRequest(messages.paymentNotVerified);
  }
  return stored;
}

/**
 * A provider order whose money went back (it could not be placed, or was paid after the shop closed
 * it) pays no order: the page's late proof is told why, in the words the shopper was sent.
 */
function refuseSettled(stored: StoredPayment): void {
  if (stored.outcome === 'refunded') {
    throw conflict(unplacedMessages.reason(sentence(stored.outcomeReason ?? refundMessages.lateReason)), {
      reason: 'payment-refunded',
    });
  }
  if (stored.outcome === 'closed') {
    throw conflict(unplacedMessages.reason(sentence(refundMessages.lateReason)), {
      reason: 'payment-refunded',
    });
  }
}

/** A refusal's message as the middle of a sentence: it ends with a full stop. */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

export function paymentsService(db: Kysely<Database>, provider: PaymentProvider | null, now: () => number) {
  const service: PaymentsService = {
    provider,
    methods() {
      const methods: PaymentMethod[] = [PAYMENT_METHODS.cod];
      if (provider) methods.push(PAYMENT_METHODS.online);
      return { methods, provider: provider?.name ?? null, keyId: provider?.keyId ?? null };
    },
    async createProviderOrder({ userId, key, totalAmount, kept }) {
      if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
      if (totalAmount < 1) throw badRequest('This order has nothing to pay online.');
      const amount = toPaise(totalAmount);
      const t = now();
      const answer = (providerOrderId: string, madeAt = t): ProviderOrder => ({
        provider: provider.name,
        keyId: provider.keyId,
        razorpayOrderId: providerOrderId,
        amount,
        currency: 'INR',
        receipt: key,
        totalAmount,
        payBy: new Date(madeAt + PAY_WINDOW_MS).toISOString(),
      });
      const mine = await findOpenPayment(db, userId, key, provider.name, amount);
      if (mine && !(payWindowOver(mine.createdAt, t) && (await closeUnpaid(db, mine.id, t)))) {
        await keepRequest(db, mine.id, kept, t);
        return answer(mine.providerOrderId, mine.createdAt);
      }
      const cart = cartHash(kept.cartKey);
      const others = (await openPaymentsOf(db, userId, t - PAY_WINDOW_MS)).filter(
        (r) => r.provider === provider.name && r.idempotencyKey !== key,
      );
      // The same cart asked for again under a new key (the page was reloaded, Checkout opened
      // anew): it pays the open provider order it already has, so it can never be paid twice.
      const same = others.find((r) => r.cartKey === cart && r.amountPaise === amount);
      if (same && (await keepRequest(db, same.id, kept, t, key)))
        return answer(same.providerOrderId, same.createdAt);
      // At another amount (the prices moved), the old one is replaced: closed, a late payment refunded.
      if (others.some((r) => r.cartKey === cart)) {
        await closeOpen(db, { userId, cartKey: kept.cartKey, reason: paymentCartMessages.replaced, now: t });
      }
      const open = others.filter((r) => r.cartKey !== cart);
      const code = kept.couponCode;
      if (code && open.some((r) => r.couponCode === code)) {
        throw conflict(paymentCartMessages.couponInPayment(code), { reason: 'coupon-in-payment' });
      }
      if (open.length >= MAX_OPEN_PAYMENTS) {
        const oldest = Math.min(...open.map((r) => r.createdAt));
        throw tooMany(paymentCartMessages.tooManyOpen, (oldest + PAY_WINDOW_MS - t) / 1000);
      }
      const created = await provider.createOrder({
        amount,
        currency: 'INR',
        receipt: key,
        notes: { user_id: String(userId) },
      });
      await insertPayment(db, {
        provider: provider.name,
        providerOrderId: created.id,
        userId,
        key,
        amountPaise: amount,
        kept,
        now: t,
      });
      return answer(created.id);
    },
    async verifyCheckout(trx, input) {
      if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
      const stored = await ownProviderOrder(trx, provider, input.providerOrderId, input.userId);
      if (!provider.verifyCheckout(stored.providerOrderId, input.paymentId, input.signature)) {
        throw badRequest(messages.paymentNotVerified);
      }
      if (stored.amountPaise !== toPaise(input.totalAmount)) throw conflict(messages.paymentAmountMismatch);
      if (stored.orderId !== null) throw conflict(messages.paymentAlreadyUsed);
      refuseSettled(stored);
      return {
        paymentRowId: stored.id,
        providerOrderId: stored.providerOrderId,
        paymentId: input.paymentId,
      };
    },
    async lookupPayment(paymentId) {
      if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
      if (!/^pay_[A-Za-z0-9]{6,40}$/.test(paymentId)) return null;
      return provider.fetchPayment(paymentId);
    },
    async verifyLookedUp(trx, { userId, payment, totalAmount }) {
      if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
      if (!payment || !['authorized', 'captured'].includes(payment.status)) {
        throw badRequest(messages.paymentNotVerified);
      }
      if (payment.currency !== 'INR' || payment.amount !== toPaise(totalAmount)) {
        throw conflict(messages.paymentAmountMismatch);
      }
      // A payment counts only when it was made against a provider order this server created for
      // this user. One with no provider order carries nothing this server set (Razorpay copies no
      // order notes onto it): it may be a payment link, another shop of the same merchant or
      // another shopper's payment of the same amount, so it is refused.
      if (!payment.orderId) throw badRequest(messages.paymentNotVerified);
      const stored = await ownProviderOrder(trx, provider, payment.orderId, userId);
      if (stored.orderId !== null) throw conflict(messages.paymentAlreadyUsed);
      refuseSettled(stored);
      return { paymentRowId: stored.id, providerOrderId: stored.providerOrderId, paymentId: payment.id };
    },
    async linkOrder(trx, payment, orderId) {
      const t = now();
      if (!(await linkPaymentToOrder(trx, payment.paymentRowId, orderId, payment.paymentId, t))) {
        throw conflict(messages.paymentAlreadyUsed);
      }
      await raisePaymentStatus(trx, payment.paymentRowId, 'authorized', payment.paymentId, t);
      // Seen authorized now (Checkout's proof): not seen captured within 10 minutes, it is captured.
      await notePaymentSeen(trx, payment.paymentRowId, { authorizedAt: t });
    },
  };
  return service;
}

/** The events that move a payment's status; which status, the payment entity itself says. */
const PAYMENT_EVENTS = new Set(['payment.authorized', 'payment.captured', 'payment.failed', 'order.paid']);

/**
 * Whether a provider's payment is one this provider order could have taken: its amount, in INR.
 * Anything else (another amount, another currency) moves nothing and places nothing.
 */
export function paysFor(payment: ProviderPayment, stored: Pick<StoredPayment, 'amountPaise'>): boolean {
  return payment.amount === stored.amountPaise && payment.currency === 'INR';
}

/**
 * Moves a payment's status to what the event's payment entity says it is (never backwards);
 * false when it moved nothing. The event's name is not trusted for it: an `order.paid` naming a
 * payment Razorpay holds only as authorized leaves it authorized (it still has to be captured),
 * and an event with no payment entity moves nothing (the caller asks the provider, and moves it
 * with the payment the provider confirms). `onMismatch` hears of a payment that is not this
 * provider order's amount in INR.
 */
export async function applyWebhookEvent(
  db: Kysely<Database>,
  e: ProviderEvent,
  now: () => number,
  onMismatch: () => void,
): Promise<boolean> {
  const payment = e.payment;
  if (!PAYMENT_EVENTS.has(e.event) || !e.providerOrderId || !payment) return false;
  const to = PAYMENT_STATUSES.find((s) => s === payment.status);
  if (!to) return false;
  return db.transaction().execute(async (trx) => {
    const t = now();
    const stored = await findPaymentByProviderOrder(trx, e.providerOrderId as string);
    if (!stored) return false;
    if (!paysFor(payment, stored)) {
      onMismatch();
      return false;
    }
    const moved = await raisePaymentStatus(trx, stored.id, to, payment.id, t);
    if (moved && to === 'captured' && stored.orderId !== null) await markOrderPaid(trx, stored.orderId, t);
    return moved;
  });
}

/** The test provider's stand-in for Checkout pays a provider order of this user's; any other is missing. */
export async function payWithTestProvider(
  db: Kysely<Database>,
  test: TestPaymentProvider,
  providerOrderId: string,
  userId: number,
) {
  const stored = await findPaymentByProviderOrder(db, providerOrderId);
  if (!stored || stored.userId !== userId || stored.provider !== 'test') {
    throw notFound('No such payment order.');
  }
  return test.pay(stored.providerOrderId);
}
