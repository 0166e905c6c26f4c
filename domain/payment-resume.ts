/**
 * What the phone does with a payment it started and lost sight of (its page died in the UPI app),
 * once the server says what became of it (`GET /payments/attempts/{key}`, states in `refunds.ts`).
 * One rule for the page's resume (`web/checkout/payment-resume.ts`) and its tests:
 * - `placed`: the order goes into the outbox as sent and its lines out of the cart, in one
 *   transaction, so nobody pays for them twice;
 * - `open`: nothing paid yet: pay again with the same provider order, or back to the cart (the
 *   phone drops it silently when none of its lines is in the cart any more: another order took them);
 * - `paying`, or no answer (offline, the server unreachable): "being confirmed", asked again later;
 *   never "failed", since a payment may still arrive and place the order;
 * - `refunded`: said with the reason, the row goes, the lines stay in the cart;
 * - `closed` (never paid) and a key the server does not know for this account (404): the row goes
 *   silently.
 */
import type { OrderRequestInput, PlacedOrder } from './orders.js';
import { PAYMENT_METHODS } from './payment-methods.js';
import type { CheckoutSuccess, PaymentAttempt } from './payments.contract.js';

export type PaymentOnPhone =
  | { kind: 'confirming' }
  | { kind: 'open' }
  | { kind: 'placed'; order: PlacedOrder }
  | { kind: 'refunded'; reason: string }
  | { kind: 'gone' };

/** `answer`: the attempt, `'unknown'` for a 404 (no such payment of this account), null when nothing was learned. */
export function paymentOnPhone(answer: PaymentAttempt | 'unknown' | null): PaymentOnPhone {
  if (answer === null) return { kind: 'confirming' };
  if (answer === 'unknown') return { kind: 'gone' };
  switch (answer.state) {
    case 'placed':
      // Placed without the order in the answer is a server fault: wait for a whole answer.
      return answer.order ? { kind: 'placed', order: answer.order } : { kind: 'confirming' };
    case 'open':
      return { kind: 'open' };
    case 'refunded':
      return { kind: 'refunded', reason: answer.reason ?? '' };
    case 'closed':
      return { kind: 'gone' };
    default:
      return { kind: 'confirming' };
  }
}

/** The pause before asking again about a payment being confirmed: 5 s doubling to 2 minutes. */
export function resumeBackoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts), 120_000);
}

/** The order paid online: its request with the payment's proof, placed under the payment's key. */
export function withProof(request: OrderRequestInput, proof: CheckoutSuccess): OrderRequestInput {
  return {
    ...request,
    PaymentMethod: PAYMENT_METHODS.online,
    RazorpayPaymentId: proof.razorpay_payment_id,
    RazorpayOrderId: proof.razorpay_order_id,
    RazorpaySignature: proof.razorpay_signature,
  };
}
