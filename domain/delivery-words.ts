/**
 * What the shop's pages say about delivery (product bullets, shipping details, About, the FAQs,
 * the footer), made from the delivery areas (domain/delivery-areas.ts) so no page promises a
 * town, a day or a price the checkout refuses (DESIGN.md's departure 11). A device that has no
 * areas yet (a first visit before its first catalogue sync) says the neutral line, which
 * promises nothing, rather than a list that may be wrong.
 */
import { chargeRangeText, citiesText, type DeliveryArea, deliveryAreasText } from './delivery-areas.js';

/** What the delivery texts are made from: the shop's areas (undefined until the device has them) and its photo cake notice. */
export interface DeliveryFacts {
  areas: readonly DeliveryArea[] | undefined;
  /** The `photoCakeNoticeDays` setting (domain/settings.ts). */
  noticeDays: number;
}

/** Said while the areas are not known on this device: true of every shop, promising nothing. */
export const DELIVERY_BY_PINCODE = 'Delivery dates and charges depend on your pincode';

/**
 * "Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300" (no
 * full stop: pages put it in a list or a sentence). `sameDay: false` for what cannot come
 * today (a photo cake with notice): "Delivery in …" over every city.
 */
export function deliveryLine(areas: readonly DeliveryArea[] | undefined, sameDay = true): string {
  if (!areas?.length) return DELIVERY_BY_PINCODE;
  return deliveryAreasText(sameDay ? areas : areas.map((a) => ({ ...a, sameDay: false })));
}

/**
 * The answer to "where do you deliver?": every city, and that the charge is the pincode's.
 * Whole sentences.
 */
export function deliveryWhere(areas: readonly DeliveryArea[] | undefined): string {
  if (!areas?.length) return `${DELIVERY_BY_PINCODE}.`;
  const charge = areas.every((a) => a.charge === 0)
    ? 'There is no delivery charge.'
    : `The delivery charge is your pincode's: ${chargeRangeText(areas)}.`;
  return `We deliver in ${citiesText(areas)}, and nowhere else yet. ${charge}`;
}
