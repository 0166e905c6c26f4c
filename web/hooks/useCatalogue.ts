import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';
import type { CartLine } from '../../domain/cart.js';
import { lastSyncedAt } from '../../sw/catalogue-sync.js';
import { db, type StoredProduct } from '../../sw/db.js';

/**
 * Live reads of the device's store that the first screen makes (home's sections, the header's
 * cart, the status line); the other screens' reads are in `useProducts.ts`, so they load with
 * those screens and not on every first visit. Each returns `undefined` only until
 * IndexedDB answers the first time (a few milliseconds), so screens render
 * nothing rather than a spinner in that moment, and re-render by themselves
 * when the worker's sync or another tab changes the rows.
 */

/**
 * `limit` products of a category in a random order that stays put while the screen is open (as
 * `useStableShuffle` in useProducts.ts), reading only what it shows: the category's keys from the index, then the
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

export function useCartLines(): CartLine[] | undefined {
  return useLiveQuery(() => db.cart.orderBy('addedAt').toArray(), []);
}

/** When the catalogue last synced (ms), `null` when it never has; tells "not found" from "not here yet". */
export function useLastSynced(): number | null | undefined {
  return useLiveQuery(() => lastSyncedAt(), []);
}
