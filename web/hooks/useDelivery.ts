/**
 * The device's copy of where the shop delivers and of its device settings, both kept by the
 * catalogue sync (sw/catalogue-sync.ts): the product page's "Check delivery", the checkout's
 * pincode and every page's delivery line read them here, online or not. `undefined` only until
 * IndexedDB first answers.
 */
import { liveQuery, type Subscription } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { readSettings, type ShopSettings } from '../../domain/settings.js';
import type { ClosedDate, DeliverySlot } from '../../domain/slot-schema.js';
import { db } from '../../sw/db.js';
import { savePincode } from '../storefront/delivery-pincode.js';

export function useDeliveryAreas(): DeliveryArea[] | undefined {
  return useDeliveryFacts()?.areas;
}

/** One pincode's area; `null` when the shop does not deliver there, `undefined` while reading. */
export function useDeliveryArea(pincode: string | null): DeliveryArea | null | undefined {
  return useLiveQuery(async () => (pincode ? ((await db.areas.get(pincode)) ?? null) : null), [pincode]);
}

export function useShopSettings(): ShopSettings | undefined {
  return useDeliveryFacts()?.settings;
}

/** What the device knows that a delivery promise is made of (`domain/delivery-promise.ts`). */
export interface DeliveryFacts {
  areas: DeliveryArea[];
  slots: DeliverySlot[];
  closures: ClosedDate[];
  settings: ShopSettings;
}

const readFacts = (): Promise<DeliveryFacts> =>
  db.transaction('r', [db.areas, db.slots, db.closedDates, db.settings], async () => ({
    areas: await db.areas.toArray(),
    slots: await db.slots.toArray(),
    closures: await db.closedDates.toArray(),
    settings: readSettings(await db.settings.toArray()),
  }));

/**
 * One live query for the whole page, however many parts show delivery words: the product page had
 * six (its benefits, shipping details, Check delivery, the cake's notice), each reading every area
 * again and each answer one more render of the page, on its first visit's main thread. The
 * subscription lives while something on the page listens, and its answer is `undefined` again once
 * nothing does (a later page reads afresh).
 */
let facts: DeliveryFacts | undefined;
let subscription: Subscription | null = null;
const listeners = new Set<() => void>();

function subscribeFacts(listener: () => void): () => void {
  listeners.add(listener);
  subscription ??= liveQuery(readFacts).subscribe({
    next: (value) => {
      facts = value;
      for (const l of listeners) l();
    },
    // A failed read leaves the texts neutral (the `undefined` answer); the next change reads again.
    error: () => {},
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    subscription?.unsubscribe();
    subscription = null;
    facts = undefined;
  };
}

/**
 * The areas, slots, closed dates and settings in one read: one live query, so an answer is never
 * made of an area from after a sync and slots from before it. `undefined` until IndexedDB answers.
 */
export function useDeliveryFacts(): DeliveryFacts | undefined {
  return useSyncExternalStore(subscribeFacts, () => facts);
}

/**
 * Remembers a pincode for the header and the product pages only where the shop delivers: the
 * header's chip says "Delivering to" it, which must stay true. An outside pincode is answered
 * where it was typed, and not remembered.
 */
export async function rememberIfDelivered(pincode: string): Promise<void> {
  if (await db.areas.get(pincode)) savePincode(pincode);
}
