/**
 * Online payment. The browser asks for a provider order for its priced cart
 * (`createRazorpayOrder`, with the order's Idempotency-Key, which becomes the
 * provider's `receipt`), opens the provider's checkout with it, then places the
 * order with the payment id, provider order id and signature. `methods` says
 * what this server offers: Cash on Delivery always; Razorpay when keys are set;
 * the local test provider in development and tests when they are not.
 */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import { OrderRequestSchema, PlacedOrderSchema, type PricingConflict } from './orders.js';
import { PaymentMethodSchema } from './payment-methods.js';
import { OrderPaymentSchema, PAYMENT_ATTEMPT_STATES, RefundRequestSchema } from './refunds.js';
import { IdSchema } from './validation.js';

const ProviderNameSchema = v.picklist(['razorpay', 'test']);
export type PaymentProviderName = v.InferOutput<typeof ProviderNameSchema>;
const int = v.pipe(v.number(), v.integer());

export const PaymentMethodsSchema = v.object({
  methods: v.array(PaymentMethodSchema),
  provider: v.nullable(ProviderNameSchema),
  /** The public key the provider's checkout script is opened with. */
  keyId: v.pipe(
    v.nullable(v.string()),
    v.description("The public key the provider's checkout is opened with"),
  ),
});
export type PaymentMethods = v.InferOutput<typeof PaymentMethodsSchema>;

export const ProviderOrderSchema = v.object({
  provider: ProviderNameSchema,
  keyId: v.string(),
  razorpayOrderId: v.string(),
  /** Paise. */
  amount: v.pipe(int, v.description('Paise')),
  currency: v.literal('INR'),
  receipt: v.string(),
  /** Rupees, the server's total the amount was made from. */
  totalAmount: v.pipe(int, v.description("Rupees: the server's total the amount was made from")),
  /**
   * When its price window ends (ISO time): unpaid by then, the provider order is closed and a later
   * payment refunded. Checkout is opened with a timeout that ends before it.
   */
  payBy: v.optional(v.pipe(v.string(), v.description('When the price window ends (ISO time)'))),
});
export type ProviderOrder = v.InferOutput<typeof ProviderOrderSchema>;

/** What the provider's checkout hands the page on success (names as Razorpay's Checkout gives them). */
export const CheckoutSuccessSchema = v.object({
  razorpay_payment_id: v.string(),
  razorpay_order_id: v.string(),
  razorpay_signature: v.string(),
});
export type CheckoutSuccess = v.InferOutput<typeof CheckoutSuccessSchema>;

/** The cart to pay for: the order request without the payment proof (it does not exist yet). */
const AttemptKeySchema = v.object({
  key: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(100)),
});

export const ProviderOrderRequestSchema = v.omit(OrderRequestSchema, [
  'RazorpayPaymentId',
  'RazorpayOrderId',
  'RazorpaySignature',
]);

export type { PricingConflict };

/** What became of the payment a phone started under its key (`domain/refunds.ts`, PAYMENT_ATTEMPT_STATES). */
export const PaymentAttemptSchema = v.object({
  key: v.string(),
  razorpayOrderId: v.string(),
  state: v.picklist(PAYMENT_ATTEMPT_STATES),
  /** Rupees the provider order asks for. */
  totalAmount: int,
  /** The order placed under the key: what `place-order` answered (or would answer) for it. */
  order: v.nullable(PlacedOrderSchema),
  /** Why a paid order could not be placed (state `refunded`). */
  reason: v.nullable(v.string()),
});
export type PaymentAttempt = v.InferOutput<typeof PaymentAttemptSchema>;

export const paymentsContract = {
  methods: endpoint({
    method: 'GET',
    path: '/payments/methods',
    summary: 'Payment methods this shop offers',
    tag: 'payments',
    access: 'public',
    response: PaymentMethodsSchema,
  }),
  createRazorpayOrder: endpoint({
    method: 'POST',
    path: '/payments/razorpay/order',
    summary:
      'Create the provider order for a priced cart (Idempotency-Key header required; it is the receipt)',
    tag: 'payments',
    access: 'user',
    response: ProviderOrderSchema,
    refusals: [404, 409, 413, 422, 429],
    body: ProviderOrderRequestSchema,
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/payments/razorpay/webhook',
    summary: 'Razorpay webhook (X-Razorpay-Signature over the raw body)',
    tag: 'payments',
    access: 'public',
    response: v.object({ handled: v.boolean(), duplicate: v.boolean() }),
    refusals: [404, 409, 413, 415],
  }),
  attempt: endpoint({
    method: 'GET',
    path: '/payments/attempts/{key}',
    summary:
      "What became of the shopper's own payment started under this Idempotency-Key: open, paying, placed (with the order), refunded (with why) or closed",
    tag: 'payments',
    access: 'user',
    response: PaymentAttemptSchema,
    refusals: [404, 429],
    params: AttemptKeySchema,
  }),
  closeAttempt: endpoint({
    method: 'POST',
    path: '/payments/attempts/{key}/close',
    summary:
      "Ends the shopper's own unpaid payment under this Idempotency-Key (its items were ordered another way): a payment made on it later is refunded in full. Answers what became of it",
    tag: 'payments',
    access: 'user',
    response: PaymentAttemptSchema,
    refusals: [404, 429],
    params: AttemptKeySchema,
  }),
  refund: endpoint({
    method: 'POST',
    path: '/admin/orders/{id}/refunds',
    summary:
      "Refund part of an order's online payment ({amount, reason}, whole rupees) through the provider; never more than is left of what was paid (422, nothing sent)",
    tag: 'payments',
    access: 'admin',
    status: 201,
    response: OrderPaymentSchema,
    refusals: [409, 422],
    params: v.object({ id: IdSchema }),
    body: RefundRequestSchema,
  }),
  testPay: endpoint({
    method: 'POST',
    path: '/payments/test/pay',
    summary: 'Development and tests only: the local test provider pays a provider order, as Checkout would',
    tag: 'payments',
    access: 'user',
    response: CheckoutSuccessSchema,
    refusals: [404, 409],
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
