import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { toPaise } from '../../domain/money.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods.js';
import { type PaymentMethods, type ProviderOrder, paymentsContract } from '../../domain/payments.contract.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import {
  findOpenPayment,
  findPaymentByProviderOrder,
  insertPayment,
  linkPaymentToOrder,
  markOrderPaid,
  type PaymentStatus,
  raisePaymentStatus,
  recordEvent,
  type StoredPayment,
} from './payment.repository.js';
import {
  type PaymentProvider,
  type ProviderPayment,
  providerFor,
  type TestPaymentProvider,
} from './provider.js';
import { webhookSignatureValid } from './signature.js';

/**
 * Payments as a service the order routes call (`app.payments`), plus the
 * routes that belong to the provider: what methods exist, its webhook, and
 * the test provider's stand-in for Checkout. See `README.md` for the flow.
 */
type Db = Kysely<Database> | Transaction<Database>;

export interface VerifiedPayment {
  paymentRowId: number;
  providerOrderId: string;
  paymentId: string;
}

export interface PaymentsService {
  provider: PaymentProvider | null;
  methods(): PaymentMethods;
  /** A provider order for this user's key and total; asking again with the same key and amount reuses it. */
  createProviderOrder(input: { userId: number; key: string; totalAmount: number }): Promise<ProviderOrder>;
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

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

const WEBHOOK_STATUS: Record<string, PaymentStatus> = {
  'payment.authorized': 'authorized',
  'payment.captured': 'captured',
  'payment.failed': 'failed',
  'order.paid': 'captured',
};

interface WebhookBody {
  event?: unknown;
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown } };
    order?: { entity?: { id?: unknown } };
  };
}

const str = (x: unknown): string | null =>
  typeof x === 'string' && x.length > 0 && x.length <= 100 ? x : null;

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

export default fp(
  async (app: FastifyInstance) => {
    const provider = providerFor(app.config);
    const now = () => Date.now();
    if (provider?.name === 'test') {
      // Said at every start, so an operator who left it on by mistake sees it in the log.
      app.log.warn(
        'TEST_PAYMENTS=true: online payment is the local test provider; orders are marked paid but no money moves',
      );
    }

    const service: PaymentsService = {
      provider,
      methods() {
        const methods: PaymentMethod[] = [PAYMENT_METHODS.cod];
        if (provider) methods.push(PAYMENT_METHODS.online);
        return { methods, provider: provider?.name ?? null, keyId: provider?.keyId ?? null };
      },
      async createProviderOrder({ userId, key, totalAmount }) {
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
        const open = await findOpenPayment(app.db, userId, key, provider.name, amount);
        if (open) return answer(open.providerOrderId);
        const created = await provider.createOrder({
          amount,
          currency: 'INR',
          receipt: key,
          notes: { user_id: String(userId) },
        });
        await insertPayment(app.db, {
          provider: provider.name,
          providerOrderId: created.id,
          userId,
          key,
          amountPaise: amount,
          now: now(),
        });
        return answer(created.id);
      },
      async verifyCheckout(db, input) {
        if (!provider) throw badRequest(messages.onlinePaymentUnavailable);
        const stored = await ownProviderOrder(db, provider, input.providerOrderId, input.userId);
        if (!provider.verifyCheckout(stored.providerOrderId, input.paymentId, input.signature)) {
          throw badRequest(messages.paymentNotVerified);
        }
        if (stored.amountPaise !== toPaise(input.totalAmount)) throw conflict(messages.paymentAmountMismatch);
        if (stored.orderId !== null) throw conflict(messages.paymentAlreadyUsed);
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
      async verifyLookedUp(db, { userId, payment, totalAmount }) {
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
        const stored = await ownProviderOrder(db, provider, payment.orderId, userId);
        if (stored.orderId !== null) throw conflict(messages.paymentAlreadyUsed);
        return { paymentRowId: stored.id, providerOrderId: stored.providerOrderId, paymentId: payment.id };
      },
      async linkOrder(db, payment, orderId) {
        const t = now();
        if (!(await linkPaymentToOrder(db, payment.paymentRowId, orderId, payment.paymentId, t))) {
          throw conflict(messages.paymentAlreadyUsed);
        }
        await raisePaymentStatus(db, payment.paymentRowId, 'authorized', payment.paymentId, t);
      },
    };
    app.decorate('payments', service);

    route(app, paymentsContract.methods, async () => ok(service.methods()));

    if (provider?.name === 'test') {
      const test = provider as TestPaymentProvider;
      route(app, paymentsContract.testPay, async ({ body, request }) => {
        const orderId = body?.razorpay_order_id ?? '';
        const stored = await findPaymentByProviderOrder(app.db, orderId);
        if (!stored || stored.userId !== request.user.id || stored.provider !== 'test') {
          throw notFound('No such payment order.');
        }
        return ok(test.pay(stored.providerOrderId), 'Test payment made.');
      });
    }

    // The webhook needs the body exactly as sent (the signature covers its bytes), so JSON
    // is not parsed for it: the raw parser lives in this child plugin only.
    await app.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );

      route(hook, paymentsContract.webhook, async ({ request }) => {
        const secret = app.config.razorpay.webhookSecret;
        if (!secret) throw notFound('Payment webhooks are not set up on this shop.');
        const raw = request.body;
        const signature = request.headers['x-razorpay-signature'];
        if (
          !Buffer.isBuffer(raw) ||
          typeof signature !== 'string' ||
          !webhookSignatureValid(secret, raw, signature)
        ) {
          throw badRequest('The webhook signature is not valid.');
        }
        let body: WebhookBody;
        try {
          body = JSON.parse(raw.toString('utf8')) as WebhookBody;
        } catch {
          throw badRequest('The request body is not valid JSON.');
        }
        if (typeof body !== 'object' || body === null) throw badRequest('The webhook body is not an event.');
        const event = str(body.event) ?? 'unknown';
        const headerId = request.headers['x-razorpay-event-id'];
        // Razorpay names each event in a header; without it, identical bodies are the same event.
        const eventId =
          typeof headerId === 'string' && headerId.length > 0 && headerId.length <= 100
            ? headerId
            : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
        const paymentEntity = body.payload?.payment?.entity;
        const providerOrderId = str(paymentEntity?.order_id) ?? str(body.payload?.order?.entity?.id);
        const paymentId = str(paymentEntity?.id);
        const to = WEBHOOK_STATUS[event];

        const handled = await app.db.transaction().execute(async (trx) => {
          const t = now();
          if (!(await recordEvent(trx, { eventId, event, providerOrderId, now: t }))) return null;
          if (!to || !providerOrderId) return false;
          const stored = await findPaymentByProviderOrder(trx, providerOrderId);
          if (!stored) return false;
          if (typeof paymentEntity?.amount === 'number' && paymentEntity.amount !== stored.amountPaise) {
            request.log.warn({ providerOrderId, eventId }, 'webhook amount differs from the provider order');
            return false;
          }
          const moved = await raisePaymentStatus(trx, stored.id, to, paymentId, t);
          if (moved && to === 'captured' && stored.orderId !== null)
            await markOrderPaid(trx, stored.orderId, t);
          return moved;
        });
        if (handled === null) return ok({ handled: false, duplicate: true }, 'Event already handled.');
        return ok({ handled, duplicate: false });
      });
    });
  },
  { name: 'payments', dependencies: ['database', 'auth'] },
);
