/**
 * The products and orders as the admin area reads them: the list rows, an order's page with its
 * timeline, and the new-order notifications. The API serializes its answers through these
 * schemas, and the types are inferred from them.
 */
import * as v from 'valibot';
import { pagedSchema } from './admin-queries.js';
import { CategorySchema, ProductImageSchema } from './catalogue.js';
import { orderGiftEntries } from './gifts.js';
import { OrderLineSchema, OrderStatusSchema } from './orders.js';
import { PaymentMethodSchema } from './payment-methods.js';
import { plainText as textOf } from './plain-text.js';
import { OrderPaymentSchema } from './refunds.js';
import { OrderSlotSchema } from './slots.js';

const int = v.pipe(v.number(), v.integer());

export const AdminProductRowSchema = v.object({
  productID: int,
  title: v.string(),
  /** Plain text of the description, cut to a table cell's length. */
  description: v.pipe(
    v.string(),
    v.description("Plain text of the description, cut to a table cell's length"),
  ),
  price: int,
  sizeOrWeight: v.string(),
  categories: v.array(CategorySchema),
  images: v.array(ProductImageSchema),
});
export type AdminProductRow = v.InferOutput<typeof AdminProductRowSchema>;

export const AdminOrderSummarySchema = v.object({
  orderID: int,
  status: OrderStatusSchema,
  nextStatuses: v.array(OrderStatusSchema),
  userEmail: v.string(),
  customerName: v.string(),
  customerEmail: v.string(),
  customerPhone: v.string(),
  /** The street: the recipient's for a gift, as the city, state and PIN. */
  customerAddress: v.string(),
  city: v.string(),
  state: v.string(),
  pincode: v.string(),
  subtotal: int,
  deliveryCharge: int,
  discount: int,
  /** The coupon the order used (null: none); `discount` is what it took off. */
  couponCode: v.optional(v.nullable(v.string())),
  totalAmount: int,
  /** As stored ("Razorpay"); screens and the CSV say it with paymentMethodLabel ("Paid online"). */
  paymentMethod: PaymentMethodSchema,
  orderDate: v.string(),
  deliveryDate: v.string(),
  deliverySlot: v.nullable(OrderSlotSchema),
  slotCharge: int,
  /** Rupees refunded so far (pending or processed refunds); absent for an order with none. */
  refunded: v.optional(int),
  items: v.array(
    v.object({
      /** The line's name with its option: "Chocolate Truffle Delight (Weight: 1 kg)". */
      productName: v.string(),
      productTitle: v.string(),
      variationName: v.nullable(v.string()),
      /** The size to make ("1 kg"); '' for none; null: an old order did not record it. */
      variationValue: v.nullable(v.string()),
      unitPrice: int,
      quantity: int,
      productImage: v.string(),
      /** The message on the cake; null when none. */
      cakeMessage: v.nullable(v.string()),
      /** The photo to print on a photo cake; null when none. */
      photoID: v.nullable(v.string()),
    }),
  ),
  /** Who receives it and the surprise choices. */
  ...orderGiftEntries,
});
export type AdminOrderSummary = v.InferOutput<typeof AdminOrderSummarySchema>;

export const StatusChangeSchema = v.object({
  from: v.nullable(OrderStatusSchema),
  to: OrderStatusSchema,
  /** Who made it: the admin's email, or "customer" for the order itself and "payment" for a verified payment. */
  by: v.pipe(
    v.string(),
    v.description('The admin\'s email, "customer" for the order itself, "payment" for a verified payment'),
  ),
  at: v.string(),
  note: v.string(),
});
export type StatusChange = v.InferOutput<typeof StatusChangeSchema>;

export const AdminOrderDetailSchema = v.object({
  ...AdminOrderSummarySchema.entries,
  couponCode: v.nullable(v.string()),
  paymentId: v.nullable(v.string()),
  providerOrderId: v.nullable(v.string()),
  lines: v.array(OrderLineSchema),
  timeline: v.array(StatusChangeSchema),
  /** The account that placed it, and how many of its orders are unpaid and open (what the bulk cancel would cancel). */
  userID: int,
  accountUnpaidOpen: int,
  /** The most of those booked for one delivery date: above 1, the page offers the one-step cancel. */
  accountUnpaidOnOneDate: int,
  /** Its online payment with the refunds made on it; null for Cash on Delivery. */
  payment: v.nullable(OrderPaymentSchema),
});
export type AdminOrderDetail = v.InferOutput<typeof AdminOrderDetailSchema>;

/**
 * The account an orders search names by its exact email, with its unpaid open orders (what the
 * bulk cancel would cancel) and the most of them on one delivery date.
 */
export const SearchedAccountSchema = v.object({
  userID: int,
  email: v.string(),
  unpaidOpen: int,
  unpaidOnOneDate: int,
});
export type SearchedAccount = v.InferOutput<typeof SearchedAccountSchema>;

/** A page of the orders list; `account` when the search is one account's exact email, else null. */
export const AdminOrdersPageSchema = v.object({
  ...pagedSchema(AdminOrderSummarySchema).entries,
  /** How many packing slips these filters print: the orders among them not cancelled. */
  slips: int,
  account: v.nullable(SearchedAccountSchema),
});
export type AdminOrdersPage = v.InferOutput<typeof AdminOrdersPageSchema>;

export const AdminNotificationsSchema = v.object({
  /** Server time of this answer: the next "since". */
  now: v.pipe(int, v.description('Server time of this answer (ms): the next "since"')),
  count: int,
  orders: v.array(
    v.object({ orderID: int, customerName: v.string(), totalAmount: int, orderDate: v.string() }),
  ),
});
export type AdminNotifications = v.InferOutput<typeof AdminNotificationsSchema>;

/** Text of an HTML description for a table cell: tags out, entities read, cut at `max`. */
export function plainText(html: string, max = 120): string {
  const text = textOf(html);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
