import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type FixtureProduct, newKey, orderRequest } from './order-fixtures.js';
import type { RazorpayDouble } from './razorpay-double.js';

/**
 * An order paid online as the page pays it: a provider order under an idempotency key, Checkout's
 * payment at the Razorpay double, then `place-order` with Checkout's proof. The app must be built
 * with the double's keys (`razorpay` in its settings).
 */
export async function paidOrder(
  app: FastifyInstance,
  rzp: RazorpayDouble,
  shopper: { authorization: string },
  product: FixtureProduct,
): Promise<{ id: number; paymentId: string }> {
  const key = newKey();
  const body = orderRequest([{ product }], { PaymentMethod: 'Razorpay' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/payments/razorpay/order',
    headers: { ...shopper, 'idempotency-key': key },
    payload: body,
  });
  expect(created.statusCode, created.body).toBe(200);
  const paid = rzp.checkout(created.json().data.razorpayOrderId);
  const placed = await app.inject({
    method: 'POST',
    url: '/api/place-order',
    headers: { ...shopper, 'idempotency-key': key },
    payload: {
      ...body,
      RazorpayPaymentId: paid.razorpay_payment_id,
      RazorpayOrderId: paid.razorpay_order_id,
      RazorpaySignature: paid.razorpay_signature,
    },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return { id: placed.json().data.orderID as number, paymentId: paid.razorpay_payment_id };
}
