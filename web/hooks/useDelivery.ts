/**
 * The device's copy of where the shop delivers and of its device settings, both kept by the
 * catalogue sync (sw/catalogue-sync.ts): the product page's "Check delivery", the checkout's
 * pincode and every page's delivery line read them here, online or not. `undefined` only until
 * IndexedDB first answers.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { readSettings, type ShopSettings } from '../../domain/settings.js';
import type { ClosedDate, DeliverySlot } from '../../domain/slot-schema.js';
import { db } from '../../sw/db.js';
import { savePincode } from '../storefront/delivery-pincode.js';

export function useDeliveryAreas(): DeliveryArea[] | undefined {
  return useLiveQuery(() => db.areas.toArray(), []);
}

/** One pincode's area; `null` when the shop does not deliver there, `undefined` while reading. */
export function useDeliveryArea(pincode: string | null): DeliveryArea | null | undefined {
  return useLiveQuery(async () => (pincode ? ((await db.areas.get(pincode)) ?? null) : null), [pincode]);
}

export function useShopSettings(): ShopSettings | undefined {
  return useLiveQuery(async () => readSettings(await db.settings.toArray()), []);
}

/** What the device knows that a delivery promise is made of (`domain/delivery-promise.ts`). */
export interface DeliveryFacts {
  areas: DeliveryArea[];
  slots: DeliverySlot[];
  closures: ClosedDate[];
  settings: ShopSettings;
}

/**
 * The areas, slots, closed dates and settings in one read: one live query, so an answer is never
 * made of an area from after a sync and slots from before it.
 */
export function useDeliveryFacts(): DeliveryFacts | undefined {
  return useLiveQuery(
    () =>
      db.transaction('r', [db.areas, db.slots, db.closedDates, db.settings], async () => ({
        areas: await db.areas.toArray(),
        slots: await db.slots.toArray(),
        closures: await db.closedDates.toArray(),
        settings: readSettings(await db.settings.toArray()),
      })),
    [],
  );
}

/**
 * Remembers a pincode for the header and the product pages only where the shop delivers: the
 * header's chip says "Delivering to" it, which must stay true. An outside pincode is answered
 * where it was typed, and not remembered.
 */
export async function rememberIfDelivered(pincode: string): Promise<void> {
  if (await db.areas.get(pincode)) savePincode(pincode);
}
