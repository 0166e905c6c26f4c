/**
 * The shopper's own order with its timeline, and the versions its ETags are made of.
 * Every query is filtered by the owner's id: another account's order reads as a missing one.
 * The history's `note` and `changed_by_email` are never selected: they are the shop's own.
 */
import type { Kysely } from 'kysely';
import type { OrderStep, ShopperOrder } from '../../domain/order-tracking.js';
import type { OrderStatus } from '../../domain/orders.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import type { Database } from '../db/schema.js';
import { refundsOfOrders, shopperRefund } from '../payments/refund.repository.js';
import { orderGiftOf, orderLines, orderSlotOf } from './order.repository.js';

type Db = Kysely<Database>;

const num = (x: unknown) => Number(x ?? 0);

/**
 * When the order last changed (a status move sets `updated_at`; a refund made or moved sets its
 * own), or null when it is not the user's: a refund processed days after the cancel changes the
 * ETag, so the shopper's page is not answered 304 with the old refund line.
 */
export async function orderVersion(db: Db, userId: number, orderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => [
      'orders.updated_at',
      eb
        .selectFrom('refunds')
        .select((r) => r.fn.max('refunds.updated_at').as('m'))
        .whereRef('refunds.order_id', '=', 'orders.id')
        .as('refunded_at'),
    ])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Math.max(num(row.updated_at), num(row.refunded_at)) : null;
}

/** How many orders the email's account has and when the latest change was (refunds too): My Orders' ETag. */
export async function historyVersion(db: Db, email: string): Promise<string> {
  const [row, refunds] = await Promise.all([
    db
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('orders.updated_at').as('latest')])
      .where('users.email', '=', email)
      .executeTakeFirst(),
    db
      .selectFrom('refunds')
      .innerJoin('orders', 'orders.id', 'refunds.order_id')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('refunds.updated_at').as('latest')])
      .where('users.email', '=', email)
      .executeTakeFirst(),
  ]);
  const base = `${num(row?.n)}-${num(row?.latest)}`;
  return num(refunds?.n) ? `${base}-r${num(refunds?.n)}-${num(refunds?.latest)}` : base;
}

export async function shopperOrder(db: Db, userId: number, orderId: number): Promise<ShopperOrder | null> {
  const o = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!o) return null;
  const [lines, moves, refunds] = await Promise.all([
    orderLines(db, orderId),
    db
      .selectFrom('order_status_history')
      .select(['from_status', 'to_status', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    refundsOfOrders(db, [orderId]),
  ]);
  const orderDate = new Date(num(o.created_at)).toISOString();
  // The first status is the order's own creation (placed, or paid by a verified payment).
  const first = (moves[0]?.from_status ?? o.status) as OrderStatus;
  const timeline: OrderStep[] = [
    { status: first, at: orderDate },
    ...moves.map((m) => ({
      status: m.to_status as OrderStatus,
      at: new Date(num(m.created_at)).toISOString(),
    })),
  ];
  return {
    orderID: o.id,
    status: o.status as OrderStatus,
    orderDate,
    deliveryDate: o.delivery_date,
    deliverySlot: orderSlotOf(o),
    customerName: o.customer_name,
    customerPhone: o.customer_phone,
    customerAddress: o.customer_address,
    state: o.state,
    city: o.city,
    pincode: o.pincode,
    paymentMethod: o.payment_method as PaymentMethod,
    subtotal: num(o.subtotal),
    deliveryCharge: num(o.delivery_charge),
    slotCharge: num(o.slot_charge),
    discount: num(o.discount),
    couponCode: o.coupon_code,
    totalAmount: num(o.total),
    lines,
    timeline,
    refunds: (refunds.get(orderId) ?? []).map(shopperRefund),
    ...orderGiftOf(o),
  };
}
