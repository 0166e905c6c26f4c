/**
 * The admin area's own endpoints, beside the spec's admin calls
 * (AddCategory, AddProductForDash, UpdateProductDetails, ...), which stay as
 * they are. Everything here is admin-only.
 */
import * as v from 'valibot';
import {
  AdminNotificationsSchema,
  AdminOrderDetailSchema,
  AdminOrdersPageSchema,
  AdminProductRowSchema,
  StatusChangeSchema,
} from './admin-answers.js';
import { DashboardSchema } from './admin-dashboard.js';
import {
  AdminStatusUpdateSchema,
  BulkDeleteSchema,
  CancelUnpaidAnswerSchema,
  CancelUnpaidSchema,
  RenameCategorySchema,
} from './admin-edits.js';
import {
  NewOrderAlertsAnswerSchema,
  NewOrderAlertsSchema,
  NewOrderAlertsStateSchema,
  OrderChangesQuerySchema,
  OrderChangesSchema,
} from './admin-live.js';
import {
  AdminOrdersQuerySchema,
  AdminProductsQuerySchema,
  NotificationsQuerySchema,
  PackingSlipsQuerySchema,
  pagedSchema,
} from './admin-queries.js';
import { CategorySchema, ProductSchema } from './catalogue.js';
import { endpoint } from './contract.js';
import { PackingSlipSchema } from './gifts.contract.js';
import { OrderStatusSchema } from './orders.js';
import { IdSchema } from './validation.js';

const tag = 'Admin';
const IdParams = v.object({ id: IdSchema });
const int = v.pipe(v.number(), v.integer());

export const adminApi = {
  dashboard: endpoint({
    method: 'GET',
    path: '/admin/dashboard',
    summary:
      "The dashboard's figures: today, 7 and 30 days, waiting orders, counts, 14-day revenue, latest orders, best sellers",
    tag,
    access: 'admin',
    response: DashboardSchema,
  }),
  products: endpoint({
    method: 'GET',
    path: '/admin/products',
    summary: 'A page of live products, searched (title or id), filtered by category and sorted on the server',
    tag,
    access: 'admin',
    response: pagedSchema(AdminProductRowSchema),
    query: AdminProductsQuerySchema,
  }),
  deleteProducts: endpoint({
    method: 'POST',
    path: '/admin/products/delete',
    summary: 'Delete several products at once (all or none)',
    tag,
    access: 'admin',
    response: v.object({ deleted: v.array(int) }),
    refusals: [404],
    body: BulkDeleteSchema,
  }),
  productImages: endpoint({
    method: 'PUT',
    path: '/admin/products/{id}/images',
    summary:
      'Replace the images of a product (multipart: order = JSON list of {src} kept or {file: n} for the n-th uploaded "images" part; the first is the main picture)',
    tag,
    access: 'admin',
    response: ProductSchema,
    refusals: [413, 415],
    params: IdParams,
  }),
  renameCategory: endpoint({
    method: 'PUT',
    path: '/admin/categories/{id}',
    summary: 'Rename a category ({CategoryName}); a name already in use is a 409',
    tag,
    access: 'admin',
    response: CategorySchema,
    refusals: [409],
    params: IdParams,
    body: RenameCategorySchema,
  }),
  orders: endpoint({
    method: 'GET',
    path: '/admin/orders',
    summary:
      'A page of orders, newest first, filtered by status and India dates, searched by order id, email or phone',
    tag,
    access: 'admin',
    response: AdminOrdersPageSchema,
    query: AdminOrdersQuerySchema,
  }),
  order: endpoint({
    method: 'GET',
    path: '/admin/orders/{id}',
    summary: 'One order: lines, customer, payment and the timeline of its statuses',
    tag,
    access: 'admin',
    response: AdminOrderDetailSchema,
    params: IdParams,
  }),
  packingSlips: endpoint({
    method: 'GET',
    path: '/admin/packing-slips',
    summary:
      "The packing slips of the orders the list's filters select that will be delivered (never a cancelled one, whatever the status filter), in the packing order (delivery date, then the slot's window, then order id), each as GET /admin/orders/{id}/packing-slip answers it",
    tag,
    access: 'admin',
    response: pagedSchema(PackingSlipSchema),
    query: PackingSlipsQuerySchema,
  }),
  moveOrder: endpoint({
    method: 'PUT',
    path: '/admin/orders/{id}/status',
    summary: "Move an order to one of its next statuses with an optional note (kept in the order's timeline)",
    tag,
    access: 'admin',
    response: v.object({ orderID: int, status: OrderStatusSchema, change: StatusChangeSchema }),
    refusals: [409],
    params: IdParams,
    body: AdminStatusUpdateSchema,
  }),
  cancelUnpaidOrders: endpoint({
    method: 'POST',
    path: '/admin/orders/cancel-unpaid',
    summary:
      "Cancel every unpaid open order of one account ({userID, note}): each through the same status move as one cancel, so slot places and coupons are given back and the shopper's devices hear of it",
    tag,
    access: 'admin',
    response: CancelUnpaidAnswerSchema,
    refusals: [404],
    body: CancelUnpaidSchema,
  }),
  notifications: endpoint({
    method: 'GET',
    path: '/admin/notifications',
    summary: 'Orders placed since a time (ms): the count and the latest ten',
    tag,
    access: 'admin',
    response: AdminNotificationsSchema,
    query: NotificationsQuerySchema,
  }),
  orderChanges: endpoint({
    method: 'GET',
    path: '/admin/order-changes',
    summary:
      'Orders placed or moved since a time (ms), for the open orders list and dashboard; answers 304 with the ETag of an unchanged answer',
    tag,
    access: 'admin',
    response: OrderChangesSchema,
    query: OrderChangesQuerySchema,
  }),
  newOrderAlertsState: endpoint({
    method: 'GET',
    path: '/admin/new-order-alerts',
    summary:
      "What a device needs to sign up for new-order notifications (the shop's VAPID public key), and how many of the admin's devices hear of new orders",
    tag,
    access: 'admin',
    response: NewOrderAlertsStateSchema,
  }),
  newOrderAlerts: endpoint({
    method: 'PUT',
    path: '/admin/new-order-alerts',
    summary:
      "Turn new-order notifications on or off on one of the admin's devices, by its push endpoint; on, with the subscription's keys, the subscription is checked and kept as POST /push/subscriptions keeps it (422 not a known push service, 429 too many new devices); 404 when the admin has no such device",
    tag,
    access: 'admin',
    response: NewOrderAlertsAnswerSchema,
    refusals: [404, 422, 429],
    body: NewOrderAlertsSchema,
  }),
} as const;
