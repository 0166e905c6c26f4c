/** The admin area's order reads: pages of orders and packing slips, one order, an account's unpaid orders. */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type {
  AdminOrderDetail,
  AdminOrderSummary,
  SearchedAccount,
  StatusChange,
} from '../../domain/admin-answers.js';
import { UNPAID_OPEN_STATUSES } from '../../domain/admin-edits.js';
import type { AdminOrdersQuery, PackingSlipsQuery, Paged } from '../../domain/admin-queries.js';
import type { PackingSlip } from '../../domain/gifts.contract.js';
import { indiaDateStart } from '../../domain/india-time.js';
import { orderLineLabel } from '../../domain/order-lines.js';
import { NEXT_STATUSES, type OrderStatus, PACKED_STATUSES } from '../../domain/orders.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import { refundedSoFar } from '../../domain/refunds.js';
import type { Database } from '../db/schema.js';
import { packingSlips } from '../gifts/packing-slip.js';
import {
  GIFT_COLUMNS,
  linesOfOrders,
  orderGiftOf,
  orderLines,
  orderSlotOf,
} from '../orders/order.repository.js';
import { adminRefund, refundsOfOrders } from '../payments/refund.repository.js';
import { orderPayment } from '../payments/refunds.service.js';
import { containsPattern } from './admin-products.repository.js';

type Db = Kysely<Database>;
const DAY_MS = 24 * 60 * 60 * 1000;
const num = (x: unknown) => Number(x ?? 0);

function orderFilters(db: Db, query: Omit<AdminOrdersQuery, 'page' | 'pageSize' | 'sort'>) {
  let base = db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id');
  if (query.status) base = base.where('orders.status', '=', query.status);
  if (query.from) base = base.where('orders.created_at', '>=', indiaDateStart(query.from));
  if (query.to) base = base.where('orders.created_at', '<', indiaDateStart(query.to) + DAY_MS);
  if (query.deliveryDate) base = base.where('orders.delivery_date', '=', query.deliveryDate);
  if (query.slotId !== undefined) base = base.where('orders.slot_id', '=', query.slotId);
  if (query.q) {
    const q = query.q.replace(/^#/, '');
    const pattern = containsPattern(q);
    const id = /^\d{1,9}$/.test(q) ? Number(q) : null;
    base = base.where((eb) =>
      eb.or([
        ...(id !== null ? [eb('orders.id', '=', id)] : []),
        eb(sql`lower(orders.customer_email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`orders.customer_phone`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return base;
}

export const SUMMARY_COLUMNS = [
  'orders.id',
  'orders.status',
  'orders.customer_name',
  'orders.customer_email',
  'orders.customer_phone',
  'orders.customer_address',
  'orders.city',
  'orders.state',
  'orders.pincode',
  'orders.subtotal',
  'orders.delivery_charge',
  'orders.discount',
  'orders.coupon_code',
  'orders.total',
  'orders.payment_method',
  'orders.created_at',
  'orders.delivery_date',
  'orders.slot_id',
  'orders.slot_name',
  'orders.slot_start',
  'orders.slot_end',
  'orders.slot_charge',
  ...GIFT_COLUMNS,
  'users.email as user_email',
] as const;

export type SummaryRow = {
  id: number;
  status: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  customer_address: string;
  city: string;
  state: string;
  pincode: string;
  subtotal: number;
  delivery_charge: number;
  discount: number;
  coupon_code: string | null;
  total: number;
  payment_method: string;
  created_at: number;
  delivery_date: string;
  slot_id: number | null;
  slot_name: string | null;
  slot_start: number | null;
  slot_end: number | null;
  slot_charge: number;
  recipient_name: string | null;
  recipient_phone: string | null;
  hide_price: number;
  hide_sender: number;
  card_occasion: string | null;
  card_message: string | null;
  user_email: string;
};

export async function summaries(db: Db, rows: SummaryRow[]): Promise<AdminOrderSummary[]> {
  const ids = rows.map((r) => r.id);
  const [linesOf, refundsOf] = await Promise.all([linesOfOrders(db, ids), refundsOfOrders(db, ids)]);
  return rows.map((r) => {
    const refunds = refundsOf.get(r.id);
    const status = r.status as OrderStatus;
    return {
      orderID: r.id,
      status,
      nextStatuses: [...NEXT_STATUSES[status]],
      userEmail: r.user_email,
      customerName: r.customer_name,
      customerEmail: r.customer_email,
      customerPhone: r.customer_phone,
      customerAddress: r.customer_address,
      city: r.city,
      state: r.state,
      pincode: r.pincode,
      subtotal: num(r.subtotal),
      deliveryCharge: num(r.delivery_charge),
      discount: num(r.discount),
      couponCode: r.coupon_code,
      totalAmount: num(r.total),
      paymentMethod: r.payment_method as PaymentMethod,
      orderDate: new Date(num(r.created_at)).toISOString(),
      deliveryDate: r.delivery_date,
      deliverySlot: orderSlotOf(r),
      slotCharge: num(r.slot_charge),
      // Rupees given back (pending or processed), for the list and its CSV; absent when none.
      ...(refunds ? { refunded: refundedSoFar(refunds.map(adminRefund)) } : {}),
      items: (linesOf.get(r.id) ?? []).map((l) => ({
        productName: orderLineLabel(l),
        productTitle: l.productName,
        variationName: l.variationName,
        variationValue: l.variationValue,
        unitPrice: l.unitPrice,
        quantity: l.quantity,
        productImage: l.productImage,
        cakeMessage: l.cakeMessage,
        photoID: l.photoID,
      })),
      ...orderGiftOf(r),
    };
  });
}

/** The packing order: the day's deliveries by when their window opens, then as they came in. */
function inPackingOrder<Q extends SelectQueryBuilder<Database, 'orders' | 'users', object>>(q: Q): Q {
  return q
    .orderBy('orders.delivery_date', 'asc')
    .orderBy('orders.slot_start', 'asc')
    .orderBy('orders.slot_end', 'asc')
    .orderBy('orders.id', 'asc') as Q;
}

export async function orderPage(
  db: Db,
  query: AdminOrdersQuery,
): Promise<Paged<AdminOrderSummary> & { slips: number }> {
  const base = orderFilters(db, query);
  const counted = await base
    .select((eb) => [
      eb.fn.countAll().as('n'),
      // The slips these filters print (the print button says how many): the orders not cancelled.
      eb.fn
        .count(
          eb
            .case()
            .when('orders.status', 'in', [...PACKED_STATUSES])
            .then(1)
            .end(),
        )
        .as('packed'),
    ])
    .executeTakeFirst();
  let ordered = base.select([...SUMMARY_COLUMNS]);
  if (query.sort === 'slot') ordered = inPackingOrder(ordered);
  else ordered = ordered.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc');
  const rows = await ordered
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return {
    items: await summaries(db, rows as SummaryRow[]),
    total: num(counted?.n),
    slips: num(counted?.packed),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The slips of the orders the list's filters select that will be delivered (never a cancelled
 * one, whatever the status filter), a page at a time, in the packing order.
 */
export async function packingSlipPage(db: Db, query: PackingSlipsQuery): Promise<Paged<PackingSlip>> {
  const base = orderFilters(db, query).where('orders.status', 'in', [...PACKED_STATUSES]);
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await inPackingOrder(base.selectAll('orders'))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return {
    items: await packingSlips(db, rows),
    total: num(counted?.n),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function orderDetail(db: Db, id: number): Promise<AdminOrderDetail | null> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select([
      ...SUMMARY_COLUMNS,
      'orders.coupon_code',
      'orders.payment_id',
      'orders.provider_order_id',
      'orders.user_id',
    ])
    .where('orders.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const [summary] = await summaries(db, [row as SummaryRow]);
  if (!summary) return null;
  const [lines, history] = await Promise.all([
    orderLines(db, id),
    db
      .selectFrom('order_status_history')
      .select(['from_status', 'to_status', 'changed_by_email', 'note', 'created_at'])
      .where('order_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const first = (history[0]?.from_status ?? summary.status) as OrderStatus;
  const timeline: StatusChange[] = [
    // The order's first status is its own creation: made by the customer (paid: by a verified payment).
    { from: null, to: first, by: row.user_email, at: summary.orderDate, note: '' },
    ...history.map((h) => ({
      from: h.from_status as OrderStatus,
      to: h.to_status as OrderStatus,
      by: h.changed_by_email,
      at: new Date(num(h.created_at)).toISOString(),
      note: h.note,
    })),
  ];
  const unpaid = await unpaidOf(db, row.user_id);
  return {
    ...summary,
    couponCode: row.coupon_code,
    paymentId: row.payment_id,
    providerOrderId: row.provider_order_id,
    payment: await orderPayment(db, id),
    lines,
    timeline,
    userID: row.user_id,
    accountUnpaidOpen: unpaid.unpaidOpen,
    accountUnpaidOnOneDate: unpaid.unpaidOnOneDate,
  };
}

/**
 * An account's unpaid open orders: how many, and the most of them booked for one delivery date
 * (the hoarding the one-step cancel is for), in one query.
 */
async function unpaidOf(db: Db, userId: number): Promise<{ unpaidOpen: number; unpaidOnOneDate: number }> {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => ['delivery_date', eb.fn.countAll().as('n')])
    .where('user_id', '=', userId)
    .where('payment_id', 'is', null)
    .where('status', 'in', [...UNPAID_OPEN_STATUSES])
    .groupBy('delivery_date')
    .execute();
  const counts = rows.map((r) => num(r.n));
  return { unpaidOpen: counts.reduce((a, b) => a + b, 0), unpaidOnOneDate: Math.max(0, ...counts) };
}

/** The ids of an account's orders that are unpaid (no verified payment) and can still be cancelled, oldest first. */
export async function unpaidOpenOrders(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('payment_id', 'is', null)
    .where('status', 'in', [...UNPAID_OPEN_STATUSES])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The account an orders search names by its exact email (the shopper's login), with how many of its
 * orders are unpaid and open: the list then offers to cancel them in one step. A partial email, an
 * order id or a phone names no account.
 */
export async function searchedAccount(db: Db, q: string | undefined): Promise<SearchedAccount | null> {
  const email = q?.trim().toLowerCase();
  if (!email?.includes('@')) return null;
  const user = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user) return null;
  return { userID: user.id, email: user.email, ...(await unpaidOf(db, user.id)) };
}

export async function userExists(db: Db, userId: number): Promise<boolean> {
  return Boolean(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
}
