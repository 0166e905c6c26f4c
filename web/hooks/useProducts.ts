/**
 * Live reads of the device's catalogue for the screens after the first (categories, all
 * products, a product's page), as `useCatalogue.ts` does for the first screen. Each returns
 * `undefined` only until IndexedDB answers the first time, and re-renders by itself when the
 * sync or another tab changes the rows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef } from 'react';
import type { Category } from '../../domain/catalogue.js';
import { isVisitSeed, visitOrder } from '../../domain/visit-order.js';
import { db } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { allProducts, getProduct, productsInCategory } from '../../sw/product-reads.js';

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

/*
 * The spec's random order of a category's products, kept for the visit: Back from a product
 * finds the same cards in the same places, and React Router's ScrollRestoration puts the page
 * where the shopper left it.
 *
 * The order is `domain/visit-order.ts`'s, from one seed per browser tab (sessionStorage: it
 * survives a reload, a new tab starts a new visit; a first visit takes the one the server chose for
 * the page, when it named one). ScrollRestoration scrolls once, as the screen commits: the cards must be
 * there in that very render, but the device's store answers a moment later. So the last order
 * shown of each list is kept in memory and shown until the store's answer replaces it.
 */

const SEED_KEY = 'shopVisitSeed';
const newSeed = () => Math.floor(Math.random() * 0xffffffff) + 1;
/** Only without storage (a privacy mode): then the order lasts as long as the page. */
let pageSeed: number | undefined;

/** The seed the server chose for this page's first visit (`api/pages`), if it names one. */
function seedOfPage(): number | null {
  const named = Number(document.querySelector('meta[name="visit-seed"]')?.getAttribute('content'));
  return isVisitSeed(named) ? named : null;
}

function visitSeed(): number {
  try {
    const kept = Number(sessionStorage.getItem(SEED_KEY));
    if (isVisitSeed(kept)) return kept;
    const made = seedOfPage() ?? newSeed();
    sessionStorage.setItem(SEED_KEY, String(made));
    return made;
  } catch {
    pageSeed ??= seedOfPage() ?? newSeed();
    return pageSeed;
  }
}

/** The last order shown of the lists seen lately, newest last. */
const lastShown = new Map<string, readonly { productID: number }[]>();
const KEEP_LISTS = 12;

/**
 * `items` in this visit's order for `list`; while `items` is still undefined (the store has not
 * answered yet), the order this list showed last time, if it showed before.
 */
export function useVisitOrder<T extends { productID: number }>(
  list: string,
  items: readonly T[] | undefined,
): readonly T[] | undefined {
  const ordered = useMemo(() => (items ? visitOrder(items, list, visitSeed()) : undefined), [items, list]);
  useEffect(() => {
    if (!ordered) return;
    lastShown.delete(list);
    lastShown.set(list, ordered);
    if (lastShown.size > KEEP_LISTS) lastShown.delete(lastShown.keys().next().value as string);
  }, [list, ordered]);
  return ordered ?? (lastShown.get(list) as readonly T[] | undefined);
}
