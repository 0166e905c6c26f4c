import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import {
  type AdminNotifications,
  type AdminOrderDetail,
  type AdminOrderSummary,
  type AdminProductRow,
  plainText,
  type StatusChange,
} from '../../domain/admin-answers.js';
import {
  type Dashboard,
  fillSeries,
  REVENUE_STATUSES,
  WAITING_STATUSES,
} from '../../domain/admin-dashboard.js';
import { UNPAID_OPEN_STATUSES } from '../../domain/admin-edits.js';
import type {
  AdminOrdersQuery,
  AdminProductsQuery,
  PackingSlipsQuery,
  Paged,
} from '../../domain/admin-queries.js';
import type { PackingSlip } from '../../domain/gifts.contract.js';
import {
  INDIA_OFFSET_MINUTES,
  indiaDate,
  indiaDateStart,
  indiaDayStart,
  todayAndTomorrow,
} from '../../domain/india-time.js';
import { orderLineLabel } from '../../domain/order-lines.js';
import { NEXT_STATUSES, type OrderStatus } from '../../domain/orders.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import { sortSlots } from '../../domain/slots.js';
import type { Database } from '../db/schema.js';
import { packingSlips } from '../gifts/packing-slip.js';
import { imageOf } from '../images/images.js';
import {
  GIFT_COLUMNS,
  linesOfOrders,
  orderGiftOf,
  orderLines,
  orderSlotOf,
} from '../orders/order.repository.js';
import { bookedCounts, listClosures, listSlots } from '../slots/slot.repository.js';

/**
 * The admin area's reads, in SQL that runs the same on SQLite and PostgreSQL:
 * figures are summed by the database (never by loading every order), pages
 * are cut by the database (limit/offset after a count), and a page's
 * categories, images and lines come in one query each.
 */
type Db = Kysely<Database>;
const DAY_MS = 24 * 60 * 60 * 1000;
const num = (x: unknown) => Number(x ?? 0);

// ------------------------------------------------------------------ products

/** `%text%` for LIKE, with the pattern's own wildcards taken literally. */
function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function productPage(db: Db, query: AdminProductsQuery): Promise<Paged<AdminProductRow>> {
  let base = db.selectFrom('products').where('products.deleted_at', 'is', null);
  if (query.q) {
    const pattern = containsPattern(query.q);
    const id = /^\d{1,9}$/.test(query.q) ? Number(query.q) : null;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(products.title)`, 'like', sql`${pattern} escape '\\'`),
        ...(id !== null ? [eb('products.id', '=', id)] : []),
      ]),
    );
  }
  if (query.categoryId !== undefined) {
    const categoryId = query.categoryId;
    base = base.where('products.id', 'in', (eb) =>
      eb.selectFrom('product_categories').select('product_id').where('category_id', '=', categoryId),
    );
  }
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = num(counted?.n);
  let page = base.select([
    'products.id',
    'products.title',
    'products.description',
    'products.price',
    'products.size_or_weight',
  ]);
  switch (query.sort) {
    case 'oldest':
      page = page.orderBy('products.id', 'asc');
      break;
    case 'title':
      page = page.orderBy(sql`lower(products.title)`, 'asc').orderBy('products.id', 'asc');
      break;
    case 'price-asc':
      page = page.orderBy('products.price', 'asc').orderBy('products.id', 'asc');
      break;
    case 'price-desc':
      page = page.orderBy('products.price', 'desc').orderBy('products.id', 'desc');
      break;
    default:
      page = page.orderBy('products.id', 'desc');
  }
  const rows = await page
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const ids = rows.map((r) => r.id);
  const [links, images] = ids.length
    ? await Promise.all([
        db
          .selectFrom('product_categories')
          .innerJoin('categories', 'categories.id', 'product_categories.category_id')
          .select(['product_categories.product_id', 'categories.id', 'categories.name'])
          .where('product_categories.product_id', 'in', ids)
          .where('categories.deleted_at', 'is', null)
          .orderBy('categories.id')
          .execute(),
        db
          .selectFrom('product_images')
          .select(['product_id', 'file_stem', 'widths', 'width', 'height'])
          .where('product_id', 'in', ids)
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ])
    : [[], []];
  const items: AdminProductRow[] = rows.map((r) => ({
    productID: r.id,
    title: r.title,
    description: plainText(r.description),
    price: r.price,
    sizeOrWeight: r.size_or_weight,
    categories: links
      .filter((l) => l.product_id === r.id)
      .map((l) => ({ categoryID: l.id, categoryName: l.name })),
    images: images
      .filter((i) => i.product_id === r.id)
      .map((i) => imageOf(i.file_stem, i.widths, i.width, i.height)),
  }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}

// -------------------------------------------------------------------- orders

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

const SUMMARY_COLUMNS = [
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

type SummaryRow = {
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

async function summaries(db: Db, rows: SummaryRow[]): Promise<AdminOrderSummary[]> {
  const linesOf = await linesOfOrders(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
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
      totalAmount: num(r.total),
      paymentMethod: r.payment_method as PaymentMethod,
      orderDate: new Date(num(r.created_at)).toISOString(),
      deliveryDate: r.delivery_date,
      deliverySlot: orderSlotOf(r),
      slotCharge: num(r.slot_charge),
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

export async function orderPage(db: Db, query: AdminOrdersQuery): Promise<Paged<AdminOrderSummary>> {
  const base = orderFilters(db, query);
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
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
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The slips of the orders the list's filters select, a page at a time, in the packing order. */
export async function packingSlipPage(db: Db, query: PackingSlipsQuery): Promise<Paged<PackingSlip>> {
  const base = orderFilters(db, query);
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
  return {
    ...summary,
    couponCode: row.coupon_code,
    paymentId: row.payment_id,
    providerOrderId: row.provider_order_id,
    lines,
    timeline,
    userID: row.user_id,
    accountUnpaidOpen: (await unpaidOpenOrders(db, row.user_id)).length,
  };
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

export async function userExists(db: Db, userId: number): Promise<boolean> {
  return Boolean(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
}

// ----------------------------------------------------------------- dashboard

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

  const [windows, series, waiting, products, categories, best, latestRows, deliveries] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        since(today, 'one').as('orders_today'),
        since(today, 'total').as('revenue_today'),
        since(d7, 'one').as('orders_7'),
        since(d7, 'total').as('revenue_7'),
        since(d30, 'one').as('orders_30'),
        since(d30, 'total').as('revenue_30'),
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
  ]);
  const waitingBy = new Map(waiting.map((w) => [w.status, num(w.n)]));
  return {
    today: indiaDate(now),
    ordersToday: num(windows?.orders_today),
    revenueToday: num(windows?.revenue_today),
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

// ------------------------------------------------------------- notifications

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
