/**
 * A payment provider as the shop uses it: create an order for an amount in
 * paise, and check the signature Checkout returns. Two exist: Razorpay (keys
 * set; base URL from `RAZORPAY_API_URL`, so tests point it at a local double)
 * and, only when the operator sets TEST_PAYMENTS=true and no keys, a local test
 * provider that goes through the same flow inside this process (no money moves).
 */
import { randomBytes } from 'node:crypto';
import type { CheckoutSuccess, PaymentProviderName } from '../../domain/payments.contract.js';
import { refundMessages } from '../../domain/refunds.js';
import type { Config } from '../config.js';
import { conflict, HttpError } from '../http/errors.js';
import { checkoutSignatureValid, hmacHex } from './signature.js';

export interface ProviderOrderEntity {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  status: string;
}

/** A payment as the provider reports it (`GET /v1/payments/:id`, and in events). */
export interface ProviderPayment {
  id: string;
  amount: number;
  currency: string;
  /** created, authorized, captured, refunded, failed. */
  status: string;
  orderId: string | null;
  /** When the shopper paid (ms; Razorpay's `created_at` is in seconds): the order is judged as at then. */
  createdAt: number | null;
}

/** A refund as the provider reports it (`POST /v1/payments/:id/refund`, and in events). */
export interface ProviderRefund {
  id: string;
  paymentId: string;
  amount: number;
  /** pending, processed, failed. */
  status: string;
  receipt: string | null;
  /** The provider's reason, for a failed refund. */
  failureReason: string | null;
}

/**
 * A provider event, the same whether it came through the webhook (read from the signed body) or
 * from the local test provider, so both go through one handler.
 */
export interface ProviderEvent {
  /** `X-Razorpay-Event-Id`, else the body's hash: each is handled once. */
  eventId: string;
  /** payment.authorized, payment.captured, payment.failed, order.paid, refund.created, refund.processed, refund.failed… */
  event: string;
  providerOrderId: string | null;
  payment: ProviderPayment | null;
  refund: ProviderRefund | null;
}

/** What a refund asks of the provider: paise, a receipt naming the order, and notes. */
export interface RefundInput {
  amount: number;
  receipt: string;
  notes: Record<string, string>;
}

export interface PaymentProvider {
  name: PaymentProviderName;
  keyId: string;
  /** The provider's own record of a payment; null when it does not know the id. */
  fetchPayment(paymentId: string): Promise<ProviderPayment | null>;
  createOrder(input: {
    amount: number;
    currency: 'INR';
    receipt: string;
    notes: Record<string, string>;
  }): Promise<ProviderOrderEntity>;
  verifyCheckout(orderId: string, paymentId: string, signature: string): boolean;
  /** `GET /v1/orders/:id/payments`: every payment made on a provider order (reconciling a missed webhook). */
  fetchOrderPayments(orderId: string): Promise<ProviderPayment[]>;
  /** `POST /v1/payments/:id/capture` for the whole amount; a payment captured already is answered as it is. */
  capturePayment(paymentId: string, amount: number): Promise<ProviderPayment>;
  /**
   * `POST /v1/payments/:id/refund` under `X-Refund-Idempotency` (at least 10 characters): the same
   * key and body give back the same refund. A refund of this key still in progress is a 409
   * (`refundMessages.inProgress`); any other refusal a 502 with the provider's answer in the log.
   */
  refund(paymentId: string, input: RefundInput, idempotencyKey: string): Promise<ProviderRefund>;
}

/** Where the test provider sends the events Razorpay's webhooks would (the same handler). */
export type EventSink = (event: ProviderEvent) => Promise<void>;

export interface TestPaymentProvider extends PaymentProvider {
  name: 'test';
  /**
   * What Checkout hands the page after a successful payment of this order. The payment is
   * captured (as with automatic capture), and `payment.authorized`, `payment.captured` and
   * `order.paid` go to the sink after the answer, as webhooks would come.
   */
  pay(orderId: string): CheckoutSuccess;
  /** Where its events go: the payments plugin sets its handler here. */
  onEvent(sink: EventSink): void;
}

const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * A 502 for the shopper, carrying what went wrong for the shop's log (the provider unreachable,
 * or its answer: wrong keys, a refused amount).
 */
function providerFailure(message: string, cause: unknown): HttpError {
  const error = new HttpError(502, message);
  error.cause = cause;
  return error;
}

export function razorpayProvider(settings: {
  apiUrl: string;
  keyId: string;
  keySecret: string;
}): PaymentProvider {
  const auth = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
  const base = settings.apiUrl.replace(/\/+$/, '');
  /** One call to the provider's API; the network failing is a 502 for the shopper, with its cause logged. */
  const call = async (pathname: string, init: RequestInit = {}) => {
    let res: Response;
    try {
      res = await fetch(`${base}${pathname}`, {
        ...init,
        headers: { authorization: auth, ...init.headers },
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch (err) {
      throw providerFailure('The payment provider is not answering. Please try again.', err);
    }
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { res, body };
  };
  return {
    name: 'razorpay',
    keyId: settings.keyId,
    async createOrder(input) {
      const { res, body } = await call('/v1/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      if (!res.ok || !body || typeof body.id !== 'string' || body.amount !== input.amount) {
        // The provider's own message may name our keys or account: it goes to the log (as the
        // error's cause, plugins/errors.ts), never to the shopper.
        throw providerFailure('The payment provider did not accept the order. Please try again.', {
          providerStatus: res.status,
          providerAnswer: body,
        });
      }
      return {
        id: body.id,
        amount: input.amount,
        currency: String(body.currency),
        receipt: String(body.receipt),
        status: String(body.status),
      };
    },
    verifyCheckout(orderId, paymentId, signature) {
      return checkoutSignatureValid(settings.keySecret, orderId, paymentId, signature);
    },
    async fetchPayment(paymentId) {
      const { res, body } = await call(`/v1/payments/${encodeURIComponent(paymentId)}`);
      // Razorpay answers an unknown id with 400 BAD_REQUEST_ERROR.
      if (res.status === 400 || res.status === 404) return null;
      const payment = res.ok ? paymentOf(body) : null;
      if (!payment) throw unexpected(res, body);
      return payment;
    },
    async fetchOrderPayments(orderId) {
      const { res, body } = await call(`/v1/orders/${encodeURIComponent(orderId)}/payments`);
      const items = res.ok && body && Array.isArray(body.items) ? body.items.map(paymentOf) : null;
      if (!items || items.some((p) => p === null)) throw unexpected(res, body);
      return items as ProviderPayment[];
    },
    async capturePayment(paymentId, amount) {
      const path = `/v1/payments/${encodeURIComponent(paymentId)}`;
      const { res, body } = await call(`${path}/capture`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount, currency: 'INR' }),
      });
      const captured = res.ok ? paymentOf(body) : null;
      if (captured) return captured;
      // Captured meanwhile (automatic capture, another process): Razorpay refuses with a 400; the
      // payment as it now stands is the answer.
      if (res.status === 400) {
        const now = await this.fetchPayment(paymentId);
        if (now?.status === 'captured') return now;
      }
      throw unexpected(res, body);
    },
    async refund(paymentId, input, idempotencyKey) {
      const { res, body } = await call(`/v1/payments/${encodeURIComponent(paymentId)}/refund`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-refund-idempotency': idempotencyKey },
        body: JSON.stringify(input),
      });
      const refund = res.ok ? refundOf(body) : null;
      if (refund) return refund;
      if (res.status === 409) throw conflict(refundMessages.inProgress);
      throw providerFailure('The payment provider did not accept the refund. Please try again.', {
        providerStatus: res.status,
        providerAnswer: body,
      });
    },
  };
}

function unexpected(res: Response, body: unknown): HttpError {
  return providerFailure('The payment provider did not answer as expected. Please try again.', {
    providerStatus: res.status,
    providerAnswer: body,
  });
}

const text = (x: unknown): string | null => (typeof x === 'string' && x.length > 0 ? x : null);

/** A payment entity as Razorpay writes it (API answers and event payloads); null when it is not one. */
export function paymentOf(entity: unknown): ProviderPayment | null {
  const e = entity as Record<string, unknown> | null;
  if (!e || typeof e.id !== 'string' || typeof e.amount !== 'number') return null;
  return {
    id: e.id,
    amount: e.amount,
    currency: String(e.currency),
    status: String(e.status),
    orderId: text(e.order_id),
    createdAt: typeof e.created_at === 'number' ? e.created_at * 1000 : null,
  };
}

/** A refund entity as Razorpay writes it; null when it is not one. */
export function refundOf(entity: unknown): ProviderRefund | null {
  const e = entity as Record<string, unknown> | null;
  if (!e || typeof e.id !== 'string' || typeof e.amount !== 'number' || typeof e.payment_id !== 'string') {
    return null;
  }
  const error = e.error as Record<string, unknown> | null | undefined;
  return {
    id: e.id,
    paymentId: e.payment_id,
    amount: e.amount,
    status: String(e.status),
    receipt: text(e.receipt),
    failureReason: text(error?.description) ?? text(error?.reason) ?? text(e.failure_reason),
  };
}

/**
 * The local test provider: same ids and signatures as Razorpay's, made in memory with a per-process
 * secret. It captures, refunds and answers the reconciliation call as Razorpay does, and sends the
 * events Razorpay's webhooks would into the same handler (`onEvent`), each after the call that
 * caused it has answered: a refund is processed a moment after it is asked for.
 */
export function testProvider(): TestPaymentProvider {
  const secret = randomBytes(32).toString('hex');
  const id = (prefix: string) => `${prefix}_test${randomBytes(8).toString('hex')}`;
  const orders = new Map<string, number>();
  const payments = new Map<string, ProviderPayment>();
  const refunds = new Map<string, { refund: ProviderRefund; body: string }>();
  let sink: EventSink | null = null;
  const emit = (event: string, payment: ProviderPayment | null, refund: ProviderRefund | null) => {
    const e: ProviderEvent = {
      eventId: id('evt'),
      event,
      providerOrderId: payment?.orderId ?? null,
      payment: payment ? { ...payment } : null,
      refund: refund ? { ...refund } : null,
    };
    // As a webhook comes: after the answer, on its own; the handler logs its own failures.
    setImmediate(() => void sink?.(e).catch(() => undefined));
  };
  const known = (paymentId: string) => {
    const p = payments.get(paymentId);
    if (!p)
      throw providerFailure('The payment provider did not answer as expected. Please try again.', {
        paymentId,
      });
    return p;
  };
  return {
    name: 'test',
    keyId: 'rzp_test_local',
    onEvent(next) {
      sink = next;
    },
    async createOrder(input) {
      const orderId = id('order');
      orders.set(orderId, input.amount);
      return {
        id: orderId,
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        status: 'created',
      };
    },
    async fetchPayment(paymentId) {
      const p = payments.get(paymentId);
      return p ? { ...p } : null;
    },
    async fetchOrderPayments(orderId) {
      return [...payments.values()].filter((p) => p.orderId === orderId).map((p) => ({ ...p }));
    },
    async capturePayment(paymentId) {
      const p = known(paymentId);
      if (p.status === 'authorized') {
        p.status = 'captured';
        emit('payment.captured', p, null);
      }
      return { ...p };
    },
    async refund(paymentId, input, idempotencyKey) {
      const body = JSON.stringify(input);
      const seen = refunds.get(idempotencyKey);
      if (seen) {
        if (seen.body !== body) {
          throw providerFailure('The payment provider did not accept the refund. Please try again.', {
            providerStatus: 400,
            idempotencyKey,
          });
        }
        return { ...seen.refund };
      }
      const p = known(paymentId);
      const refunded = [...refunds.values()]
        .filter((r) => r.refund.paymentId === paymentId && r.refund.status !== 'failed')
        .reduce((sum, r) => sum + r.refund.amount, 0);
      if (p.status !== 'captured' && p.status !== 'refunded') {
        throw providerFailure('The payment provider did not accept the refund. Please try again.', {
          providerStatus: 400,
          reason: 'payment not captured',
        });
      }
      if (input.amount < 100 || refunded + input.amount > p.amount) {
        throw providerFailure('The payment provider did not accept the refund. Please try again.', {
          providerStatus: 400,
          reason: 'amount exceeds what is left',
        });
      }
      const refund: ProviderRefund = {
        id: id('rfnd'),
        paymentId,
        amount: input.amount,
        status: 'pending',
        receipt: input.receipt,
        failureReason: null,
      };
      refunds.set(idempotencyKey, { refund, body });
      emit('refund.created', p, refund);
      setImmediate(() => {
        refund.status = 'processed';
        emit('refund.processed', p, refund);
      });
      return { ...refund };
    },
    verifyCheckout(orderId, paymentId, signature) {
      return checkoutSignatureValid(secret, orderId, paymentId, signature);
    },
    pay(orderId) {
      const paymentId = id('pay');
      const payment: ProviderPayment = {
        id: paymentId,
        amount: orders.get(orderId) ?? 0,
        currency: 'INR',
        status: 'captured',
        orderId,
        createdAt: Date.now(),
      };
      payments.set(paymentId, payment);
      emit('payment.authorized', { ...payment, status: 'authorized' }, null);
      emit('payment.captured', payment, null);
      emit('order.paid', payment, null);
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: hmacHex(secret, `${orderId}|${paymentId}`),
      };
    },
  };
}

/**
 * Razorpay with keys; the test provider without them only when TEST_PAYMENTS=true; otherwise none
 * (COD only). Never chosen by mode: a shop started without NODE_ENV must not take "paid" orders
 * for which no money moved.
 */
export function providerFor(config: Config): PaymentProvider | null {
  const { keyId, keySecret, apiUrl } = config.razorpay;
  if (keyId && keySecret) return razorpayProvider({ apiUrl, keyId, keySecret });
  if (config.testPayments) return testProvider();
  return null;
}
