/**
 * The device's products, stored a hundred to a row. Chromium's IndexedDB spends most of a put on
 * the request itself, not on the value (`tests/bench/catalogue-sync.bench.ts` measures it), so a
 * row of `productChunks` holds the products whose ids fall in one span (`chunkOf`), in id order,
 * with the union of their category ids as a multi-entry index; every read and write of products
 * goes through this file and `product-reads.ts` (the reads the first screen does not make, kept
 * out of its JavaScript).
 *
 * Reads read chunks one request each (`bulkGet`), never in one `getAll`: IndexedDB decodes a
 * request's values in one task, and the whole catalogue in one go was a long task on a phone.
 * Inside a live query they observe exactly the chunks they read.
 */
import type { EntityTable } from 'dexie';
import type { ProductChunk, StoredProduct } from './db-rows.js';

/** What these functions use of the database (`ShopDatabase` is one): its chunk table and span. */
export interface ChunkStore {
  readonly chunkSpan: number;
  readonly productChunks: EntityTable<ProductChunk, 'chunk'>;
}

/** Product ids per chunk: a one-product change rewrites a hundred products (about 100 KB), a first sync writes a row per hundred. */
export const CHUNK_SPAN = 100;

export function chunkOf(store: ChunkStore, productID: number): number {
  return Math.floor(productID / store.chunkSpan);
}

/** The products of the given chunks, in id order; a request per chunk (see the top of this file). */
export async function readChunks(store: ChunkStore, keys: readonly number[]): Promise<StoredProduct[]> {
  const chunks = await store.productChunks.bulkGet([...keys]);
  const out: StoredProduct[] = [];
  for (const c of chunks) if (c) for (const p of c.products) out.push(p);
  return out;
}

/** The keys of the chunks holding products of the category (cheap: the index only). */
export async function chunksOfCategory(store: ChunkStore, categoryID: number): Promise<number[]> {
  return (await store.productChunks.where('categoryIds').equals(categoryID).primaryKeys()) as number[];
}

/** The category's products within the given chunks. */
export async function categoryProductsIn(
  store: ChunkStore,
  keys: readonly number[],
  categoryID: number,
): Promise<StoredProduct[]> {
  return (await readChunks(store, keys)).filter((p) => p.categoryIds.includes(categoryID));
}

export async function hasProducts(store: ChunkStore): Promise<boolean> {
  return (await store.productChunks.count()) > 0;
}

/** Products grouped by the chunk their id falls in. */
function byChunk(store: ChunkStore, products: readonly StoredProduct[]): Map<number, StoredProduct[]> {
  const groups = new Map<number, StoredProduct[]>();
  for (const p of products) {
    const key = chunkOf(store, p.productID);
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  return groups;
}

export function packChunks(store: ChunkStore, products: readonly StoredProduct[]): ProductChunk[] {
  return [...byChunk(store, products)].map(([chunk, list]) => makeChunk(chunk, list));
}

function makeChunk(chunk: number, products: StoredProduct[]): ProductChunk {
  products.sort((a, b) => a.productID - b.productID);
  const categories = new Set<number>();
  for (const p of products) for (const id of p.categoryIds) categories.add(id);
  return { chunk, products, categoryIds: [...categories] };
}

/**
 * Writes products inside the caller's transaction: puts `put`, removes `deleteIds`, and, when
 * `range` is given (a full snapshot's page: ids in (from, to]), removes every product of that range
 * the page does not carry. Only the chunks touched are read and rewritten. Returns the ids removed
 * from the device.
 */
export async function writeProducts(
  store: ChunkStore,
  put: readonly StoredProduct[],
  deleteIds: readonly number[],
  range: { from: number; to: number } | null = null,
): Promise<number[]> {
  const incoming = byChunk(store, put);
  const keys = new Set(incoming.keys());
  for (const id of deleteIds) keys.add(chunkOf(store, id));
  if (range) {
    const upper = Number.isFinite(range.to) ? chunkOf(store, range.to) : Number.POSITIVE_INFINITY;
    const overlapping = await store.productChunks
      .where(':id')
      .between(chunkOf(store, range.from + 1), upper, true, true)
      .primaryKeys();
    for (const key of overlapping as number[]) keys.add(key);
  }
  const sorted = [...keys].sort((a, b) => a - b);
  const existing = await store.productChunks.bulkGet(sorted);
  const gone = new Set(deleteIds);
  const inRange = (id: number) => range !== null && id > range.from && id <= range.to;
  const removed: number[] = [];
  const puts: ProductChunk[] = [];
  const deletes: number[] = [];
  sorted.forEach((key, i) => {
    const fresh = incoming.get(key) ?? [];
    const freshIds = new Set(fresh.map((p) => p.productID));
    const kept: StoredProduct[] = [];
    for (const p of existing[i]?.products ?? []) {
      if (freshIds.has(p.productID)) continue;
      if (gone.has(p.productID) || inRange(p.productID)) removed.push(p.productID);
      else kept.push(p);
    }
    if (kept.length + fresh.length > 0) puts.push(makeChunk(key, [...kept, ...fresh]));
    else if (existing[i]) deletes.push(key);
  });
  if (puts.length) await store.productChunks.bulkPut(puts);
  if (deletes.length) await store.productChunks.bulkDelete(deletes);
  return removed;
}
