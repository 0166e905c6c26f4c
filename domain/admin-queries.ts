/**
 * What the admin area's list endpoints accept: pages, search text, filters and sorts of the
 * product and order lists (the day's packing slips take the order list's filters), and the
 * shape of a page of answers.
 */
import * as v from 'valibot';
import { isTypedText } from './catalogue.js';
import { ORDER_STATUSES } from './orders.js';
import { IdSchema } from './validation.js';

/** Pages are small on purpose: a table of 100 rows is already more than a phone shows. */
export const ADMIN_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The CSV export asks for pages this large (the API's largest page for exports). */
export const EXPORT_PAGE_SIZE = 500;
export const ADMIN_SEARCH_MAX = 100;

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

export const NotificationsQuerySchema = v.object({
  since: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'since is a time in milliseconds.'), v.transform(Number)),
  ),
});

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
