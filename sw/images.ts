/**
 * Product images kept in IndexedDB so cards and pages show them offline.
 * Every product's card variant (320 px, under 15 KB) is kept after a sync;
 * the page variant (640 px) only for products the shopper opened, bounded,
 * the least recently stored dropped first. Keys are same-origin paths
 * (`/media/<name>-<width>.webp`), which is what the worker's fetch sees.
 */
import type { Product } from '../domain/catalogue.js';
import { mediaPaths } from '../domain/catalogue-media.js';
import { db as defaultDb, type ShopDatabase } from './db.js';
import type { StoredImage } from './db-rows.js';
import { allProducts } from './product-reads.js';

/** Upper bounds so a big catalogue cannot fill the device. */
export const MAX_THUMBS = 5000;
export const MAX_PAGE_IMAGES = 150;
/** Concurrent downloads while filling thumbnails: enough to be quick, few enough to leave the page its network. */
const CONCURRENCY = 4;

export interface ImageOptions {
  store?: ShopDatabase;
  fetch?: typeof fetch;
  /** Resolves relative image paths (the page's or worker's origin). */
  origin?: string;
}

function currentOrigin(): string {
  return (globalThis as { location?: Location }).location?.origin ?? 'http://localhost';
}

/** The key an image is stored under: its path on our origin, or null for another origin's image (not ours to keep). */
export function imageKey(url: string, origin = currentOrigin()): string | null {
  try {
    const u = new URL(url, origin);
    if (u.origin !== origin) return null;
    return u.pathname;
  } catch {
    return null;
  }
}

function isStorable(key: string | null): key is string {
  return key?.startsWith('/media/') === true;
}

/** The card image of a product: the first image's thumb variant, else its first listed path. */
export function thumbOf(product: Pick<Product, 'images' | 'imagePath'>): string | null {
  return product.images[0]?.thumb ?? mediaPaths(product)[0] ?? null;
}

/** The page image of a product: the first image's src variant, else its first listed path. */
export function srcOf(product: Pick<Product, 'images' | 'imagePath'>): string | null {
  return product.images[0]?.src ?? mediaPaths(product)[0] ?? null;
}

let lastStamp = 0;
/** Strictly increasing, so the eviction order is the order images were stored even within one millisecond. */
function stamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

async function download(url: string, doFetch: typeof fetch): Promise<Blob | null> {
  try {
    const res = await doFetch(url, { cache: 'no-cache' });
    if (!res.ok) return null;
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('image/')) return null;
    return await res.blob();
  } catch {
    return null;
  }
}

/**
 * Downloads the card image of every product that has none stored yet and
 * drops stored images no current product points at. Failures are skipped
 * (the worker fetches them again the next time a card asks). Returns how many
 * images were stored.
 */
export function storeThumbnails(options: ImageOptions = {}): Promise<number> {
  // One filler at a time (the worker's install, activate and sync messages can overlap), or two
  // runs download the same images.
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? locks.request('storefront-images', () => fillThumbnails(options)) : fillThumbnails(options);
}

async function fillThumbnails(options: ImageOptions): Promise<number> {
  const store = options.store ?? defaultDb;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const origin = options.origin ?? currentOrigin();
  const products = await allProducts(store);

  const wanted = new Map<string, number>();
  const pageVariants = new Set<string>();
  for (const p of products) {
    const thumb = imageKey(thumbOf(p) ?? '', origin);
    if (isStorable(thumb) && wanted.size < MAX_THUMBS) wanted.set(thumb, p.productID);
    for (const img of p.images) {
      const src = imageKey(img.src, origin);
      if (src) pageVariants.add(src);
    }
    for (const path of mediaPaths(p)) {
      const key = imageKey(path, origin);
      if (key) pageVariants.add(key);
    }
  }

  // Keys only: reading the rows would open every stored blob.
  const stored = (await store.images.toCollection().primaryKeys()) as string[];
  const have = new Set(stored);
  const stale = stored.filter((url) => !wanted.has(url) && !pageVariants.has(url));
  if (stale.length) await store.images.bulkDelete(stale);

  const missing = [...wanted].filter(([url]) => !have.has(url));
  let count = 0;
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const entry = missing[next++];
      if (!entry) break;
      const [url, productID] = entry;
      const blob = await download(url, doFetch);
      if (!blob) continue;
      await store.images.put({ url, blob, productID, storedAt: stamp(), kind: 'thumb' });
      count += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count;
}

/** Keeps an image body the worker just fetched from the network, then trims page images to the bound. */
export async function keepImage(
  url: string,
  blob: Blob,
  productID: number,
  kind: 'thumb' | 'src',
  store: ShopDatabase = defaultDb,
): Promise<void> {
  const row: StoredImage = { url, blob, productID, storedAt: stamp(), kind };
  await store.images.put(row);
  if (kind === 'src') await trimPageImages(store);
}

async function trimPageImages(store: ShopDatabase): Promise<void> {
  const pages = await store.images
    .orderBy('storedAt')
    .filter((i) => i.kind !== 'thumb')
    .primaryKeys();
  const excess = pages.length - MAX_PAGE_IMAGES;
  if (excess > 0) await store.images.bulkDelete(pages.slice(0, excess));
}

/** Stores the page variant of a product the shopper opened (called by the product page or the worker). */
export async function storeProductImage(product: Product, options: ImageOptions = {}): Promise<boolean> {
  const store = options.store ?? defaultDb;
  const origin = options.origin ?? currentOrigin();
  const key = imageKey(srcOf(product) ?? '', origin);
  if (!isStorable(key)) return false;
  if (await store.images.get(key)) {
    // Seen again: move it to the back of the eviction line.
    await store.images.update(key, { storedAt: stamp() });
    return true;
  }
  const blob = await download(key, options.fetch ?? globalThis.fetch.bind(globalThis));
  if (!blob) return false;
  await keepImage(key, blob, product.productID, 'src', store);
  return true;
}

/**
 * Which product and variant a requested image belongs to, for images the
 * worker meets on the network. A linear scan over the catalogue, memoised
 * until the next sync changes it.
 */
let owners: { stamp: string; map: Map<string, { productID: number; kind: 'thumb' | 'src' }> } | null = null;

export async function imageOwner(
  key: string,
  store: ShopDatabase = defaultDb,
  origin = currentOrigin(),
): Promise<{ productID: number; kind: 'thumb' | 'src' } | null> {
  const synced = await store.meta.get('lastSyncedAt');
  const stamp = `${store.name}:${String(synced?.value ?? '')}`;
  if (!owners || owners.stamp !== stamp) {
    const map = new Map<string, { productID: number; kind: 'thumb' | 'src' }>();
    for (const p of await allProducts(store)) {
      for (const img of p.images) {
        const thumb = imageKey(img.thumb, origin);
        const src = imageKey(img.src, origin);
        if (src) map.set(src, { productID: p.productID, kind: 'src' });
        if (thumb) map.set(thumb, { productID: p.productID, kind: 'thumb' });
      }
      for (const path of mediaPaths(p)) {
        const k = imageKey(path, origin);
        if (k && !map.has(k)) map.set(k, { productID: p.productID, kind: 'src' });
      }
    }
    owners = { stamp, map };
  }
  return owners.map.get(key) ?? null;
}
