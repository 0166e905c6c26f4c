/**
 * Brings the device's catalogue up to date from the delta feed
 * (`GET /api/sync/catalogue?since=<cursor>&limit=`). Runs in the worker and,
 * until a worker controls the page, in the page; both share one lock so two
 * runs never interleave their pages.
 *
 * Each page is applied in one Dexie transaction together with the cursor it
 * moves to, so a screen never sees half a page and the cursor never runs
 * ahead of (or behind) the data: an interrupted run, full snapshot or delta,
 * resumes from the last page it stored and never starts over (a phone losing
 * its signal at product 9,000 of 10,000 keeps the 9,000).
 *
 * A full snapshot sends products in id order, so each of its pages covers an
 * id range: from the previous page's last id (kept in meta beside the cursor,
 * `catalogueSnapshotFrom`) to its own last id, and the last page to the end.
 * Whatever the device holds in that range and the page does not carry is gone
 * on the server and is deleted in the page's transaction; the first page
 * replaces the categories likewise, and the delivery areas and device settings
 * it carries. No page needs to remember the others. A delta's areas and
 * settings are the changed rows (and `deletedPincodes` the removed ones), so
 * the product page's "Check delivery" answers offline from the device's copy.
 */
import type { CatalogueDelta, Category, Product } from '../domain/catalogue.js';
import { API_BASE } from '../domain/contract.js';
import type { Envelope } from '../domain/envelope.js';
import { db as defaultDb, type ShopDatabase } from './db.js';
import type { MetaRow, StoredProduct } from './db-rows.js';
import { writeProducts } from './product-chunks.js';

export interface SyncOptions {
  store?: ShopDatabase;
  fetch?: typeof fetch;
  /** Origin of the API; '' means the current origin (page and worker). */
  baseUrl?: string;
  /** Products per page for every request; by default the first page is small and the rest large. */
  pageSize?: number;
  /** Start from a full snapshot whatever the stored cursor says. */
  full?: boolean;
  /** Per request; a stalled connection must not hold the lock forever. */
  timeoutMs?: number;
  /**
   * The answer to the first request of an empty device (no cursor, default
   * page size), already under way: the page's HTML starts it on a first visit
   * so the catalogue downloads while the app's code does. Used once, only for
   * that request; when it failed the request is made again.
   */
  firstPage?: Promise<Response | null> | null;
  /**
   * Stop after this many pages, leaving the rest to a later run, which resumes from the stored
   * cursor (`SyncResult.more`). The page stores a first visit's first page itself, so the first
   * screen shows at once, and leaves the rest to a worker (`web/pwa/start.ts`).
   */
  maxPages?: number;
  /**
   * Called when a page says more follows and this run will leave it (`maxPages`), before that page
   * is stored: whatever runs the rest may start meanwhile (the page's sync worker loads its code),
   * and waits for this run's lock.
   */
  onMore?: () => void;
}

/**
 * Products on the first feed page; the page's HTML asks for the same first page (`web/index.html`).
 * Small, so the first screen's products arrive (and show) early.
 */
export const DEFAULT_PAGE_SIZE = 200;
/**
 * Products per page after the first: the feed's maximum (`LIMITS.feedPage`, not imported: the
 * schemas of its module would come with it; a test holds the two equal). Every page costs a round
 * trip (150 ms on a phone's network) during which nothing arrives, and a transaction whose commit
 * re-runs the screens' live queries: at 1,000 a page a phone's link idled almost half of a 10,000
 * product first visit (the catalogue-sync bench's waterfall).
 */
export const LATER_PAGE_SIZE = 5000;

export interface SyncResult {
  pages: number;
  full: boolean;
  /** True when the server answered 304: nothing changed since the stored cursor. */
  notModified: boolean;
  productsChanged: number;
  productsDeleted: number;
  categoriesChanged: number;
  categoriesDeleted: number;
  cursor: string | null;
  /** True when the run stopped at `maxPages` with more of the feed still to come. */
  more: boolean;
  /** Product ids put by this run, for the image cache. */
  changedProductIds: number[];
  deletedProductIds: number[];
}

export class SyncError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or 0 when the network failed (offline). */
    readonly status: number,
  ) {
    super(message);
    this.name = 'SyncError';
  }
  get offline(): boolean {
    return this.status === 0;
  }
}

const LOCK_NAME = 'storefront-catalogue-sync';
const MAX_PAGES = 10_000;
let inFlight: Promise<SyncResult> | null = null;
let queued: Promise<SyncResult> | null = null;

/**
 * One sync at a time per scope and across page and worker (Web Locks, where
 * the browser has them). A call during a run queues one more run after it,
 * because the running one may have read the feed before the change the caller
 * heard about; further calls join that queued run.
 */
export function syncCatalogue(options: SyncOptions = {}): Promise<SyncResult> {
  if (queued) return queued;
  if (inFlight) {
    const next = inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return start(options);
      });
    queued = next;
    return next;
  }
  return start(options);
}

function start(options: SyncOptions): Promise<SyncResult> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  const run = () => runSync(options);
  const p = (locks ? locks.request(LOCK_NAME, run) : run()).finally(() => {
    if (inFlight === p) inFlight = null;
  });
  inFlight = p;
  return p;
}

async function runSync(options: SyncOptions): Promise<SyncResult> {
  const store = options.store ?? defaultDb;
  try {
    // A run that ends stamps lastSyncedAt itself (see pull). One that stopped part way has not synced
    // the catalogue: the status and the worker's start ("synced over a minute ago?") must not take a
    // first visit's first page for the whole of it.
    return await pull(store, options, options.full ?? false);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await store.meta.put({ key: 'lastSyncError', value: message }).catch(() => undefined);
    throw err;
  }
}

interface StoredEtag {
  since: string;
  etag: string;
}

async function readMeta(
  store: ShopDatabase,
): Promise<{ cursor: string | null; etag: StoredEtag | null; snapshotFrom: number | null }> {
  const [cursorRow, etagRow, fromRow] = await store.meta.bulkGet([
    'catalogueCursor',
    'catalogueEtag',
    'catalogueSnapshotFrom',
  ]);
  const cursor = typeof cursorRow?.value === 'string' && cursorRow.value ? cursorRow.value : null;
  let etag: StoredEtag | null = null;
  if (typeof etagRow?.value === 'string') {
    try {
      etag = JSON.parse(etagRow.value) as StoredEtag;
    } catch {
      etag = null;
    }
  }
  const snapshotFrom = typeof fromRow?.value === 'number' ? fromRow.value : null;
  return { cursor, etag, snapshotFrom };
}

async function pull(store: ShopDatabase, options: SyncOptions, forceFull: boolean): Promise<SyncResult> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl ?? '';
  const meta = await readMeta(store);
  let since = forceFull ? null : meta.cursor;
  // Small only where a first screen waits for it: an empty device's first page. A run that resumes a
  // snapshot (the first visit's worker) or takes a delta asks for whole pages from the start.
  const firstLimit = options.pageSize ?? (since === null ? DEFAULT_PAGE_SIZE : LATER_PAGE_SIZE);
  const laterLimit = options.pageSize ?? LATER_PAGE_SIZE;
  let early = since === null && firstLimit === DEFAULT_PAGE_SIZE ? (options.firstPage ?? null) : null;
  // Where the next page of a full snapshot starts (0 on its first page; see the top of this file).
  let snapshotFrom = since === null ? 0 : meta.snapshotFrom;

  const result: SyncResult = {
    pages: 0,
    full: since === null,
    notModified: false,
    productsChanged: 0,
    productsDeleted: 0,
    categoriesChanged: 0,
    categoriesDeleted: 0,
    cursor: since,
    more: false,
    changedProductIds: [],
    deletedProductIds: [],
  };

  const maxPages = Math.min(MAX_PAGES, options.maxPages ?? MAX_PAGES);
  /**
   * One feed page: `answer` has its body read (a prefetched body must not wait for its request's
   * timeout); `next` is the cursor its headers name for the page after it (`Link: rel="next"`),
   * known before the body has arrived.
   */
  const request = (from: string | null, limit: number): PageRequest => {
    const params = new URLSearchParams({ limit: String(limit) });
    if (from !== null) params.set('since', from);
    const url = `${base}${API_BASE}/sync/catalogue?${params}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (from !== null && meta.etag && meta.etag.since === from) headers['if-none-match'] = meta.etag.etag;
    const signal =
      options.timeoutMs !== 0 && typeof AbortSignal.timeout === 'function'
        ? AbortSignal.timeout(options.timeoutMs ?? 30_000)
        : undefined;
    const sent = doFetch(url, { headers, signal, cache: 'no-store' }).catch((err: unknown) => {
      throw new SyncError(`Catalogue sync failed: ${err instanceof Error ? err.message : String(err)}`, 0);
    });
    const answer = sent.then(readAnswer);
    // Failures count when the answer is awaited, not here.
    answer.catch(() => undefined);
    return { from, answer, next: sent.then(nextCursor, () => null) };
  };
  // The next page is asked for as soon as this one's headers name it, while this one downloads and is
  // stored: one after the other, a phone's link idled for a round trip and the server's work on every
  // page. One ahead at most, and only asked for, never stored ahead: the cursor still moves with the data.
  // Set from a callback: `as` keeps TypeScript from taking it for always null below.
  let ahead = null as PageRequest | null;

  for (let page = 0; page < MAX_PAGES; page++) {
    if (page >= maxPages) {
      result.more = true;
      return result;
    }
    let answer: FeedAnswer | null = null;
    if (early) {
      const response = await early.catch(() => null);
      early = null;
      if (response?.ok) answer = await readAnswer(response);
    }
    if (!answer) {
      const current = ahead?.from === since ? ahead : request(since, page === 0 ? firstLimit : laterLimit);
      ahead = null;
      if (page + 1 < maxPages) {
        const asking = current;
        void asking.next.then((cursor) => {
          if (cursor !== null && cursor !== asking.from && ahead === null)
            ahead = request(cursor, laterLimit);
        });
      }
      answer = await current.answer;
    }
    const { response, body } = answer;

    if (response.status === 304) {
      result.notModified = result.pages === 0;
      await store.meta.bulkPut(syncedRows());
      return result;
    }
    if (!response.ok || !body?.isSuccess) {
      // A cursor the server no longer accepts (too old, or from another database) means start over.
      if (
        since !== null &&
        page === 0 &&
        !forceFull &&
        (response.status === 400 || response.status === 410)
      ) {
        return pull(store, { ...options, firstPage: null }, true);
      }
      throw new SyncError(
        `Catalogue sync failed: ${body?.sys_message ?? `HTTP ${response.status}`}`,
        response.status,
      );
    }
    const delta = checkDelta(body.data);
    if (page === 0 && delta.full) result.full = true;
    result.pages += 1;

    const last = !delta.hasMore;
    const etag = response.headers.get('etag');
    // A page starting at or below the stored point is the server starting the snapshot again (it
    // refused the stored window), not a continuation.
    const restarted = (delta.products[0]?.productID ?? Number.POSITIVE_INFINITY) <= (snapshotFrom ?? 0);
    const snapshot = delta.full ? { from: restarted ? 0 : (snapshotFrom ?? 0), last } : null;
    const metaRows: MetaRow[] = [
      { key: 'catalogueCursor', value: delta.cursor },
      {
        key: 'catalogueEtag',
        value: etag && since !== null ? JSON.stringify({ since, etag } satisfies StoredEtag) : null,
      },
    ];
    snapshotFrom = delta.full && !last ? (delta.products.at(-1)?.productID ?? snapshotFrom) : null;
    metaRows.push({ key: 'catalogueSnapshotFrom', value: snapshotFrom });
    // The run's end goes in with its last page: a transaction of its own would make a small delta
    // half again as slow, and wake the screens' live queries twice.
    if (last) metaRows.push(...syncedRows());
    if (!last && page + 1 >= maxPages) options.onMore?.();
    await applyPage(store, delta, snapshot, metaRows, result);
    result.cursor = delta.cursor;

    if (last) return result;
    if (delta.cursor === since) {
      throw new SyncError(
        'Catalogue sync failed: the feed said there is more but did not move its cursor',
        502,
      );
    }
    since = delta.cursor;
  }
  throw new SyncError('Catalogue sync failed: too many pages', 502);
}

/** What a run that reached the feed's end records: when, and that nothing failed. */
function syncedRows(): MetaRow[] {
  return [
    { key: 'lastSyncedAt', value: Date.now() },
    { key: 'lastSyncError', value: null },
  ];
}

interface FeedAnswer {
  response: Response;
  body: Envelope<CatalogueDelta> | null;
}

interface PageRequest {
  /** The cursor it was asked from (null: from the start). */
  from: string | null;
  answer: Promise<FeedAnswer>;
  /** The cursor of the page after it, from its headers; null when it names none or failed. */
  next: Promise<string | null>;
}

/**
 * The `since` of a response's `Link: <...>; rel="next"` (the feed's next page), or null: any other
 * link (a proxy's `rel=preload`) names none. The page asks it of the HTML's first request too.
 */
export function nextCursor(response: Response): string | null {
  const link = response.ok ? response.headers.get('link') : null;
  const target = link?.match(/<([^>]*)>\s*;\s*rel="?next"?/)?.[1];
  return target ? new URLSearchParams(target.split('?')[1] ?? '').get('since') : null;
}

async function readAnswer(response: Response): Promise<FeedAnswer> {
  if (response.status === 304) return { response, body: null };
  const body = (await response.json().catch(() => null)) as Envelope<CatalogueDelta> | null;
  return { response, body };
}

function checkDelta(data: unknown): CatalogueDelta {
  const d = data as Partial<CatalogueDelta> | null;
  if (
    !d ||
    typeof d.cursor !== 'string' ||
    !Array.isArray(d.products) ||
    !Array.isArray(d.categories) ||
    !Array.isArray(d.deletedProductIds) ||
    !Array.isArray(d.deletedCategoryIds)
  ) {
    throw new SyncError('Catalogue sync failed: the feed answered an unexpected shape', 502);
  }
  // The optional parts (slots, closed dates, areas, settings) are checked where they are applied: a
  // page without them leaves the device's as they are. This module is on the first screen: no copy.
  return { ...d, full: d.full === true, hasMore: d.hasMore === true } as CatalogueDelta;
}

export function toStored(product: Product): StoredProduct {
  return { ...product, categoryIds: product.categories.map((c) => c.categoryID) };
}

/**
 * One page in one transaction: its rows, what it proves gone, and the cursor it moves to. A full
 * snapshot's page (`snapshot`) deletes the local products of its id range that it does not carry,
 * and its first page the categories it does not carry.
 */
async function applyPage(
  store: ShopDatabase,
  delta: CatalogueDelta,
  snapshot: { from: number; last: boolean } | null,
  metaRows: MetaRow[],
  result: SyncResult,
): Promise<void> {
  const products = delta.products.filter(
    (p): p is Product => typeof p?.productID === 'number' && Array.isArray(p.categories),
  );
  const categories = delta.categories.filter((c): c is Category => typeof c?.categoryID === 'number');

  const tables = [
    store.productChunks,
    store.categories,
    store.images,
    store.slots,
    store.closedDates,
    store.areas,
    store.settings,
    store.meta,
  ];
  const { areas, deletedPincodes, settings } = delta;
  await store.transaction('rw', tables, async () => {
    await store.categories.bulkPut(categories);
    // The shop's slots and closed dates come whole on a first page: the device's copy is replaced.
    if (Array.isArray(delta.slots)) {
      await store.slots.clear();
      await store.slots.bulkPut(delta.slots);
    }
    if (Array.isArray(delta.closedDates)) {
      await store.closedDates.clear();
      await store.closedDates.bulkPut(delta.closedDates);
    }
    // Areas and settings come row by row (a delta carries the changed ones); a snapshot's first page
    // carries them all, so it replaces the device's whole copy (a pincode removed meanwhile goes).
    const whole = snapshot?.from === 0;
    if (Array.isArray(areas)) {
      if (whole) await store.areas.clear();
      await store.areas.bulkPut(areas);
    }
    if (Array.isArray(deletedPincodes)) await store.areas.bulkDelete(deletedPincodes);
    if (settings && typeof settings === 'object') {
      if (whole) await store.settings.clear();
      await store.settings.bulkPut(Object.entries(settings).map(([key, value]) => ({ key, value })));
    }
    const range = snapshot
      ? {
          from: snapshot.from,
          to: snapshot.last ? Number.POSITIVE_INFINITY : (products.at(-1)?.productID ?? snapshot.from),
        }
      : null;
    const removed = await writeProducts(store, products.map(toStored), delta.deletedProductIds, range);
    // A delta's deletions count whether or not the device had them (as before); a snapshot's are what it removed.
    const deleted = new Set(delta.deletedProductIds);
    const goneProducts = [...delta.deletedProductIds, ...removed.filter((id) => !deleted.has(id))];
    let goneCategories = delta.deletedCategoryIds;
    if (snapshot && snapshot.from === 0) {
      const kept = new Set(categories.map((c) => c.categoryID));
      const localCategories = (await store.categories.toCollection().primaryKeys()) as number[];
      goneCategories = [...goneCategories, ...localCategories.filter((id) => !kept.has(id))];
    }
    if (goneProducts.length) {
      // Their images would never be shown again; the cart keeps its own copy of title and price.
      await store.images.where('productID').anyOf(goneProducts).delete();
    }
    if (goneCategories.length) await store.categories.bulkDelete(goneCategories);
    await store.meta.bulkPut(metaRows);
    result.productsChanged += products.length;
    result.categoriesChanged += categories.length;
    result.productsDeleted += goneProducts.length;
    result.categoriesDeleted += goneCategories.length;
    result.changedProductIds.push(...products.map((p) => p.productID));
    result.deletedProductIds.push(...goneProducts);
  });
}

/** When the catalogue was last synced (ms since epoch), or null if never. */
export async function lastSyncedAt(store: ShopDatabase = defaultDb): Promise<number | null> {
  const row = await store.meta.get('lastSyncedAt');
  return typeof row?.value === 'number' ? row.value : null;
}
