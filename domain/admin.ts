import * as v from 'valibot';
import { AddCategorySchema, CategorySchema, isTypedText, LIMITS, ProductImageSchema } from './catalogue.js';
import { INDIA_OFFSET_MINUTES } from './delivery.js';
import { type OrderGift, orderGiftEntries } from './gifts.js';
import { kitchenLine } from './order-lines.js';
import {
  NEXT_STATUSES,
  ORDER_STATUSES,
  OrderLineSchema,
  type OrderStatus,
  OrderStatusSchema,
} from './orders.js';
import { PaymentMethodSchema, paymentMethodLabel } from './payment-methods.js';
import { plainText as textOf } from './search.js';
import { OrderSlotSchema, windowLabel } from './slots.js';
import { IdSchema } from './validation.js';

/**
 * The admin area's rules and shapes (issue 12): what its list endpoints accept
 * (pages, search, filters, sorts), what the dashboard answers, and the pure
 * helpers both sides use (the shop's day in India, CSV of orders, the
 * title-and-breadcrumb menu lives in the web layer). No I/O here.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Pages are small on purpose: a table of 100 rows is already more than a phone shows. */
export const ADMIN_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The CSV export asks for pages this large (the API's largest page for exports). */
export const EXPORT_PAGE_SIZE = 500;
export const ADMIN_SEARCH_MAX = 100;

/** Midnight in India (ms since epoch) of the day that contains `now`. */
export function indiaDayStart(now: number): number {
  const offset = INDIA_OFFSET_MINUTES * 60 * 1000;
  return Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
}

/** The India calendar date (YYYY-MM-DD) of an instant. */
export function indiaDate(at: number): string {
  return new Date(at + INDIA_OFFSET_MINUTES * 60 * 1000).toISOString().slice(0, 10);
}

/** The India day number (days since 1970-01-01 in India) of an instant; the SQL groups by the same. */
export function indiaDayNumber(at: number): number {
  return Math.floor((at + INDIA_OFFSET_MINUTES * 60 * 1000) / DAY_MS);
}

/** "YYYY-MM-DD" (India) to the first millisecond of that day. */
export function indiaDateStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - INDIA_OFFSET_MINUTES * 60 * 1000;
}

const pageNumber = v.pipe(
  v.string(),
  v.regex(/^\d{1,6}$/, 'The page must be a whole number.'),
  v.transform(Number),
  v.minValue(1, 'The page must be at least 1.'),
);
const pageSize = v.pipe(
  v.string(),
  v.regex(/^\d{1,4}$/, 'The page size must be a whole number.'),
  v.transform(Number),
  v.minValue(1, 'The page size must be at least 1.'),
  v.maxValue(EXPORT_PAGE_SIZE, `The page size must be at most ${EXPORT_PAGE_SIZE}.`),
);
const searchText = v.pipe(
  v.string('The search text must be text.'),
  v.trim(),
  v.maxLength(ADMIN_SEARCH_MAX, `The search text must be at most ${ADMIN_SEARCH_MAX} characters.`),
  v.check(isTypedText, 'The search text contains characters that are not allowed.'),
);

export const PRODUCT_SORTS = ['newest', 'oldest', 'title', 'price-asc', 'price-desc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const AdminProductsQuerySchema = v.object({
  page: v.optional(pageNumber, '1'),
  pageSize: v.optional(pageSize, String(DEFAULT_PAGE_SIZE)),
  q: v.optional(searchText, ''),
  categoryId: v.optional(IdSchema),
  sort: v.optional(
    v.picklist(PRODUCT_SORTS, `The sort must be one of: ${PRODUCT_SORTS.join(', ')}.`),
    'newest',
  ),
});
export type AdminProductsQuery = v.InferOutput<typeof AdminProductsQuerySchema>;

const calendarDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD.'),
  v.check(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'That date does not exist.',
  ),
);

export const ORDER_SORTS = ['newest', 'slot'] as const;

/** What selects orders: the list's filters, which the day's packing slips take too. */
const orderFilterEntries = {
  q: v.optional(searchText, ''),
  status: v.optional(v.picklist(ORDER_STATUSES, `The status must be one of: ${ORDER_STATUSES.join(', ')}.`)),
  from: v.optional(calendarDate),
  to: v.optional(calendarDate),
  /** Orders to deliver on this India date. */
  deliveryDate: v.optional(calendarDate),
  /** Orders booked in this delivery slot. */
  slotId: v.optional(IdSchema),
};
const fromBeforeTo = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const FROM_AFTER_TO = 'The start date must not be after the end date.';

export const AdminOrdersQuerySchema = v.pipe(
  v.object({
    page: v.optional(pageNumber, '1'),
    pageSize: v.optional(pageSize, String(DEFAULT_PAGE_SIZE)),
    ...orderFilterEntries,
    /** newest: newest first; slot: by delivery date, then slot start (the packing order), then id. */
    sort: v.optional(
      v.picklist(ORDER_SORTS, `The sort must be one of: ${ORDER_SORTS.join(', ')}.`),
      'newest',
    ),
  }),
  v.check((q) => fromBeforeTo(q), FROM_AFTER_TO),
);
export type AdminOrdersQuery = v.InferOutput<typeof AdminOrdersQuerySchema>;

/**
 * The packing slips of the orders the list's filters select, always in the packing order; a
 * page is as large as the export's, so a day's slips come in one request.
 */
export const PackingSlipsQuerySchema = v.pipe(
  v.object({
    page: v.optional(pageNumber, '1'),
    pageSize: v.optional(pageSize, String(EXPORT_PAGE_SIZE)),
    ...orderFilterEntries,
  }),
  v.check((q) => fromBeforeTo(q), FROM_AFTER_TO),
);
export type PackingSlipsQuery = v.InferOutput<typeof PackingSlipsQuerySchema>;

/** The largest page: one page's selection at most. */
export const MAX_BULK = 100;
export const BulkDeleteSchema = v.object({
  productIDs: v.pipe(
    v.array(IdSchema, 'productIDs must be a list of product ids.'),
    v.minLength(1, 'Choose at least one product.'),
    v.maxLength(MAX_BULK, `At most ${MAX_BULK} products at once.`),
  ),
});

/** Renaming takes the same rules as adding (the spec's "Please enter a category name."). */
export const RenameCategorySchema = AddCategorySchema;

export const NOTE_MAX = 500;
export const AdminStatusUpdateSchema = v.object({
  status: v.picklist(ORDER_STATUSES, `The status must be one of: ${ORDER_STATUSES.join(', ')}.`),
  note: v.optional(
    v.pipe(
      v.string('The note must be text.'),
      v.trim(),
      v.maxLength(NOTE_MAX, `A note has at most ${NOTE_MAX} characters.`),
      v.check(isTypedText, 'The note contains characters that are not allowed.'),
    ),
    '',
  ),
});

export const NotificationsQuerySchema = v.object({
  since: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'since is a time in milliseconds.'), v.transform(Number)),
  ),
});

/** The image list of a product after an edit: kept images by their `src`, new uploads by index. */
export const ImageOrderSchema = v.pipe(
  v.array(
    v.union([
      v.object({ src: v.pipe(v.string(), v.regex(/^\/media\/[\w.-]+\.webp$/, 'Unknown image.')) }),
      v.object({
        file: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(LIMITS.imagesPerProduct - 1)),
      }),
    ]),
    'The image order must be a list.',
  ),
  v.minLength(1, 'A product keeps at least one image.'),
  v.maxLength(LIMITS.imagesPerProduct, `At most ${LIMITS.imagesPerProduct} images.`),
);
export type ImageOrderEntry = v.InferOutput<typeof ImageOrderSchema>[number];

// ------------------------------------------------------------------ answers
// Their schemas: the API serializes its answers through them, and the types are inferred from them.

const int = v.pipe(v.number(), v.integer());

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** The schema of a page of `item`s (its type is `Paged<the item's type>`). */
// biome-ignore lint/suspicious/noExplicitAny: any item schema; the page's type follows from it.
export function pagedSchema<S extends v.GenericSchema<any, any>>(item: S) {
  return v.object({ items: v.array(item), total: int, page: int, pageSize: int });
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

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
  totalAmount: int,
  /** As stored ("Razorpay"); screens and the CSV say it with paymentMethodLabel ("Paid online"). */
  paymentMethod: PaymentMethodSchema,
  orderDate: v.string(),
  deliveryDate: v.string(),
  deliverySlot: v.nullable(OrderSlotSchema),
  slotCharge: int,
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
  /** Who receives it and the surprise choices (issue 26). */
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
});
export type AdminOrderDetail = v.InferOutput<typeof AdminOrderDetailSchema>;

/**
 * The statuses an unpaid order can be cancelled from: the account's "unpaid open" orders, which an
 * admin cancels in one step (an account holding delivery slots it will not pay for).
 */
export const UNPAID_OPEN_STATUSES = ORDER_STATUSES.filter((s) => NEXT_STATUSES[s].includes('cancelled'));

export const CancelUnpaidSchema = v.object({
  userID: IdSchema,
  note: AdminStatusUpdateSchema.entries.note,
});
export const CancelUnpaidAnswerSchema = v.object({
  userID: int,
  /** How many were cancelled (each through the same status move as one cancel). */
  cancelled: int,
  orderIDs: v.array(int),
});
export type CancelUnpaidAnswer = v.InferOutput<typeof CancelUnpaidAnswerSchema>;

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
  /** Today's and tomorrow's deliveries by slot (issue 25): orders booked (not cancelled) against capacity. */
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
});
export type Dashboard = v.InferOutput<typeof DashboardSchema>;

export const AdminNotificationsSchema = v.object({
  /** Server time of this answer: the next "since". */
  now: v.pipe(int, v.description('Server time of this answer (ms): the next "since"')),
  count: int,
  orders: v.array(
    v.object({ orderID: int, customerName: v.string(), totalAmount: int, orderDate: v.string() }),
  ),
});
export type AdminNotifications = v.InferOutput<typeof AdminNotificationsSchema>;

/** Revenue counts every order that is not cancelled (a paid order cancelled later is refunded by hand). */
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
      date: new Date(d * DAY_MS).toISOString().slice(0, 10),
      revenue: row?.revenue ?? 0,
      orders: row?.orders ?? 0,
    });
  }
  return out;
}

/** Text of an HTML description for a table cell: tags out, entities read, cut at `max`. */
export function plainText(html: string, max = 120): string {
  const text = textOf(html);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * One CSV cell (RFC 4180), the one rule of every CSV the shop writes. Always quoted: a spreadsheet
 * that splits on `;` (or a tab) in the shopper's locale would otherwise cut an address such as
 * `Flat 1;=1+1` into cells of its own, one starting with `=`, out of reach of the guard below. The
 * guard still defuses a cell starting with = + - @ (a formula once the quotes are read).
 */
export function csvCell(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * A whole CSV file: the byte order mark (`CSV_BOM`), a header and rows of cells through `csvCell`,
 * CRLF lines ending with one.
 */
export function csvFile(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

export const ORDER_CSV_HEADER = [
  'Order ID',
  'Status',
  'Order Date (India time)',
  'User Email',
  'Customer Name',
  'Customer Email',
  'Customer Phone',
  'Customer Address',
  'City',
  'State',
  'PIN',
  'Products',
  'Quantity',
  'Payment',
  'Subtotal (INR)',
  'Delivery Charge (INR)',
  'Slot Charge (INR)',
  'Discount (INR)',
  'Total Amount (INR)',
  'Delivery Date',
  'Delivery Slot',
  'Recipient Name',
  'Recipient Phone',
  'Hide Price',
  'Hide Sender',
  'Card Occasion',
  'Card Message',
  'Cake Messages',
  'Cake Photo',
] as const;

/**
 * Excel reads a CSV without a byte order mark in the machine's own code page, and ₹, Hindi and
 * emoji come out as mojibake; with it, as UTF-8.
 */
export const CSV_BOM = '\uFEFF';

/** An order as the CSV reads it; the gift fields may be missing from orders fetched before they were kept. */
export type CsvOrder = Omit<AdminOrderSummary, keyof OrderGift | 'items'> &
  Partial<OrderGift> & {
    items: readonly (Omit<AdminOrderSummary['items'][number], 'cakeMessage'> & {
      cakeMessage?: string | null;
    })[];
  };

const yesNo = (b: boolean | undefined) => (b ? 'yes' : 'no');

/**
 * Where a photo cake's photo opens from a spreadsheet: the admin's order page, which shows it and
 * saves it full size. The photo's own API address answers only a request that carries the admin's
 * token, which a link clicked in Excel never does; the page has the signed-in admin's.
 */
export function cakePhotoLink(origin: string, orderID: number): string {
  return `${origin}/admin-orders/${orderID}#cake-photo`;
}

/**
 * The owner's spreadsheet of orders: times in India, the address in its parts, every charge,
 * each line as the kitchen reads it ("1 x Chocolate Truffle Delight, 1 kg") and a photo cake's
 * photo as a link; `origin` is the shop's (the page's) for those links.
 */
export function ordersCsv(orders: readonly CsvOrder[], { origin }: { origin: string }): string {
  return csvFile(
    ORDER_CSV_HEADER,
    orders.map((o) => [
      o.orderID,
      o.status,
      indiaDateTime(o.orderDate),
      o.userEmail,
      o.customerName,
      o.customerEmail,
      o.customerPhone,
      o.customerAddress,
      o.city,
      o.state,
      o.pincode,
      o.items.map((i) => kitchenLine({ ...i, productName: i.productTitle })).join('; '),
      o.items.reduce((n, i) => n + i.quantity, 0),
      paymentMethodLabel(o.paymentMethod),
      o.subtotal,
      o.deliveryCharge,
      o.slotCharge,
      o.discount,
      o.totalAmount,
      o.deliveryDate,
      o.deliverySlot ? `${o.deliverySlot.name} (${windowLabel(o.deliverySlot)})` : '',
      o.recipient?.name ?? '',
      o.recipient?.phone ?? '',
      yesNo(o.hidePrice),
      yesNo(o.hideSender),
      o.card?.occasion ?? '',
      o.card?.message ?? '',
      o.items
        .filter((i) => i.cakeMessage)
        .map((i) => `${i.productName}: ${i.cakeMessage}`)
        .join('; '),
      o.items.some((i) => i.photoID) ? cakePhotoLink(origin, o.orderID) : '',
    ]),
  );
}

/** Statuses still waiting for the shop's next step (the dashboard's "waiting" figures). */
export const WAITING_STATUSES = ['placed', 'paid', 'confirmed', 'out for delivery'] as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The spec's order date, "MMM d, y h:mm a", in India time (the shop's clock), e.g. "Nov 3, 2026 7:05 PM". */
export function formatOrderDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const d = new Date(t + INDIA_OFFSET_MINUTES * 60 * 1000);
  const h = d.getUTCHours();
  const hour = h % 12 === 0 ? 12 : h % 12;
  const minute = String(d.getUTCMinutes()).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${hour}:${minute} ${h < 12 ? 'AM' : 'PM'}`;
}

/** An instant in India time as a spreadsheet reads a date and time: "2026-11-23 19:05". */
export function indiaDateTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return new Date(t + INDIA_OFFSET_MINUTES * 60 * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

/** A calendar date (YYYY-MM-DD, a delivery date) in the same style, "MMM d, y": "Nov 24, 2026". */
export function formatCalendarDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[3])}, ${m[1]}` : date;
}

// ------------------------------------------------------------ the admin forms

export interface VariationRow {
  variationName: string;
  variationType: string;
  price: string;
}

export interface ProductFormValues {
  categoryIDs: number[];
  title: string;
  description: string;
  labelHeading: string;
  labelDescription: string;
  price: string;
  sizeOrWeight: string;
  variations: VariationRow[];
  imageCount: number;
}

export type ProductField =
  | 'categoryIDs'
  | 'title'
  | 'description'
  | 'labelHeading'
  | 'labelDescription'
  | 'price'
  | 'images'
  | `variations.${number}.${'variationName' | 'variationType' | 'price'}`;

const isRupees = (s: string) => /^\d{1,9}$/.test(s.trim()) && Number(s.trim()) <= LIMITS.maxPrice;

/**
 * The spec's add-product rules (section 5): at least one category, title,
 * description, label heading and label description; a price of 0 or more; each
 * variation with name, type and a price of 0 or more; images selected. The
 * fields that break them, in form order (the screen marks them and says the
 * spec's one message). Edit uses the same rules where the spec's edit form
 * has the field (title, description and price are required there too).
 */
export function productFormProblems(f: ProductFormValues, mode: 'add' | 'edit'): ProductField[] {
  const out: ProductField[] = [];
  if (!f.categoryIDs.length) out.push('categoryIDs');
  if (!f.title.trim()) out.push('title');
  if (!f.description.trim()) out.push('description');
  if (mode === 'add' && !f.labelHeading.trim()) out.push('labelHeading');
  if (mode === 'add' && !f.labelDescription.trim()) out.push('labelDescription');
  if (!isRupees(f.price)) out.push('price');
  f.variations.forEach((v, i) => {
    if (!v.variationName.trim()) out.push(`variations.${i}.variationName`);
    if (!v.variationType.trim()) out.push(`variations.${i}.variationType`);
    if (!isRupees(v.price)) out.push(`variations.${i}.price`);
  });
  if (mode === 'add' && f.imageCount < 1) out.push('images');
  return out;
}

/** Moves the item at `from` to `to` (a new array); the image editor's reorder. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}
