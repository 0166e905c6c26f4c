import * as v from 'valibot';
import { endpoint } from './contract.js';
import { OrderRequestSchema, type PaymentMethod, type PricingConflict } from './orders.js';

/**
 * Online payment. The browser asks for a provider order for its priced cart
 * (`createRazorpayOrder`, with the order's Idempotency-Key, which becomes the
 * provider's `receipt`), opens the provider's checkout with it, then places the
 * order with the payment id, provider order id and signature. `methods` says
 * what this server offers: Cash on Delivery always; Razorpay when keys are set;
 * the local test provider in development and tests when they are not.
 */
export type PaymentProviderName = 'razorpay' | 'test';

export interface PaymentMethods {
  methods: PaymentMethod[];
  provider: PaymentProviderName | null;
  /** The public key the provider's checkout script is opened with. */
  keyId: string | null;
}

export interface ProviderOrder {
  provider: PaymentProviderName;
  keyId: string;
  razorpayOrderId: string;
  /** Paise. */
  amount: number;
  currency: 'INR';
  receipt: string;
  /** Rupees, the server's total the amount was made from. */
  totalAmount: number;
}

/** What the provider's checkout hands the page on success (names as Razorpay's Checkout gives them). */
export interface CheckoutSuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** The cart to pay for: the order request without the payment proof (it does not exist yet). */
export const ProviderOrderRequestSchema = v.omit(OrderRequestSchema, [
  'RazorpayPaymentId',
  'RazorpayOrderId',
  'RazorpaySignature',
]);

export type { PricingConflict };

export const paymentsContract = {
  methods: endpoint<PaymentMethods>()({
    method: 'GET',
    path: '/payments/methods',
    summary: 'Payment methods this shop offers',
    tag: 'payments',
    access: 'public',
  }),
  createRazorpayOrder: endpoint<ProviderOrder>()({
    method: 'POST',
    path: '/payments/razorpay/order',
    summary:
      'Create the provider order for a priced cart (Idempotency-Key header required; it is the receipt)',
    tag: 'payments',
    access: 'user',
    body: ProviderOrderRequestSchema,
  }),
  webhook: endpoint<{ handled: boolean; duplicate: boolean }>()({
    method: 'POST',
    path: '/payments/razorpay/webhook',
    summary: 'Razorpay webhook (X-Razorpay-Signature over the raw body)',
    tag: 'payments',
    access: 'public',
  }),
  testPay: endpoint<CheckoutSuccess>()({
    method: 'POST',
    path: '/payments/test/pay',
    summary: 'Development and tests only: the local test provider pays a provider order, as Checkout would',
    tag: 'payments',
    access: 'user',
    body: v.object({
      razorpay_order_id: v.pipe(
        v.string('razorpay_order_id is required.'),
        v.trim(),
        v.nonEmpty('razorpay_order_id is required.'),
        v.maxLength(100),
      ),
    }),
  }),
} as const;
