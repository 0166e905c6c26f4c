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
 * `slots_version`). The delivery areas and the device settings travel on the
 * first page by row: each area and each saved setting carries the version of
 * its last change, so a delta holds the pincodes changed in its window
 * (`areas`), the ones removed (`deletedPincodes`, from tombstones) and the
 * settings changed (`settings`, by key), each field left out when it has
 * nothing; a full snapshot holds every live area and every device setting,
 * unsaved ones at their defaults. A delta after one product changed carries
 * that product and nothing else the device has; a device keeps its slots,
 * areas and settings when a page has none.
 */
import type { CatalogueDelta } from '../../domain/catalogue.js';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { indiaClock } from '../../domain/india-time.js';
import { DEVICE_SETTING_KEYS, readSettings } from '../../domain/settings.js';
import { changedAreas, listAreas, removedPincodes } from '../delivery-areas/delivery-area.repository.js';
import { changedSettingRows, listSettingRows } from '../settings/settings.repository.js';
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
  const { areas, deletedPincodes, settings } = firstPage
    ? await deliveryChanges(db, w, full)
    : { areas: [], deletedPincodes: [], settings: {} };
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
    ...(full || areas.length ? { areas } : {}),
    ...(deletedPincodes.length ? { deletedPincodes } : {}),
    ...(full || Object.keys(settings).length ? { settings } : {}),
  };
}

/**
 * The first page's delivery areas and device settings: every one on a full snapshot (settings
 * never saved at their defaults), else the rows changed in the window.
 */
async function deliveryChanges(
  db: Executor,
  w: Window,
  full: boolean,
): Promise<{ areas: DeliveryArea[]; deletedPincodes: string[]; settings: Record<string, unknown> }> {
  const [areas, deletedPincodes, rows] = await Promise.all([
    full ? listAreas(db) : changedAreas(db, w),
    full ? Promise.resolve([]) : removedPincodes(db, w),
    full ? listSettingRows(db) : changedSettingRows(db, w),
  ]);
  const values = readSettings(rows) as Record<string, unknown>;
  const keys = full ? DEVICE_SETTING_KEYS : DEVICE_SETTING_KEYS.filter((k) => rows.some((r) => r.key === k));
  return { areas, deletedPincodes, settings: Object.fromEntries(keys.map((k) => [k, values[k]])) };
}
