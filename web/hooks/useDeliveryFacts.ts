/**
 * What the pages' delivery texts are made from (domain/delivery-words.ts, domain/product-page.ts):
 * the device's copy of the delivery areas and the photo cake's notice, both kept by the
 * catalogue sync. The areas stay `undefined` until IndexedDB answers and empty until the first
 * sync brings them: either way the texts say the neutral line.
 */
import type { DeliveryFacts } from '../../domain/delivery-words.js';
import { DEFAULT_SETTINGS } from '../../domain/settings.js';
import { useDeliveryFacts as useFacts } from './useDelivery.js';

/** From the page's one read of the delivery facts (`useDelivery.ts`). */
export function useDeliveryFacts(): DeliveryFacts {
  const facts = useFacts();
  return { areas: facts?.areas, noticeDays: (facts?.settings ?? DEFAULT_SETTINGS).photoCakeNoticeDays };
}
