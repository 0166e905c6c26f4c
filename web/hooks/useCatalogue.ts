import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';
import type { CartLine } from '../../domain/cart.js';
import type { Category } from '../../domain/catalogue.js';
import { lastSyncedAt } from '../../sw/catalogue-sync.js';
import { db, type StoredProduct } from '../../sw/db.js';

/**
 * Live reads of the device's store. Each returns `undefined` only until
 * IndexedDB answers the first time (a few milliseconds), so screens render
 * nothing rather than a spinner in that moment, and re-render by themselves
 * when the worker's sync or another tab changes the rows.
 */

export function useAllProducts(): StoredProduct[] | undefined {
  return useLiveQuery(() => db.products.toArray(), []);
}

export function useProductsInCategoryId(categoryID: number): StoredProduct[] | undefined {
  return useLiveQuery(() => db.products.where('categoryIds').equals(categoryID).toArray(), [categoryID]);
}

/**
 * `limit` products of a category in a random order that stays put while the screen is open (as
 * `useStableShuffle`), reading only what it shows: the category's keys from the index, then the
 * chosen rows. Home's sections re-run on every page a first sync stores; reading every product
 * of three categories each time was most of the page's work at 10,000 products (issue 17).
 */
export function useSomeProductsInCategoryId(categoryID: number, limit: number): StoredProduct[] | undefined {
  const ranks = useRef(new Map<number, number>());
  return useLiveQuery(async () => {
    const ids = (await db.products.where('categoryIds').equals(categoryID).primaryKeys()) as number[];
    const known = ranks.current;
    for (const id of ids) if (!known.has(id)) known.set(id, Math.random());
    const chosen = ids.sort((a, b) => (known.get(a) ?? 0) - (known.get(b) ?? 0)).slice(0, limit);
    const rows = await db.products.bulkGet(chosen);
    return rows.filter((p): p is StoredProduct => p !== undefined);
  }, [categoryID, limit]);
}

/** `null` once the store has answered that there is no such product. */
export function useProduct(productID: number | null): StoredProduct | null | undefined {
  return useLiveQuery(
    async () => (productID === null ? null : ((await db.products.get(productID)) ?? null)),
    [productID],
  );
}

export function useCategories(): Category[] | undefined {
  return useLiveQuery(() => db.categories.orderBy('categoryName').toArray(), []);
}

export function useCartLines(): CartLine[] | undefined {
  return useLiveQuery(() => db.cart.orderBy('addedAt').toArray(), []);
}

/** When the catalogue last synced (ms), `null` when it never has; tells "not found" from "not here yet". */
export function useLastSynced(): number | null | undefined {
  return useLiveQuery(() => lastSyncedAt(), []);
}

/**
 * A random order that stays put while the screen is open: each product gets
 * a random rank the first time it is seen, so a price change arriving from
 * sync updates a card in place instead of reshuffling the grid under the
 * shopper's finger. `limit` keeps the first N of that order.
 */
export function useStableShuffle<T extends { productID: number }>(
  items: readonly T[] | undefined,
  limit = Number.POSITIVE_INFINITY,
): T[] | undefined {
  const ranks = useRef(new Map<number, number>());
  if (!items) return undefined;
  const known = ranks.current;
  // Ranks are handed out in list order before sorting, so each product's rank never depends on the sort's visits.
  for (const item of items) if (!known.has(item.productID)) known.set(item.productID, Math.random());
  const rank = (id: number): number => known.get(id) ?? 0;
  return [...items].sort((a, b) => rank(a.productID) - rank(b.productID)).slice(0, limit);
}
