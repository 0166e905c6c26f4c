/**
 * The reads of the device's products that the first screen does not make (a product's page, the
 * cart, search, all products, a category's page): the chunk store itself is `product-chunks.ts`.
 */
import type { ProductChunk, StoredProduct } from './db-rows.js';
import {
  type ChunkStore,
  categoryProductsIn,
  chunkOf,
  chunksOfCategory,
  readChunks,
} from './product-chunks.js';

function findIn(chunk: ProductChunk | undefined, productID: number): StoredProduct | undefined {
  if (!chunk) return undefined;
  // In id order: a binary search, not a scan of a hundred.
  let lo = 0;
  let hi = chunk.products.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = chunk.products[mid] as StoredProduct;
    if (p.productID === productID) return p;
    if (p.productID < productID) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

export async function getProduct(store: ChunkStore, productID: number): Promise<StoredProduct | undefined> {
  return findIn(await store.productChunks.get(chunkOf(store, productID)), productID);
}

/** The products of `ids`, in that order (undefined where the device has none). */
export async function getProducts(
  store: ChunkStore,
  ids: readonly number[],
): Promise<(StoredProduct | undefined)[]> {
  const keys = [...new Set(ids.map((id) => chunkOf(store, id)))];
  const rows = await store.productChunks.bulkGet(keys);
  const chunks = new Map(keys.map((key, i) => [key, rows[i]]));
  return ids.map((id) => findIn(chunks.get(chunkOf(store, id)), id));
}

/** Every product, in id order. */
export async function allProducts(store: ChunkStore): Promise<StoredProduct[]> {
  return readChunks(store, (await store.productChunks.toCollection().primaryKeys()) as number[]);
}

/**
 * A slice of the catalogue: the products of up to `chunks` rows after the row `afterChunk` (from
 * the first when null), in id order, and the row to go on after (`next`, null at the end).
 */
export async function productSlice(
  store: ChunkStore,
  afterChunk: number | null,
  chunks: number,
): Promise<{ products: StoredProduct[]; next: number | null }> {
  const limit = Math.max(1, Math.floor(chunks));
  const rows =
    afterChunk === null
      ? store.productChunks.toCollection()
      : store.productChunks.where(':id').above(afterChunk);
  const keys = (await rows.limit(limit).primaryKeys()) as number[];
  return {
    products: await readChunks(store, keys),
    next: keys.length < limit ? null : (keys.at(-1) ?? null),
  };
}

/** The category's products, in id order. */
export async function productsInCategory(store: ChunkStore, categoryID: number): Promise<StoredProduct[]> {
  return categoryProductsIn(store, await chunksOfCategory(store, categoryID), categoryID);
}

export async function countProducts(store: ChunkStore): Promise<number> {
  let n = 0;
  await store.productChunks.each((c) => {
    n += c.products.length;
  });
  return n;
}
