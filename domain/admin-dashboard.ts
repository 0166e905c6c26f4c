/** The admin dashboard's figures: what it answers, and the rules of its counts and its chart. */
import * as v from 'valibot';
import { AdminOrderSummarySchema } from './admin-answers.js';
import { dateOfIndiaDay, indiaDayNumber } from './india-time.js';
import { ORDER_STATUSES, type OrderStatus } from './orders.js';

const int = v.pipe(v.number(), v.integer());

export const DashboardSchema = v.object({
  /** India date the figures are for. */
  today: v.string(),
  ordersToday: int,
  revenueToday: int,
  orders7: int,
  revenue7: int,
  orders30: int,
  revenue30: int,
  /** Orders waiting for their next step, by status (placed, paid, confirmed, out for delivery). */
  waiting: v.object({ placed: int, paid: int, confirmed: int, 'out for delivery': int }),
  products: int,
  categories: int,
  /** 14 India days, oldest first, each with the revenue of non-cancelled orders. */
  series: v.array(v.object({ date: v.string(), revenue: int, orders: int })),
  latest: v.array(AdminOrderSummarySchema),
  /** Today's and tomorrow's deliveries by slot: orders booked (not cancelled) against capacity. */
  deliveries: v.array(
    v.object({
      date: v.string(),
      closed: v.nullable(v.string()),
      slots: v.array(
        v.object({
          slotID: int,
          name: v.string(),
          start: int,
          end: int,
          booked: int,
          capacity: v.nullable(int),
        }),
      ),
    }),
  ),
  bestSellers: v.array(v.object({ productID: int, productName: v.string(), quantity: int, revenue: int })),
  /**
   * Money kept right: payments taken with no order and no refund (stays 0: the webhook, the
   * reconciliation job and the refund of an unplaceable order see to it), refunds waiting for the
   * provider, refunds that failed (the admin retries them), and the last 30 days' refunds.
   */
  money: v.object({
    paymentsWithoutOrder: int,
    refundsPending: int,
    refundsFailed: int,
    refunds30: int,
    refunded30: int,
    /** The last 30 days' orders that count and used a coupon, and the rupees coupons took off them. */
    couponOrders30: int,
    discount30: int,
  }),
});
export type Dashboard = v.InferOutput<typeof DashboardSchema>;

/** Revenue counts every order that is not cancelled (a paid order cancelled is refunded: api/payments/README.md, "Refunds"). */
export const REVENUE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => s !== 'cancelled');

/** Fills the days with no orders so the chart always has 14 bars. */
export function fillSeries(
  rows: readonly { day: number; revenue: number; orders: number }[],
  now: number,
  days = 14,
): Dashboard['series'] {
  const today = indiaDayNumber(now);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: Dashboard['series'] = [];
  for (let d = today - days + 1; d <= today; d++) {
    const row = byDay.get(d);
    out.push({
      date: dateOfIndiaDay(d),
      revenue: row?.revenue ?? 0,
      orders: row?.orders ?? 0,
    });
  }
  return out;
}

/** Statuses still waiting for the shop's next step (the dashboard's "waiting" figures). */
export const WAITING_STATUSES = ['placed', 'paid', 'confirmed', 'out for delivery'] as const;
