import * as v from 'valibot';
import {
  type AdminNotifications,
  type AdminOrderDetail,
  type AdminOrderSummary,
  AdminOrdersQuerySchema,
  type AdminProductRow,
  AdminProductsQuerySchema,
  AdminStatusUpdateSchema,
  BulkDeleteSchema,
  type Dashboard,
  NotificationsQuerySchema,
  type Paged,
  RenameCategorySchema,
  type StatusChange,
} from './admin.js';
import type { Category, Product } from './catalogue.js';
import { endpoint } from './contract.js';
import type { OrderStatus } from './orders.js';
import { IdSchema } from './validation.js';

/**
 * The admin area's own endpoints (issue 12), beside the spec's admin calls
 * (AddCategory, AddProductForDash, UpdateProductDetails, ...), which stay as
 * they are. Everything here is admin-only.
 */
const tag = 'Admin';
const IdParams = v.object({ id: IdSchema });

export const adminApi = {
  dashboard: endpoint<Dashboard>()({
    method: 'GET',
    path: '/admin/dashboard',
    summary:
      "The dashboard's figures: today, 7 and 30 days, waiting orders, counts, 14-day revenue, latest orders, best sellers",
    tag,
    access: 'admin',
  }),
  products: endpoint<Paged<AdminProductRow>>()({
    method: 'GET',
    path: '/admin/products',
    summary: 'A page of live products, searched (title or id), filtered by category and sorted on the server',
    tag,
    access: 'admin',
    query: AdminProductsQuerySchema,
  }),
  deleteProducts: endpoint<{ deleted: number[] }>()({
    method: 'POST',
    path: '/admin/products/delete',
    summary: 'Delete several products at once (all or none)',
    tag,
    access: 'admin',
    body: BulkDeleteSchema,
  }),
  productImages: endpoint<Product>()({
    method: 'PUT',
    path: '/admin/products/{id}/images',
    summary:
      'Replace the images of a product (multipart: order = JSON list of {src} kept or {file: n} for the n-th uploaded "images" part; the first is the main picture)',
    tag,
    access: 'admin',
    params: IdParams,
  }),
  renameCategory: endpoint<Category>()({
    method: 'PUT',
    path: '/admin/categories/{id}',
    summary: 'Rename a category ({CategoryName}); a name already in use is a 409',
    tag,
    access: 'admin',
    params: IdParams,
    body: RenameCategorySchema,
  }),
  orders: endpoint<Paged<AdminOrderSummary>>()({
    method: 'GET',
    path: '/admin/orders',
    summary:
      'A page of orders, newest first, filtered by status and India dates, searched by order id, email or phone',
    tag,
    access: 'admin',
    query: AdminOrdersQuerySchema,
  }),
  order: endpoint<AdminOrderDetail>()({
    method: 'GET',
    path: '/admin/orders/{id}',
    summary: 'One order: lines, customer, payment and the timeline of its statuses',
    tag,
    access: 'admin',
    params: IdParams,
  }),
  moveOrder: endpoint<{ orderID: number; status: OrderStatus; change: StatusChange }>()({
    method: 'PUT',
    path: '/admin/orders/{id}/status',
    summary: "Move an order to one of its next statuses with an optional note (kept in the order's timeline)",
    tag,
    access: 'admin',
    params: IdParams,
    body: AdminStatusUpdateSchema,
  }),
  notifications: endpoint<AdminNotifications>()({
    method: 'GET',
    path: '/admin/notifications',
    summary: 'Orders placed since a time (ms): the count and the latest ten',
    tag,
    access: 'admin',
    query: NotificationsQuerySchema,
  }),
} as const;
