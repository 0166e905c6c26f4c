/**
 * Live reads of the device's store that the first screen makes (home's sections, the header's
 * cart, the status line); the other screens' reads are in `useProducts.ts`, so they load with
 * those screens and not on every first visit. Each returns `undefined` only until
 * IndexedDB answers the first time (a few milliseconds), so screens render
 * nothing rather than a spinner in that moment, and re-render by themselves
 * when the worker's sync or another tab changes the rows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';
import type { CartLine } from '../../domain/cart.js';
import { lastSyncedAt } from '../../sw/catalogue-sync.js';
import { db } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { categoryProductsIn, chunksOfCategory, hasProducts } from '../../sw/product-chunks.js';

/**
 * `limit` products of a category in a random order that stays put while the screen is open (as
 * `useStableShuffle` in useProducts.ts), reading only what it shows: the chunks holding the
 * category (the index only), each ranked at random once, read in that order until `limit` of the
 * category's products are in hand. Home's sections re-run on every page a first sync stores;
 * reading every product of three categories each time was most of the page's work at 10,000
 * products.
 *
 * Also `undefined` while the category has none on the device because a first visit's catalogue is
 * still on its way (never synced, nothing stored), decided in the same read as the products: as a
 * query of its own, it heard of the first page's products before the section did, and the section
 * collapsed for a moment and came back (a layout shift on every first visit).
 */
export function useSomeProductsInCategoryId(categoryID: number, limit: number): StoredProduct[] | undefined {
  const ranks = useRef(new Map<number, number>());
  return useLiveQuery(async () => {
    const known = ranks.current;
    const rank = (key: number) => {
      const r = known.get(key) ?? Math.random();
      known.set(key, r);
      return r;
    };
    const chunks = (await chunksOfCategory(db, categoryID)).sort((a, b) => rank(-1 - a) - rank(-1 - b));
    const found: StoredProduct[] = [];
    // Chunks ranked under negative keys, products under their ids: one map for both, never mixed up.
    for (let i = 0; i < chunks.length && found.length < limit; i += 2) {
      found.push(...(await categoryProductsIn(db, chunks.slice(i, i + 2), categoryID)));
    }
    if (!found.length && (await lastSyncedAt()) === null && !(await hasProducts(db))) return;
    return found.sort((a, b) => rank(a.productID) - rank(b.productID)).slice(0, limit);
  }, [categoryID, limit]);
}

export function useCartLines(): CartLine[] | undefined {
  return useLiveQuery(() => db.cart.orderBy('addedAt').toArray(), []);
}

/** When the catalogue last synced (ms), `null` when it never has; tells "not found" from "not here yet". */
export function useLastSynced(): number | null | undefined {
  return useLiveQuery(() => lastSyncedAt(), []);
}
