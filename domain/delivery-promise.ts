/**
 * The delivery promise for one pincode: what the product page's "Check delivery" says before any
 * login, "Delivers to Mohali (160062) · today until 9 PM if you order by 6 PM · ₹150 · Midnight
 * +₹250", or "We don't deliver to 110001 yet". It is worked out from the same facts the checkout
 * and the server judge an order by (the pincode's area, its slots with their cut-offs, the closed
 * dates, a photo cake's notice), so the page never promises a day the checkout then refuses. On the
 * device the places left are not known (`booked` answers null) and a slot is taken as open; online,
 * the day's counts make a full slot drop out of the answer.
 */

import { isValidPincode, MAX_DAYS_AHEAD } from './delivery.js';
import { type DeliveryArea, deliveryAreasText, findArea, slotsOfArea } from './delivery-areas.js';
import { earliestPhotoCakeDate } from './gifts.js';
import { addDays, formatCalendarDay, indiaClock } from './india-time.js';
import { formatRupees } from './money.js';
import type { ClosedDate, DeliverySlot } from './slot-schema.js';
import { clockLabel, type SlotAvailability, slotsOn, windowLabel } from './slots.js';

export interface PromiseFacts {
  areas: readonly DeliveryArea[];
  /** The shop's slots (retired ones are left out by the rules). */
  slots: readonly DeliverySlot[];
  closures: readonly ClosedDate[];
  /** A photo cake waits for the shop's notice (`photoCakeNoticeDays`). */
  photoCake: boolean;
  noticeDays: number;
  now: Date;
  /** Orders booked in a slot on a date; null (or absent) when not known, as on the device. */
  booked?: (date: string, slotID: number) => number | null;
}

export type DeliveryPromise =
  | { kind: 'invalid'; pincode: string }
  | { kind: 'outside'; pincode: string; areasText: string }
  | { kind: 'no-date'; pincode: string; area: DeliveryArea }
  | {
      kind: 'delivers';
      pincode: string;
      area: DeliveryArea;
      /** The earliest delivery date and the slot that gets there at the lowest charge. */
      date: string;
      slot: SlotAvailability;
      /** The other slots open that date that cost extra (Midnight), in the shop's order. */
      extras: SlotAvailability[];
    };

/**
 * The first date a pincode can get: today where same-day is offered, else tomorrow; a photo cake
 * not before its notice. The date's open slots may still all be past or full: see `openSlotsFrom`.
 */
export function firstDateFor(
  area: Pick<DeliveryArea, 'sameDay'>,
  facts: Pick<PromiseFacts, 'photoCake' | 'noticeDays' | 'now'>,
): string {
  const today = indiaClock(facts.now).date;
  const start = area.sameDay ? today : addDays(today, 1);
  const photo = facts.photoCake ? earliestPhotoCakeDate(facts.now, facts.noticeDays) : start;
  return photo > start ? photo : start;
}

/** The first date from `firstDateFor` on which some slot of the area is open, with that date's open slots. */
export function openSlotsFrom(
  area: DeliveryArea,
  facts: PromiseFacts,
): { date: string; open: SlotAvailability[] } | null {
  const first = firstDateFor(area, facts);
  const slots = slotsOfArea(area, facts.slots);
  for (let i = 0; i <= MAX_DAYS_AHEAD; i++) {
    const date = addDays(first, i);
    const open = slotsOn(
      slots,
      date,
      facts.now,
      facts.closures,
      (id) => facts.booked?.(date, id) ?? null,
    ).filter((s) => s.state === 'open');
    if (open.length) return { date, open };
  }
  return null;
}

export function deliveryPromise(pincode: string, facts: PromiseFacts): DeliveryPromise {
  if (!isValidPincode(pincode)) return { kind: 'invalid', pincode };
  const area = findArea(facts.areas, pincode);
  if (!area) return { kind: 'outside', pincode, areasText: deliveryAreasText(facts.areas) };
  const found = openSlotsFrom(area, facts);
  if (!found) return { kind: 'no-date', pincode, area };
  // The cheapest open slot is the promise; ties go to the shop's order (Standard first).
  const [slot] = [...found.open].sort((a, b) => a.surcharge - b.surcharge);
  if (!slot) return { kind: 'no-date', pincode, area };
  return {
    kind: 'delivers',
    pincode,
    area,
    date: found.date,
    slot,
    extras: found.open.filter((s) => s !== slot && s.surcharge > slot.surcharge),
  };
}

/** "today", "tomorrow" or "Sat 28 Nov 2026". */
function dayWord(date: string, now: Date): string {
  const today = indiaClock(now).date;
  if (date === today) return 'today';
  if (date === addDays(today, 1)) return 'tomorrow';
  return formatCalendarDay(date);
}

/** "Midnight +₹250", "Evening or Night +₹100", "4 time slots +₹100": the extras, one phrase per price. */
function extrasText(extras: readonly SlotAvailability[]): string[] {
  const byPrice = new Map<number, string[]>();
  for (const s of extras) byPrice.set(s.surcharge, [...(byPrice.get(s.surcharge) ?? []), s.name]);
  return [...byPrice].map(([price, names]) => {
    const who = names.length <= 2 ? names.join(' or ') : `${names.length} time slots`;
    return `${who} +${formatRupees(price)}`;
  });
}

/** The promise as one line, its parts joined by " · ". */
export function promiseText(p: DeliveryPromise, now: Date): string {
  switch (p.kind) {
    case 'invalid':
      return 'A pincode is 6 digits and does not start with 0.';
    case 'outside':
      return `We don't deliver to ${p.pincode} yet.`;
    case 'no-date':
      return `We deliver to ${p.area.city} (${p.pincode}), but no delivery date is open in the next ${MAX_DAYS_AHEAD} days.`;
    case 'delivers': {
      const { slot } = p;
      const day = dayWord(p.date, now);
      // A slot with no extra charge is "until 9 PM"; a paid window names itself.
      const when =
        slot.surcharge === 0
          ? `${day} until ${clockLabel(slot.end)}`
          : `${day} ${windowLabel(slot)} (${slot.name} +${formatRupees(slot.surcharge)})`;
      const cutoff = indiaClock(new Date(slot.cutoffAt));
      // The deadline is worth saying while it is today: "if you order by 6 PM".
      const deadline =
        cutoff.date === indiaClock(now).date
          ? ` if you order by ${clockLabel(cutoff.hour * 60 + cutoff.minute)}`
          : '';
      const charge = p.area.charge ? formatRupees(p.area.charge) : 'no delivery charge';
      const paid = slot.surcharge ? [] : extrasText(p.extras);
      return [`Delivers to ${p.area.city} (${p.pincode})`, `${when}${deadline}`, charge, ...paid].join(' · ');
    }
  }
}
