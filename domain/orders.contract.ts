import * as v from 'valibot';
import { EmailSchema } from './accounts.js';
import { endpoint } from './contract.js';
import {
  type AdminOrderHistoryRow,
  CouponRequestSchema,
  type OrderHistoryRow,
  OrderRequestSchema,
  type OrderStatus,
  OrderStatusUpdateSchema,
  type PlacedOrder,
} from './orders.js';
import { IdSchema } from './validation.js';

/**
 * The order endpoints (spec section 7). `placeOrder` also reads the
 * `Idempotency-Key` header (see `api/orders/README.md`). `verifyCoupon`
 * answers `discountAmount` at the top level, as the spec's client reads it,
 * and inside `data`.
 */
export const ordersContract = {
  placeOrder: endpoint<PlacedOrder>()({
    method: 'POST',
    path: '/place-order',
    summary: 'Place an order (priced by the server; Idempotency-Key header makes retries safe)',
    tag: 'orders',
    access: 'user',
    body: OrderRequestSchema,
  }),
  verifyCoupon: endpoint<{ code: string; discountAmount: number }>()({
    method: 'POST',
    path: '/VerifyCoupon',
    summary: 'Check a coupon for the current account',
    tag: 'orders',
    access: 'user',
    body: CouponRequestSchema,
  }),
  orderHistoryByEmail: endpoint<OrderHistoryRow[]>()({
    method: 'GET',
    path: '/GetOrderHistoryByEmail',
    summary: "A shopper's orders (their own; an admin may ask for anyone's)",
    tag: 'orders',
    access: 'user',
    query: v.object({
      email: EmailSchema(),
    }),
  }),
  allUsersOrderHistory: endpoint<AdminOrderHistoryRow[]>()({
    method: 'GET',
    path: '/GetAllUsersOrderHistory',
    summary: "Every user's orders (admin)",
    tag: 'orders',
    access: 'admin',
  }),
  updateOrderStatus: endpoint<{ orderID: number; status: OrderStatus }>()({
    method: 'PUT',
    path: '/orders/{id}/status',
    summary: "Move an order along its statuses (admin); cancelling frees the order's coupon",
    tag: 'orders',
    access: 'admin',
    params: v.object({ id: IdSchema }),
    body: OrderStatusUpdateSchema,
  }),
} as const;
