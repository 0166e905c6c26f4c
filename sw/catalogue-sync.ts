import type { CatalogueDelta, Category, Product } from '../domain/catalogue.js';
import { API_BASE } from '../domain/contract.js';
import type { Envelope } from '../domain/envelope.js';
import { db as defaultDb, type ShopDatabase, type StoredProduct } from './db.js';

/**
 * Brings the device's catalogue up to date from the delta feed
 * (`GET /api/sync/catalogue?since=<cursor>&limit=`). Runs in the worker and,
 * until a worker controls the page, in the page; both share one lock so two
 * runs never interleave their pages.
 *
 * Each page is applied in one Dexie transaction, so a screen never sees half
 * a page. A delta run stores the cursor after every page (an interrupted run
 * resumes where it stopped). A full snapshot stores its cursor only after the
 * last page, because only then does it know which local rows the server no
 * longer has, and those are deleted in that last transaction.
 */

export interface SyncOptions {
  store?: ShopDatabase;
  fetch?: typeof fetch;
  /** Origin of the API; '' means the current origin (page and worker). */
  baseUrl?: string;
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
}

/** Products per feed page; the page's HTML asks for the same first page (`web/index.html`). */
export const DEFAULT_PAGE_SIZE = 200;

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
/** Products per bulkPut inside a page's transaction (see applyPage). */
const PUT_SLICE = 16;
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
    const result = await pull(store, options, options.full ?? false);
    await store.meta.bulkPut([
      { key: 'lastSyncedAt', value: Date.now() },
      { key: 'lastSyncError', value: null },
    ]);
    return result;
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

async function readMeta(store: ShopDatabase): Promise<{ cursor: string | null; etag: StoredEtag | null }> {
  const [cursorRow, etagRow] = await store.meta.bulkGet(['catalogueCursor', 'catalogueEtag']);
  const cursor = typeof cursorRow?.value === 'string' && cursorRow.value ? cursorRow.value : null;
  let etag: StoredEtag | null = null;
  if (typeof etagRow?.value === 'string') {
    try {
      etag = JSON.parse(etagRow.value) as StoredEtag;
    } catch {
      etag = null;
    }
  }
  return { cursor, etag };
}

async function pull(store: ShopDatabase, options: SyncOptions, forceFull: boolean): Promise<SyncResult> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl ?? '';
  const limit = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const meta = await readMeta(store);
  let since = forceFull ? null : meta.cursor;
  let early = since === null && limit === DEFAULT_PAGE_SIZE ? (options.firstPage ?? null) : null;

  const result: SyncResult = {
    pages: 0,
    full: since === null,
    notModified: false,
    productsChanged: 0,
    productsDeleted: 0,
    categoriesChanged: 0,
    categoriesDeleted: 0,
    cursor: since,
    changedProductIds: [],
    deletedProductIds: [],
  };
  // Ids a full snapshot has delivered so far; whatever else is stored is gone on the server.
  const seenProducts = new Set<number>();
  const seenCategories = new Set<number>();

  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams({ limit: String(limit) });
    if (since !== null) params.set('since', since);
    const url = `${base}${API_BASE}/sync/catalogue?${params}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (since !== null && meta.etag && meta.etag.since === since) headers['if-none-match'] = meta.etag.etag;

    let response: Response | null = null;
    if (early) {
      response = await early.catch(() => null);
      early = null;
      if (response && !response.ok) response = null;
    }
    try {
      const signal =
        options.timeoutMs !== 0 && typeof AbortSignal.timeout === 'function'
          ? AbortSignal.timeout(options.timeoutMs ?? 30_000)
          : undefined;
      response ??= await doFetch(url, { headers, signal, cache: 'no-store' });
    } catch (err) {
      throw new SyncError(`Catalogue sync failed: ${err instanceof Error ? err.message : String(err)}`, 0);
    }

    if (response.status === 304) {
      result.notModified = result.pages === 0;
      return result;
    }
    const body = (await response.json().catch(() => null)) as Envelope<CatalogueDelta> | null;
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
    await applyPage(store, delta, result.full, last, seenProducts, seenCategories, result);

    const etag = response.headers.get('etag');
    const metaRows: { key: 'catalogueCursor' | 'catalogueEtag'; value: string | null }[] = [];
    if (!result.full || last) metaRows.push({ key: 'catalogueCursor', value: delta.cursor });
    metaRows.push({
      key: 'catalogueEtag',
      value: etag && since !== null ? JSON.stringify({ since, etag } satisfies StoredEtag) : null,
    });
    await store.meta.bulkPut(metaRows);
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
  return {
    cursor: d.cursor,
    full: d.full === true,
    hasMore: d.hasMore === true,
    categories: d.categories,
    products: d.products,
    deletedProductIds: d.deletedProductIds,
    deletedCategoryIds: d.deletedCategoryIds,
    // Slots and closed dates come on a first page; a page without them leaves the device's as they are.
    ...(Array.isArray(d.slots) ? { slots: d.slots } : {}),
    ...(Array.isArray(d.closedDates) ? { closedDates: d.closedDates } : {}),
  };
}

export function toStored(product: Product): StoredProduct {
  return { ...product, categoryIds: product.categories.map((c) => c.categoryID) };
}

async function applyPage(
  store: ShopDatabase,
  delta: CatalogueDelta,
  full: boolean,
  last: boolean,
  seenProducts: Set<number>,
  seenCategories: Set<number>,
  result: SyncResult,
): Promise<void> {
  const products = delta.products.filter(
    (p): p is Product => typeof p?.productID === 'number' && Array.isArray(p.categories),
  );
  const categories = delta.categories.filter((c): c is Category => typeof c?.categoryID === 'number');
  for (const p of products) seenProducts.add(p.productID);
  for (const c of categories) seenCategories.add(c.categoryID);

  const tables = [store.products, store.categories, store.images, store.slots, store.closedDates];
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
    // In slices: IndexedDB clones every value on the calling thread, so one bulkPut of a whole
    // page is one long task (about 60 ms for 86 products on a 4x slowed CPU, blocking input
    // on a phone's first visit). Each slice is issued when the previous one's requests succeed,
    // so the browser runs other tasks in between, while the transaction (kept alive by the
    // pending requests) still applies the page all or nothing.
    const stored = products.map(toStored);
    for (let i = 0; i < stored.length; i += PUT_SLICE) {
      await store.products.bulkPut(stored.slice(i, i + PUT_SLICE));
    }
    let goneProducts = delta.deletedProductIds;
    let goneCategories = delta.deletedCategoryIds;
    if (full && last) {
      const localProducts = (await store.products.toCollection().primaryKeys()) as number[];
      const localCategories = (await store.categories.toCollection().primaryKeys()) as number[];
      goneProducts = [...goneProducts, ...localProducts.filter((id) => !seenProducts.has(id))];
      goneCategories = [...goneCategories, ...localCategories.filter((id) => !seenCategories.has(id))];
    }
    if (goneProducts.length) {
      await store.products.bulkDelete(goneProducts);
      // Their images would never be shown again; the cart keeps its own copy of title and price.
      await store.images.where('productID').anyOf(goneProducts).delete();
    }
    if (goneCategories.length) await store.categories.bulkDelete(goneCategories);
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
