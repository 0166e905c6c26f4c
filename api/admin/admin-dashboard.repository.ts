/** The admin area's figures: the dashboard and the bell's new orders. */
import { type Kysely, sql } from 'kysely';
import type { AdminNotifications } from '../../domain/admin-answers.js';
import {
  type Dashboard,
  fillSeries,
  REVENUE_STATUSES,
  WAITING_STATUSES,
} from '../../domain/admin-dashboard.js';
import { INDIA_OFFSET_MINUTES, indiaDate, indiaDayStart, todayAndTomorrow } from '../../domain/india-time.js';
import { fromPaise } from '../../domain/money.js';
import { sortSlots } from '../../domain/slots.js';
import type { Database } from '../db/schema.js';
import { moneyCounts } from '../payments/refund.repository.js';
import { bookedCounts, listClosures, listSlots } from '../slots/slot.repository.js';
import { SUMMARY_COLUMNS, type SummaryRow, summaries } from './admin-orders.repository.js';

type Db = Kysely<Database>;
const DAY_MS = 24 * 60 * 60 * 1000;
const num = (x: unknown) => Number(x ?? 0);

export async function dashboard(db: Db, now: number): Promise<Dashboard> {
  const today = indiaDayStart(now);
  const d7 = today - 6 * DAY_MS;
  const d30 = today - 29 * DAY_MS;
  const d14 = today - 13 * DAY_MS;
  const counting = [...REVENUE_STATUSES];
  const since = (from: number, what: 'one' | 'total') =>
    what === 'one'
      ? sql<string>`sum(case when orders.created_at >= ${from} then 1 else 0 end)`
      : sql<string>`sum(case when orders.created_at >= ${from} then orders.total else 0 end)`;
  // The India day of an order; constants are literals so both databases divide integers.
  const day = sql<number>`cast((orders.created_at + ${sql.lit(INDIA_OFFSET_MINUTES * 60 * 1000)}) / ${sql.lit(DAY_MS)} as integer)`;

  const [windows, series, waiting, products, categories, best, latestRows, deliveries, money] =
    await Promise.all([
      db
        .selectFrom('orders')
        .select([
          since(today, 'one').as('orders_today'),
          since(today, 'total').as('revenue_today'),
          since(d7, 'one').as('orders_7'),
          since(d7, 'total').as('revenue_7'),
          since(d30, 'one').as('orders_30'),
          since(d30, 'total').as('revenue_30'),
          sql<string>`sum(case when orders.coupon_code is not null then 1 else 0 end)`.as('coupon_orders_30'),
          (eb) => eb.fn.sum<string>('orders.discount').as('discount_30'),
        ])
        .where('orders.created_at', '>=', d30)
        .where('orders.status', 'in', counting)
        .executeTakeFirst(),
      db
        .selectFrom('orders')
        .select([
          day.as('day'),
          (eb) => eb.fn.sum<string>('orders.total').as('revenue'),
          (eb) => eb.fn.countAll<string>().as('orders'),
        ])
        .where('orders.created_at', '>=', d14)
        .where('orders.status', 'in', counting)
        .groupBy(day)
        .execute(),
      db
        .selectFrom('orders')
        .select(['orders.status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('orders.status', 'in', [...WAITING_STATUSES])
        .groupBy('orders.status')
        .execute(),
      db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
      db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
      db
        .selectFrom('order_items')
        .innerJoin('orders', 'orders.id', 'order_items.order_id')
        .select([
          'order_items.product_id',
          (eb) => eb.fn.max('order_items.product_name').as('product_name'),
          (eb) => eb.fn.sum<string>('order_items.quantity').as('quantity'),
          (eb) => eb.fn.sum<string>('order_items.line_total').as('revenue'),
        ])
        .where('orders.created_at', '>=', d30)
        .where('orders.status', 'in', counting)
        .groupBy('order_items.product_id')
        .orderBy(sql`sum(order_items.quantity)`, 'desc')
        .orderBy('order_items.product_id', 'asc')
        .limit(5)
        .execute(),
      db
        .selectFrom('orders')
        .innerJoin('users', 'users.id', 'orders.user_id')
        .select([...SUMMARY_COLUMNS])
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(5)
        .execute(),
      deliveriesBySlot(db, now),
      moneyCounts(db, now - 30 * DAY_MS),
    ]);
  const waitingBy = new Map(waiting.map((w) => [w.status, num(w.n)]));
  return {
    today: indiaDate(now),
    ordersToday: num(windows?.orders_today),
    revenueToday: num(windows?.revenue_today),
    money: {
      paymentsWithoutOrder: money.paymentsWithoutOrder,
      refundsPending: money.refundsPending,
      refundsFailed: money.refundsFailed,
      refunds30: money.refunds30,
      refunded30: fromPaise(money.refunded30Paise),
      couponOrders30: num(windows?.coupon_orders_30),
      discount30: num(windows?.discount_30),
    },
    orders7: num(windows?.orders_7),
    revenue7: num(windows?.revenue_7),
    orders30: num(windows?.orders_30),
    revenue30: num(windows?.revenue_30),
    waiting: {
      placed: waitingBy.get('placed') ?? 0,
      paid: waitingBy.get('paid') ?? 0,
      confirmed: waitingBy.get('confirmed') ?? 0,
      'out for delivery': waitingBy.get('out for delivery') ?? 0,
    },
    products: num(products?.n),
    categories: num(categories?.n),
    series: fillSeries(
      series.map((s) => ({ day: num(s.day), revenue: num(s.revenue), orders: num(s.orders) })),
      now,
    ),
    latest: await summaries(db, latestRows as SummaryRow[]),
    deliveries,
    bestSellers: best.map((b) => ({
      productID: b.product_id,
      productName: String(b.product_name),
      quantity: num(b.quantity),
      revenue: num(b.revenue),
    })),
  };
}

/**
 * Today's and tomorrow's deliveries by slot: each live slot with its orders (not cancelled)
 * against its capacity, and a retired slot only when orders still stand in it.
 */
async function deliveriesBySlot(db: Db, now: number): Promise<Dashboard['deliveries']> {
  const days = todayAndTomorrow(new Date(now));
  const [slots, closures, counts] = await Promise.all([
    listSlots(db, { retired: true }),
    listClosures(db, days[0]),
    bookedCounts(db, days),
  ]);
  return days.map((date) => ({
    date,
    closed: closures.find((c) => c.date === date)?.message ?? null,
    slots: sortSlots(slots)
      .map((s) => ({
        slotID: s.slotID,
        name: s.name,
        start: s.start,
        end: s.end,
        booked: counts.get(`${date}|${s.slotID}`) ?? 0,
        capacity: s.capacity,
        retired: s.retired,
      }))
      .filter((s) => !s.retired || s.booked > 0)
      .map(({ retired: _retired, ...s }) => s),
  }));
}

export async function newOrdersSince(db: Db, since: number, now: number): Promise<AdminNotifications> {
  const [counted, rows] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('created_at', '>', since)
      .executeTakeFirst(),
    db
      .selectFrom('orders')
      .select(['id', 'customer_name', 'total', 'created_at'])
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .execute(),
  ]);
  return {
    now,
    count: num(counted?.n),
    orders: rows.map((r) => ({
      orderID: r.id,
      customerName: r.customer_name,
      totalAmount: num(r.total),
      orderDate: new Date(num(r.created_at)).toISOString(),
    })),
  };
}
