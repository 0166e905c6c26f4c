/**
 * The device's categories, for the shop's navigation (domain/shop-nav.ts, domain/shop-menu.ts):
 * one live read of the small categories table, shared by the home page and the header's menu, so
 * a category the owner adds or removes changes both with the sync that brings it. `undefined`
 * until the device answers, and while it has synced nothing yet (the fixed layout then stands
 * rather than an empty menu).
 */
import { liveQuery, type Subscription } from 'dexie';
import { useSyncExternalStore } from 'react';
import type { Category } from '../../domain/catalogue.js';
import { db } from '../../sw/db.js';

let categories: Category[] | undefined;
let subscription: Subscription | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  subscription ??= liveQuery(() => db.categories.toArray()).subscribe({
    next: (rows: Category[]) => {
      categories = rows.length ? rows : undefined;
      for (const l of listeners) l();
    },
    error: () => {},
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      subscription?.unsubscribe();
      subscription = null;
    }
  };
}

const read = () => categories;

export function useDeviceCategories(): Category[] | undefined {
  return useSyncExternalStore(subscribe, read, read);
}
