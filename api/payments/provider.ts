/**
 * A payment provider as the shop uses it: create an order for an amount in
 * paise, and check the signature Checkout returns. Two exist: Razorpay (keys
 * set; base URL from `RAZORPAY_API_URL`, so tests point it at a local double)
 * and, only when the operator sets TEST_PAYMENTS=true and no keys, a local test
 * provider that goes through the same flow inside this process (no money moves).
 */
import { randomBytes } from 'node:crypto';
import type { CheckoutSuccess, PaymentProviderName } from '../../domain/payments.contract.js';
import type { Config } from '../config.js';
import { HttpError } from '../http/errors.js';
import { checkoutSignatureValid, hmacHex } from './signature.js';

export interface ProviderOrderEntity {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  status: string;
}

/** A payment as the provider reports it (`GET /v1/payments/:id`). */
export interface ProviderPayment {
  id: string;
  amount: number;
  currency: string;
  status: string;
  orderId: string | null;
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
}

export interface TestPaymentProvider extends PaymentProvider {
  name: 'test';
  /** What Checkout hands the page after a successful payment of this order. */
  pay(orderId: string): CheckoutSuccess;
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
      if (!res.ok || !body || typeof body.id !== 'string' || typeof body.amount !== 'number') {
        throw providerFailure('The payment provider did not answer as expected. Please try again.', {
          providerStatus: res.status,
          providerAnswer: body,
        });
      }
      return {
        id: body.id,
        amount: body.amount,
        currency: String(body.currency),
        status: String(body.status),
        orderId: typeof body.order_id === 'string' ? body.order_id : null,
      };
    },
  };
}

/** The local test provider: same ids and signatures as Razorpay's, made in memory with a per-process secret. */
export function testProvider(): TestPaymentProvider {
  const secret = randomBytes(32).toString('hex');
  const id = (prefix: string) => `${prefix}_test${randomBytes(8).toString('hex')}`;
  const orders = new Map<string, number>();
  const payments = new Map<string, ProviderPayment>();
  return {
    name: 'test',
    keyId: 'rzp_test_local',
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
      return payments.get(paymentId) ?? null;
    },
    verifyCheckout(orderId, paymentId, signature) {
      return checkoutSignatureValid(secret, orderId, paymentId, signature);
    },
    pay(orderId) {
      const paymentId = id('pay');
      payments.set(paymentId, {
        id: paymentId,
        amount: orders.get(orderId) ?? 0,
        currency: 'INR',
        status: 'captured',
        orderId,
      });
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
