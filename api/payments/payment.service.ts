/** Online payment's rules: provider orders, Checkout's proof, the provider's webhook events. */
import type { Kysely, Transaction } from 'kysely';
import { messages } from '../../domain/messages.js';
import { toPaise } from '../../domain/money.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods.js';
import type { PaymentMethods, ProviderOrder } from '../../domain/payments.contract.js';
import { refundMessages, unplacedMessages } from '../../domain/refunds.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import {
  findOpenPayment,
  findPaymentByProviderOrder,
  insertPayment,
  keepRequest,
  linkPaymentToOrder,
  markOrderPaid,
  notePaymentSeen,
  type PaymentStatus,
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
   * (`requestJson`: the server places it when paid). Asking again with the same key and amount
   * reuses it, with the new request kept instead while nothing was paid on it.
   */
  createProviderOrder(input: {
    userId: number;
    key: string;
    totalAmount: number;
    requestJson: string;
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
    async createProviderOrder({ userId, key, totalAmount, requestJson }) {
      if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
      if (totalAmount < 1) throw badRequest('This order has nothing to pay online.');
      const amount = toPaise(totalAmount);
      const answer = (providerOrderId: string): ProviderOrder => ({
        provider: provider.name,
        keyId: provider.keyId,
        razorpayOrderId: providerOrderId,
        amount,
        currency: 'INR',
        receipt: key,
        totalAmount,
      });
      const open = await findOpenPayment(db, userId, key, provider.name, amount);
      if (open) {
        await keepRequest(db, open.id, requestJson, now());
        return answer(open.providerOrderId);
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
        requestJson,
        now: now(),
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

const WEBHOOK_STATUS: Record<string, PaymentStatus> = {
  'payment.authorized': 'authorized',
  'payment.captured': 'captured',
  'payment.failed': 'failed',
  'order.paid': 'captured',
};

/**
 * Moves a provider event's payment status (never backwards); false when it moved nothing.
 * `onAmountMismatch` hears of an event whose amount is not the provider order's.
 */
export async function applyWebhookEvent(
  db: Kysely<Database>,
  e: ProviderEvent,
  now: () => number,
  onAmountMismatch: () => void,
): Promise<boolean> {
  const to = WEBHOOK_STATUS[e.event];
  return db.transaction().execute(async (trx) => {
    const t = now();
    if (!to || !e.providerOrderId) return false;
    const stored = await findPaymentByProviderOrder(trx, e.providerOrderId);
    if (!stored) return false;
    if (e.payment && e.payment.amount !== stored.amountPaise) {
      onAmountMismatch();
      return false;
    }
    const moved = await raisePaymentStatus(trx, stored.id, to, e.payment?.id ?? null, t);
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
