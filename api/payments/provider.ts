import { randomBytes } from 'node:crypto';
import type { CheckoutSuccess, PaymentProviderName } from '../../domain/payments.contract.js';
import type { Config } from '../config.js';
import { HttpError } from '../http/errors.js';
import { checkoutSignatureValid, hmacHex } from './signature.js';

/**
 * A payment provider as the shop uses it: create an order for an amount in
 * paise, and check the signature Checkout returns. Two exist: Razorpay (keys
 * set; base URL from `RAZORPAY_API_URL`, so tests point it at a local double)
 * and, in development and tests without keys, a local test provider that goes
 * through the same flow inside this process.
 */
export interface ProviderOrderEntity {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  status: string;
}

export interface PaymentProvider {
  name: PaymentProviderName;
  keyId: string;
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

export function razorpayProvider(settings: {
  apiUrl: string;
  keyId: string;
  keySecret: string;
}): PaymentProvider {
  const auth = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
  const base = settings.apiUrl.replace(/\/+$/, '');
  return {
    name: 'razorpay',
    keyId: settings.keyId,
    async createOrder(input) {
      let res: Response;
      try {
        res = await fetch(`${base}/v1/orders`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch {
        throw new HttpError(502, 'The payment provider is not answering. Please try again.');
      }
      const body = (await res.json().catch(() => null)) as Partial<ProviderOrderEntity> | null;
      if (!res.ok || !body || typeof body.id !== 'string' || body.amount !== input.amount) {
        // The provider's own message may name our keys or account: log it, never pass it on.
        throw new HttpError(502, 'The payment provider did not accept the order. Please try again.');
      }
      return {
        id: body.id,
        amount: body.amount,
        currency: String(body.currency),
        receipt: String(body.receipt),
        status: String(body.status),
      };
    },
    verifyCheckout(orderId, paymentId, signature) {
      return checkoutSignatureValid(settings.keySecret, orderId, paymentId, signature);
    },
  };
}

/** The local test provider: same ids and signatures as Razorpay's, made in memory with a per-process secret. */
export function testProvider(): TestPaymentProvider {
  const secret = randomBytes(32).toString('hex');
  const id = (prefix: string) => `${prefix}_test${randomBytes(8).toString('hex')}`;
  return {
    name: 'test',
    keyId: 'rzp_test_local',
    async createOrder(input) {
      return {
        id: id('order'),
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        status: 'created',
      };
    },
    verifyCheckout(orderId, paymentId, signature) {
      return checkoutSignatureValid(secret, orderId, paymentId, signature);
    },
    pay(orderId) {
      const paymentId = id('pay');
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: hmacHex(secret, `${orderId}|${paymentId}`),
      };
    },
  };
}

/** Razorpay with keys; the test provider in development and tests without them; otherwise none (COD only). */
export function providerFor(config: Config): PaymentProvider | null {
  const { keyId, keySecret, apiUrl } = config.razorpay;
  if (keyId && keySecret) return razorpayProvider({ apiUrl, keyId, keySecret });
  if (config.mode !== 'production') return testProvider();
  return null;
}
