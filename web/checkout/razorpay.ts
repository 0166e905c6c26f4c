/**
 * Razorpay Standard Checkout, loaded only when the shopper pays online (never
 * on the first screen, never precached: it is the provider's script). The
 * options are the spec's: amount in paise, INR, the shop's name, "Order
 * Payment", the shopper's name, email and phone prefilled; and UPI without its
 * collect flow, which NPCI no longer allows.
 */
import { RAZORPAY_CHECKOUT_SCRIPT } from '../../domain/browser-origins.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { CHECKOUT_DISPLAY } from '../../domain/payment-methods.js';
import type { CheckoutSuccess, ProviderOrder } from '../../domain/payments.contract.js';
import { shopName } from '../shop-name.js';

const SCRIPT_URL = RAZORPAY_CHECKOUT_SCRIPT;

interface RazorpayFailure {
  error: { code?: string; description?: string; reason?: string; source?: string; step?: string };
}
interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', handler: (response: RazorpayFailure) => void): void;
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

export type PaymentResult =
  | { kind: 'paid'; proof: CheckoutSuccess }
  | { kind: 'dismissed' }
  | { kind: 'failed'; reason: string };

export class ScriptLoadError extends Error {}

let loading: Promise<RazorpayConstructor> | null = null;
function loadScript(): Promise<RazorpayConstructor> {
  const existing = (window as { Razorpay?: RazorpayConstructor }).Razorpay;
  if (existing) return Promise.resolve(existing);
  if (loading) return loading;
  loading = new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const ctor = (window as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (ctor) resolve(ctor);
      else reject(new ScriptLoadError(t.paymentScriptFailed));
    };
    script.onerror = () => {
      script.remove();
      reject(new ScriptLoadError(t.paymentScriptFailed));
    };
    document.head.append(script);
  }).catch((err) => {
    // The next attempt loads it again (the shopper may have moved into signal).
    loading = null;
    throw err;
  });
  return loading;
}

export interface Prefill {
  name: string;
  email: string;
  contact: string;
}

/**
 * The Checkout options of a provider order, apart from its callbacks: the stand-in of the local
 * test provider is given the same ones. UPI's collect flow is hidden as NPCI requires
 * (`CHECKOUT_DISPLAY`, domain/payment-methods.ts).
 */
export function checkoutOptions(order: ProviderOrder, prefill: Prefill) {
  return {
    key: order.keyId,
    amount: order.amount,
    currency: order.currency,
    name: shopName(),
    description: t.paymentDescription,
    order_id: order.razorpayOrderId,
    prefill,
    theme: { color: '#7b2d43' },
    config: { display: CHECKOUT_DISPLAY },
    // Checkout closes a minute before the provider order's price window ends, so a payment is
    // never made on one the shop is about to close (and would refund).
    ...(order.payBy ? { timeout: checkoutTimeout(order.payBy, Date.now()) } : {}),
  };
}

/** Seconds Checkout stays open for a provider order whose window ends at `payBy`: at least a minute. */
export function checkoutTimeout(payBy: string, now: number): number {
  return Math.max(60, Math.floor((Date.parse(payBy) - now) / 1000) - 60);
}
export type CheckoutOptions = ReturnType<typeof checkoutOptions>;

/** Opens Razorpay Checkout for a provider order; resolves once with what happened. */
export async function payWithRazorpay(order: ProviderOrder, prefill: Prefill): Promise<PaymentResult> {
  const Razorpay = await loadScript();
  return new Promise<PaymentResult>((resolve) => {
    let settled = false;
    // Razorpay keeps its window open after a failed attempt, and the shopper may still pay in it: the
    // failure is only what is reported when they close the window without paying.
    let failure: string | null = null;
    const settle = (result: PaymentResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const checkout = new Razorpay({
      ...checkoutOptions(order, prefill),
      handler: (proof: CheckoutSuccess) => settle({ kind: 'paid', proof }),
      modal: {
        ondismiss: () => settle(failure ? { kind: 'failed', reason: failure } : { kind: 'dismissed' }),
        confirm_close: true,
      },
    });
    checkout.on('payment.failed', (response) => {
      failure = response.error.description || response.error.reason || 'unknown reason';
    });
    checkout.open();
  });
}
