/** SQL for orders and their lines. Rows stay here; handlers get the spec's shapes. */
import type { Kysely, Transaction } from 'kysely';
import { deliverToOf } from '../../domain/deliver-to.js';
import type { GiftCard, OrderGift, Recipient } from '../../domain/gifts.js';
import { orderLineLabel } from '../../domain/order-lines.js';
import type {
  AdminOrderHistoryRow,
  OrderHistoryRow,
  OrderLine,
  OrderStatus,
  OrderTotals,
} from '../../domain/orders.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import type { ShopperRefund } from '../../domain/refunds.js';
import { shopperSees } from '../../domain/refunds.js';
import type { DeliverySlot, OrderSlot } from '../../domain/slots.js';
import type { Database } from '../db/schema.js';
import { refundsOfOrders, shopperRefund } from '../payments/refund.repository.js';
import { queueNewOrderNotice } from '../push/new-orders.repository.js';
import type { PricedOrderLine } from './order.pricing.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface NewOrder {
  userId: number;
  idempotencyKey: string | null;
  status: OrderStatus;
  deliveryDate: string;
  slot: DeliverySlot;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  customerAddress: string;
  state: string;
  city: string;
  pincode: string;
  paymentMethod: PaymentMethod;
  totals: OrderTotals;
  couponCode: string | null;
  providerOrderId: string | null;
  paymentId: string | null;
  /** Gifts: null/false when the request named none. */
  recipient: Recipient | null;
  hidePrice: boolean;
  hideSender: boolean;
  card: GiftCard | null;
  now: number;
}

export async function insertOrder(db: Db, o: NewOrder, lines: readonly PricedOrderLine[]): Promise<number> {
  const { id } = await db
    .insertInto('orders')
    .values({
      user_id: o.userId,
      idempotency_key: o.idempotencyKey,
      status: o.status,
      delivery_date: o.deliveryDate,
      slot_id: o.slot.slotID,
      slot_name: o.slot.name,
      slot_start: o.slot.start,
      slot_end: o.slot.end,
      slot_charge: o.totals.slotCharge,
      customer_name: o.customerName,
      customer_email: o.customerEmail,
      customer_phone: o.customerPhone,
      customer_address: o.customerAddress,
      state: o.state,
      city: o.city,
      pincode: o.pincode,
      payment_method: o.paymentMethod,
      subtotal: o.totals.subtotal,
      delivery_charge: o.totals.deliveryCharge,
      discount: o.totals.discount,
      total: o.totals.total,
      coupon_code: o.couponCode,
      provider_order_id: o.providerOrderId,
      payment_id: o.paymentId,
      recipient_name: o.recipient?.Name ?? null,
      recipient_phone: o.recipient?.Phone ?? null,
      hide_price: o.hidePrice ? 1 : 0,
      hide_sender: o.hideSender ? 1 : 0,
      card_occasion: o.card?.Occasion ?? null,
      card_message: o.card ? o.card.Message : null,
      created_at: o.now,
      updated_at: o.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('order_items')
    .values(
      lines.map((l, position) => ({
        order_id: id,
        product_id: l.productID,
        variation_id: l.variationID,
        product_name: l.productName,
        variation_name: l.variationName,
        variation_value: l.variationValue ?? '',
        product_image: l.image,
        unit_price: l.unitPrice,
        quantity: l.quantity,
        line_total: l.lineTotal,
        position,
        cake_message: l.cakeMessage,
        photo_id: l.photoID,
      })),
    )
    .execute();
  // The admins who asked hear of it: queued with the order, sent after it commits (api/push).
  await queueNewOrderNotice(db, id, o);
  return id;
}

/** The order's gift columns, as every order answer selects them. */
export const GIFT_COLUMNS = [
  'orders.recipient_name',
  'orders.recipient_phone',
  'orders.hide_price',
  'orders.hide_sender',
  'orders.card_occasion',
  'orders.card_message',
] as const;

/** The gift choices of an order row. */
export function orderGiftOf(r: {
  recipient_name: string | null;
  recipient_phone: string | null;
  hide_price: number | string;
  hide_sender: number | string;
  card_occasion: string | null;
  card_message: string | null;
}): OrderGift {
  return {
    recipient:
      r.recipient_name !== null && r.recipient_phone !== null
        ? { name: r.recipient_name, phone: r.recipient_phone }
        : null,
    hidePrice: Number(r.hide_price) === 1,
    hideSender: Number(r.hide_sender) === 1,
    card: r.card_occasion !== null ? { occasion: r.card_occasion, message: r.card_message ?? '' } : null,
  };
}

function historyQuery(db: Db) {
  return db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .innerJoin('order_items', 'order_items.order_id', 'orders.id')
    .select([
      'orders.id as order_id',
      'orders.total',
      'orders.status',
      'orders.created_at',
      'orders.delivery_date',
      'orders.payment_method',
      'orders.slot_id',
      'orders.slot_name',
      'orders.slot_start',
      'orders.slot_end',
      'orders.slot_charge',
      'orders.customer_email',
      'orders.customer_phone',
      'orders.customer_address',
      'orders.customer_name',
      'orders.city',
      'orders.state',
      'orders.pincode',
      ...GIFT_COLUMNS,
      'users.email as user_email',
      'order_items.product_name',
      'order_items.variation_name',
      'order_items.variation_value',
      'order_items.product_image',
      'order_items.unit_price',
      'order_items.quantity',
      'order_items.cake_message',
      'order_items.photo_id',
    ])
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .orderBy('order_items.position', 'asc');
}

type HistoryRow = Awaited<ReturnType<ReturnType<typeof historyQuery>['execute']>>[number];

function toRow(r: HistoryRow): OrderHistoryRow {
  return {
    orderID: r.order_id,
    productName: orderLineLabel({
      productName: r.product_name,
      variationName: r.variation_name,
      variationValue: r.variation_value,
    }),
    productTitle: r.product_name,
    variationName: r.variation_name,
    variationValue: r.variation_value,
    unitPrice: Number(r.unit_price),
    productImage: r.product_image,
    quantity: r.quantity,
    totalAmount: r.total,
    orderDate: new Date(Number(r.created_at)).toISOString(),
    status: r.status as OrderStatus,
    deliveryDate: r.delivery_date,
    paymentMethod: r.payment_method as PaymentMethod,
    deliverySlot: orderSlotOf(r),
    slotCharge: Number(r.slot_charge),
    cakeMessage: r.cake_message,
    photoID: r.photo_id,
    ...orderGiftOf(r),
    deliverTo: deliverToOf({
      customerName: r.customer_name,
      customerPhone: r.customer_phone,
      customerAddress: r.customer_address,
      city: r.city,
      state: r.state,
      pincode: r.pincode,
      recipient: orderGiftOf(r).recipient,
    }),
  };
}

/** An order's slot as it was booked; null only for a row written outside the app. */
export function orderSlotOf(r: {
  slot_id: number | null;
  slot_name: string | null;
  slot_start: number | null;
  slot_end: number | null;
}): OrderSlot | null {
  if (r.slot_id === null || r.slot_name === null || r.slot_start === null || r.slot_end === null) return null;
  return { slotID: r.slot_id, name: r.slot_name, start: r.slot_start, end: r.slot_end };
}

/** One row per ordered product, newest order first (the spec's My Orders table). */
/** The shopper's rows; an order with refunds carries them on each of its rows, oldest first. */
export async function historyByEmail(
  db: Db,
  email: string,
): Promise<(OrderHistoryRow & { refunds?: ShopperRefund[] })[]> {
  const rows = await historyQuery(db).where('users.email', '=', email).execute();
  const refunds = await refundsOfOrders(
    db,
    rows.map((r) => r.order_id),
  );
  return rows.map((r) => {
    const row = toRow(r);
    const given = refunds.get(r.order_id);
    return given ? { ...row, refunds: given.filter(shopperSees).map(shopperRefund) } : row;
  });
}

export async function historyOfEveryone(db: Db): Promise<AdminOrderHistoryRow[]> {
  const rows = await historyQuery(db).execute();
  return rows.map((r) => ({
    ...toRow(r),
    userEmail: r.user_email,
    customerEmail: r.customer_email,
    customerPhone: r.customer_phone,
    customerAddress: r.customer_address,
  }));
}

export async function findOrderStatus(db: Db, orderId: number): Promise<OrderStatus | null> {
  const row = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirst();
  return row ? (row.status as OrderStatus) : null;
}

/** Moves the status only if nobody moved it meanwhile; false when they did. */
export async function moveStatus(
  db: Db,
  orderId: number,
  from: OrderStatus,
  to: OrderStatus,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set({ status: to, updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A placed order's lines, in the order they were placed (the admin's order page and the shopper's own). */
export async function orderLines(db: Kysely<Database>, orderId: number): Promise<OrderLine[]> {
  return (await linesOfOrders(db, [orderId])).get(orderId) ?? [];
}

/** The lines of these orders, each order's in the order they were placed, in one query (lists, slips). */
export async function linesOfOrders(
  db: Kysely<Database>,
  orderIds: readonly number[],
): Promise<Map<number, OrderLine[]>> {
  const byOrder = new Map<number, OrderLine[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('order_items')
    .select([
      'order_id',
      'product_id',
      'product_name',
      'variation_name',
      'variation_value',
      'product_image',
      'unit_price',
      'quantity',
      'line_total',
      'cake_message',
      'photo_id',
    ])
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  for (const l of rows) {
    const lines = byOrder.get(l.order_id) ?? [];
    byOrder.set(l.order_id, lines);
    lines.push({
      productID: l.product_id,
      productName: l.product_name,
      variationName: l.variation_name,
      variationValue: l.variation_value,
      productImage: l.product_image,
      unitPrice: Number(l.unit_price),
      quantity: l.quantity,
      lineTotal: Number(l.line_total),
      cakeMessage: l.cake_message,
      photoID: l.photo_id,
    });
  }
  return byOrder;
}
