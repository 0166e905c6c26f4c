/**
 * When the shop delivers (spec section 9): the same-day cut-off and the booking horizon. The
 * checkout form and the server both read these rules, so a date the form offers is a date the
 * server accepts. Where it delivers, and at what charge, is the shop's delivery areas by pincode
 * (`delivery-areas.ts`), no longer a fixed table here. Dates and the clock are India's (`india-time.ts`).
 */
import { addDays, indiaClock, isCalendarDate } from './india-time.js';

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
