/**
 * The delta feed behind `GET /api/sync/catalogue`. A cursor names a window of
 * catalogue versions: "V" means the device holds everything up to version V;
 * "S.V.P" is a page in the middle of sending the window (S, V], products up to
 * id P already sent. The window's top is fixed when paging starts, so pages
 * never mix two states of the catalogue; whatever changes meanwhile has a
 * version above V and arrives with the next request from cursor V.
 *
 * `since` absent or 0 is a full snapshot (`full: true` on every page): the
 * device replaces its copy and needs no deletions. A cursor above the current
 * version (the database was reset) also answers a full snapshot.
 * Categories and deletions are small and travel on the first page only; so do
 * the delivery slots and closed dates, whole (a handful of rows), on a full
 * snapshot and on a delta whose window holds their last change (a slot change
 * moves the catalogue's version like any other change and stamps it as
 * `slots_version`). A delta after one product changed carries that product and
 * nothing else the device has; a device keeps its
 * slots when a page has none.
 */
import type { CatalogueDelta } from '../../domain/catalogue.js';
import { indiaClock } from '../../domain/india-time.js';
import { listClosures, listSlots, slotsVersion } from '../slots/slot.repository.js';
import type { Executor } from './catalogue.repository.js';
import { changedCategories, changedProducts, deletedProductIds } from './catalogue-feed.repository.js';

export interface FeedRequest {
  since?: string | undefined;
  limit: number;
}

interface Window {
  after: number;
  upTo: number;
  afterId: number;
}

export function parseCursor(since: string | undefined, version: number): Window {
  if (!since) return { after: 0, upTo: version, afterId: 0 };
  const [a = 0, b, c] = since.split('.').map(Number);
  const window =
    b === undefined ? { after: a, upTo: version, afterId: 0 } : { after: a, upTo: b, afterId: c ?? 0 };
  if (window.after > version || window.upTo > version || window.after > window.upTo) {
    return { after: 0, upTo: version, afterId: 0 };
  }
  return window;
}

/**
 * The ETag of an answer: it depends only on the request and the catalogue's
 * current version, so a 304 costs one one-row query.
 */
export function feedETag(request: FeedRequest, version: number): string {
  return `"cat-${request.since ?? 'full'}-${version}-${request.limit}"`;
}

export async function readFeed(db: Executor, request: FeedRequest, version: number): Promise<CatalogueDelta> {
  const w = parseCursor(request.since, version);
  const full = w.after === 0;
  const firstPage = w.afterId === 0;
  const withSlots = firstPage && (full || (await slotsVersion(db)) > w.after);
  const [page, categories, deleted, slots, closedDates] = await Promise.all([
    changedProducts(db, { ...w, limit: request.limit }),
    firstPage ? changedCategories(db, w) : Promise.resolve({ live: [], deletedIds: [] }),
    firstPage && !full ? deletedProductIds(db, w) : Promise.resolve([]),
    withSlots ? listSlots(db) : Promise.resolve(undefined),
    withSlots ? listClosures(db, indiaClock(new Date()).date) : Promise.resolve(undefined),
  ]);
  const last = page.products[page.products.length - 1];
  return {
    cursor: page.hasMore && last ? `${w.after}.${w.upTo}.${last.productID}` : String(w.upTo),
    full,
    hasMore: page.hasMore,
    categories: categories.live,
    products: page.products,
    deletedProductIds: deleted,
    deletedCategoryIds: full ? [] : categories.deletedIds,
    ...(slots ? { slots } : {}),
    ...(closedDates ? { closedDates } : {}),
  };
}
