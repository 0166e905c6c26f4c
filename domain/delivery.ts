/**
 * Where and when the shop delivers (spec section 9). The checkout form and the
 * server both read these rules, so the charge the shopper sees is the charge
 * the server adds, and a date the form offers is a date the server accepts.
 * Dates and the clock are India's (`india-time.ts`).
 */
import { addDays, indiaClock, isCalendarDate } from './india-time.js';

export const DELIVERY_STATES = ['Punjab', 'Haryana', 'Chandigarh'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const CITIES_BY_STATE: Readonly<Record<DeliveryState, readonly string[]>> = {
  Punjab: ['Mohali', 'Kharar', 'Zirakpur'],
  Haryana: ['Panchkula'],
  Chandigarh: ['Chandigarh'],
};

/**
 * The cities delivered the same day: every city of the delivery table, the
 * one fact the product bullets, FAQ, shipping details, About us and the demo
 * descriptions all say. The city that is also its state comes first (the
 * shop's home, Chandigarh), then the table's order.
 */
export const SAME_DAY_CITIES: readonly string[] = DELIVERY_STATES.flatMap((s) => CITIES_BY_STATE[s]).sort(
  (a, b) =>
    Number(DELIVERY_STATES.includes(b as DeliveryState)) -
    Number(DELIVERY_STATES.includes(a as DeliveryState)),
);
/** "Chandigarh, Mohali, Kharar, Zirakpur and Panchkula". */
export const SAME_DAY_AREAS: string = `${SAME_DAY_CITIES.slice(0, -1).join(', ')} and ${SAME_DAY_CITIES[SAME_DAY_CITIES.length - 1]}`;

/** Rupees by "State/City"; the spec's "any other 0" is the fallback of `deliveryCharge`. */
const CHARGES: Readonly<Record<string, number>> = {
  'Chandigarh/Chandigarh': 200,
  'Punjab/Kharar': 200,
  'Punjab/Zirakpur': 250,
  'Punjab/Mohali': 150,
  'Haryana/Panchkula': 300,
};

export function isDeliveryState(state: string): state is DeliveryState {
  return (DELIVERY_STATES as readonly string[]).includes(state);
}

export function citiesOf(state: string): readonly string[] {
  return isDeliveryState(state) ? CITIES_BY_STATE[state] : [];
}

/** A state and city pair the checkout offers. Names match exactly, as the dropdowns send them. */
export function isDeliverable(state: string, city: string): boolean {
  return citiesOf(state).includes(city);
}

export function deliveryCharge(state: string, city: string): number {
  return CHARGES[`${state}/${city}`] ?? 0;
}

/** Orders at or after 18:00 India time can no longer be delivered the same day. */
export const SAME_DAY_CUTOFF_HOUR = 18;
/** How far ahead a delivery can be booked: longer than any phone stays offline, shorter than a typo's year. */
export const MAX_DAYS_AHEAD = 90;

/** The spec: the minimum is today, or tomorrow from 6 PM on (India time). Also the form's default. */
export function earliestDeliveryDate(now: Date): string {
  const { date, hour } = indiaClock(now);
  return hour >= SAME_DAY_CUTOFF_HOUR ? addDays(date, 1) : date;
}

export function latestDeliveryDate(now: Date): string {
  return addDays(indiaClock(now).date, MAX_DAYS_AHEAD);
}

export type DeliveryDateCheck = { ok: true } | { ok: false; reason: 'invalid' | 'too-early' | 'too-late' };

/** YYYY-MM-DD strings compare correctly as text, so no Date arithmetic is needed here. */
export function checkDeliveryDate(date: string, now: Date): DeliveryDateCheck {
  if (!isCalendarDate(date)) return { ok: false, reason: 'invalid' };
  if (date < earliestDeliveryDate(now)) return { ok: false, reason: 'too-early' };
  if (date > latestDeliveryDate(now)) return { ok: false, reason: 'too-late' };
  return { ok: true };
}

export { isValidPincode } from './pincode.js';
