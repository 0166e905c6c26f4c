import * as v from 'valibot';
import { EmailSchema } from './accounts.js';
import { endpoint } from './contract.js';
import { CouponOffSchema } from './coupon-terms.js';
import { ShopperOrderSchema } from './order-tracking.js';
import {
  AdminOrderHistoryRowSchema,
  CouponRequestSchema,
  OrderHistoryRowSchema,
  OrderRequestSchema,
  OrderStatusSchema,
  OrderStatusUpdateSchema,
  PlacedOrderSchema,
} from './orders.js';
import { ShopperRefundSchema } from './refunds.js';
import { IdSchema } from './validation.js';

const int = v.pipe(v.number(), v.integer());

/** A history row with its order's refunds (every row of the order carries them), oldest first. */
export const OrderHistoryWithRefundsSchema = v.object({
  ...OrderHistoryRowSchema.entries,
  refunds: v.optional(v.array(ShopperRefundSchema)),
});

/**
 * The order endpoints (spec section 7). `placeOrder` also reads the
 * `Idempotency-Key` header (see `api/orders/README.md`). `verifyCoupon`
 * answers `discountAmount` at the top level, as the spec's client reads it,
 * and inside `data`.
 */
export const ordersContract = {
  placeOrder: endpoint({
    method: 'POST',
    path: '/place-order',
    summary: 'Place an order (priced by the server; Idempotency-Key header makes retries safe)',
    tag: 'orders',
    access: 'user',
    response: PlacedOrderSchema,
    refusals: [404, 409, 422, 429],
    body: OrderRequestSchema,
  }),
  verifyCoupon: endpoint({
    method: 'POST',
    path: '/VerifyCoupon',
    summary:
      "Check a coupon for the current account and, given `subtotal` (the items' total, before delivery), for that basket: its minimum and a percentage's amount. Refusals name the condition",
    tag: 'orders',
    access: 'user',
    response: v.object({
      code: v.string(),
      discountAmount: int,
      /** What the coupon takes off, so the checkout re-works the discount as the basket changes. */
      off: v.optional(CouponOffSchema),
      minItems: v.optional(int),
    }),
    refusals: [404, 409, 422, 429],
    envelopeExtra: {
      discountAmount: v.pipe(int, v.description("The same as data.discountAmount, for the spec's client")),
    },
    body: CouponRequestSchema,
  }),
  orderHistoryByEmail: endpoint({
    method: 'GET',
    path: '/GetOrderHistoryByEmail',
    summary: "A shopper's orders (their own; an admin may ask for anyone's)",
    tag: 'orders',
    access: 'user',
    response: v.array(OrderHistoryWithRefundsSchema),
    refusals: [403],
    envelopeExtra: {
      message: v.pipe(v.string(), v.description("The same as sys_message, for the spec's client")),
    },
    query: v.object({
      email: EmailSchema(),
    }),
  }),
  myOrder: endpoint({
    method: 'GET',
    path: '/my-orders/{id}',
    summary:
      "One of the shopper's own orders with the timeline of its statuses (no admin notes); ETag, so polling an unchanged order costs a 304",
    tag: 'orders',
    access: 'user',
    response: ShopperOrderSchema,
    params: v.object({ id: IdSchema }),
  }),
  cancelMyOrder: endpoint({
    method: 'POST',
    path: '/my-orders/{id}/cancel',
    summary:
      "The shopper cancels their own order (domain/order-cancel.ts: until cancelHoursBeforeSlot hours before its slot, or within 15 minutes of ordering), refunded in full if paid online; Idempotency-Key header. Already cancelled: the order as it is. Too late: 409 {reason: 'cancel-closed', why}",
    tag: 'orders',
    access: 'user',
    response: ShopperOrderSchema,
    params: v.object({ id: IdSchema }),
    refusals: [404, 409],
  }),
  allUsersOrderHistory: endpoint({
    method: 'GET',
    path: '/GetAllUsersOrderHistory',
    summary: "Every user's orders (admin)",
    tag: 'orders',
    access: 'admin',
    response: v.array(AdminOrderHistoryRowSchema),
  }),
  updateOrderStatus: endpoint({
    method: 'PUT',
    path: '/orders/{id}/status',
    summary: "Move an order along its statuses (admin); cancelling frees the order's coupon",
    tag: 'orders',
    access: 'admin',
    response: v.object({ orderID: int, status: OrderStatusSchema }),
    refusals: [409],
    params: v.object({ id: IdSchema }),
    body: OrderStatusUpdateSchema,
  }),
} as const;
