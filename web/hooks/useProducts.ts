import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';
import type { Category } from '../../domain/catalogue.js';
import { db, type StoredProduct } from '../../sw/db.js';
import { allProducts, getProduct, productsInCategory } from '../../sw/product-reads.js';

/**
 * Live reads of the device's catalogue for the screens after the first (categories, all
 * products, a product's page), as `useCatalogue.ts` does for the first screen. Each returns
 * `undefined` only until IndexedDB answers the first time, and re-renders by itself when the
 * sync or another tab changes the rows.
 */

export function useAllProducts(): StoredProduct[] | undefined {
  return useLiveQuery(() => allProducts(db), []);
}

export function useProductsInCategoryId(categoryID: number): StoredProduct[] | undefined {
  return useLiveQuery(() => productsInCategory(db, categoryID), [categoryID]);
}

/** `null` once the store has answered that there is no such product. */
export function useProduct(productID: number | null): StoredProduct | null | undefined {
  return useLiveQuery(
    async () => (productID === null ? null : ((await getProduct(db, productID)) ?? null)),
    [productID],
  );
}

export function useCategories(): Category[] | undefined {
  return useLiveQuery(() => db.categories.orderBy('categoryName').toArray(), []);
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
