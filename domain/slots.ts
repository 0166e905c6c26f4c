/**
 * Delivery slots: the hours a shop sells. Each slot is a window of
 * the delivery day in India time, a surcharge in whole rupees, a cut-off, a
 * capacity (orders per day) and the weekdays it runs. The shop can also close
 * a whole date with a message. Checkout, the device's outbox and the server
 * all judge a slot with the functions here, so "Full", "Closed" and a passed
 * cut-off mean the same on every side.
 *
 * The slot rule (a departure from the spec's date-only checkout, README):
 * - A slot's cut-off is a minute of its delivery day, India time; negative
 *   reaches into the days before (-120 is 10 PM the day before). It is
 *   bookable while the clock is before it. Standard's is 18:00, the spec's
 *   6 PM same-day cut-off; the fixed windows close 3 hours before they start;
 *   Midnight at 21:00.
 * - An order without a slot is the shop's default slot (Standard), so the
 *   spec's `place-order` request works unchanged, and the spec's date rule
 *   (today, or tomorrow from 6 PM) is Standard's cut-off.
 * - A date can be booked when one of its slots can: after 6 PM today's
 *   Midnight is still on sale, so the date box starts at today until 9 PM.
 * - Capacity counts the orders of that slot and date that are not
 *   cancelled; the server counts under a lock, so the last place goes once.
 *
 * Minutes, not "HH:MM" strings, travel in the API: arithmetic stays integer
 * and a window ending at midnight is simply 1440.
 */
import * as v from 'valibot';
import { MAX_DAYS_AHEAD } from './delivery.js';
import {
  addDays,
  formatCalendarDay,
  indiaClock,
  indiaInstant,
  isCalendarDate,
  weekdayOf,
} from './india-time.js';
import { formatRupees } from './money.js';
import { slotMessages } from './slot-messages.js';
import { type ClosedDate, ClosedDateSchema, type DeliverySlot, DeliverySlotSchema } from './slot-schema.js';

const DAY_MINUTES = 24 * 60;
const int = v.pipe(v.number(), v.integer());

export const ALL_WEEKDAYS: readonly number[] = [0, 1, 2, 3, 4, 5, 6];

export { type ClosedDate, ClosedDateSchema, type DeliverySlot, DeliverySlotSchema } from './slot-schema.js';

/** Why a slot cannot be had on a date; `open` when it can. */
export const SLOT_STATES = ['open', 'full', 'closed', 'past', 'not-running', 'retired'] as const;
export type SlotState = (typeof SLOT_STATES)[number];

/** A slot on one date, as it stands: what the checkout's picker shows. */
export const SlotAvailabilitySchema = v.object({
  ...DeliverySlotSchema.entries,
  date: v.string(),
  state: v.picklist(SLOT_STATES),
  /** Places left that day; null when the slot has no limit (or, on the device, when it is not known). */
  left: v.nullable(int),
  /** ISO time of the cut-off. */
  cutoffAt: v.string(),
});
export type SlotAvailability = v.InferOutput<typeof SlotAvailabilitySchema>;

/** The public answer for one date: each live slot with what is left, and the date's closure. */
export const SlotsForDateSchema = v.object({
  date: v.string(),
  /** The shop's message when the date is closed; null when open. */
  closed: v.nullable(v.string()),
  slots: v.array(SlotAvailabilitySchema),
});
export type SlotsForDate = v.InferOutput<typeof SlotsForDateSchema>;

/** The slot an order carries, frozen when it was placed (an edit of the slot later changes no order). */
export const OrderSlotSchema = v.object({
  slotID: int,
  name: v.string(),
  start: int,
  end: int,
});
export type OrderSlot = v.InferOutput<typeof OrderSlotSchema>;

/** One slot offered to a shopper whose order's slot cannot be had. */
export const SlotOfferSchema = v.object({
  date: v.string(),
  slotID: int,
  name: v.string(),
  start: int,
  end: int,
  surcharge: int,
});
export type SlotOffer = v.InferOutput<typeof SlotOfferSchema>;

/** `data` of a refused order whose slot cannot be had (409): the slots of its date now, and the next free ones. */
export interface SlotRefusal {
  reason: 'slot';
  /**
   * `account-limit`: the slot has places, but this account already holds as many unpaid orders
   * in it on this date as the shop allows (`MAX_UNPAID_PER_SLOT`); paying online, or another
   * slot, still goes.
   */
  problem: Exclude<SlotState, 'open'> | 'unknown' | 'account-limit';
  date: string;
  slotID: number | null;
  slots: SlotAvailability[];
  next: SlotOffer[];
}

// ------------------------------------------------------------------ time

/** When the slot stops taking orders for `date` (ms since epoch). */
export function cutoffAt(slot: Pick<DeliverySlot, 'cutoff'>, date: string): number {
  return indiaInstant(date, slot.cutoff);
}

/** "9 AM", "12 PM", "11:30 PM"; 1440 and 0 are "12 AM". */
export function clockLabel(minute: number): string {
  const m = ((minute % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  const h = Math.floor(m / 60);
  const mm = m % 60;
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}${mm ? `:${String(mm).padStart(2, '0')}` : ''} ${h < 12 ? 'AM' : 'PM'}`;
}

/** "11 PM – 12 AM". */
export function windowLabel(slot: Pick<DeliverySlot, 'start' | 'end'>): string {
  return `${clockLabel(slot.start)} – ${clockLabel(slot.end)}`;
}

/** The summary's line, "Midnight delivery (11 PM – 12 AM)"; its amount is shown beside it. */
export function slotChargeLabel(slot: Pick<DeliverySlot, 'name' | 'start' | 'end'>): string {
  return `${slot.name} delivery (${windowLabel(slot)})`;
}

/** "1st", "2nd", "3rd", "11th", "22nd", "29th". */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * Which night a late slot is, in words: "Night of 28 Nov, before the 29th begins" for a window
 * that ends at midnight on 28 Nov. A shopper who wants a cake at the stroke of a birthday on the
 * 29th picks the date before; the picker and every summary say so, so nobody books the 29th's
 * Midnight and gets the cake a day late. Null for a window that ends before midnight, and for a
 * date that is not one.
 */
export function nightOfLabel(slot: Pick<DeliverySlot, 'end'>, date: string): string | null {
  if (slot.end < DAY_MINUTES || !isCalendarDate(date)) return null;
  // "28 Nov" of the shop's "Sat 28 Nov 2026" (Intl's en-IN says "Sept", the shop says "Sep").
  const day = formatCalendarDay(date).split(' ').slice(1, 3).join(' ');
  return `Night of ${day}, before the ${ordinal(Number(addDays(date, 1).slice(8)))} begins`;
}

/**
 * What a slot adds to the order: "₹250", or "no extra charge". Never "Free": the pincode's
 * delivery charge still applies (DESIGN.md's departure 11).
 */
export function slotSurchargeLabel(slot: Pick<DeliverySlot, 'surcharge'>): string {
  return slot.surcharge ? formatRupees(slot.surcharge) : slotMessages.noSurcharge;
}

/** "Midnight, 11 PM – 12 AM, ₹250"; "Standard, 10 AM – 9 PM, no extra charge". */
export function slotOfferLabel(slot: Pick<DeliverySlot, 'name' | 'start' | 'end' | 'surcharge'>): string {
  return `${slot.name}, ${windowLabel(slot)}, ${slotSurchargeLabel(slot)}`;
}

/** "HH:MM" of a minute of the day (the admin form's time boxes); 1440 is "24:00". */
export function minuteToTime(minute: number): string {
  const h = Math.floor(minute / 60);
  return `${String(h).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Minutes of "HH:MM" (00:00 to 24:00), or null. */
export function timeToMinute(time: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(time.trim());
  if (!m) return null;
  const minute = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minute <= DAY_MINUTES ? minute : null;
}

// ----------------------------------------------------------------- rules

export interface DayFacts {
  /** The date's closure message, or null. */
  closed: string | null;
  /** Orders of this slot on this date that are not cancelled; null when not known (offline). */
  booked: number | null;
}

/** One slot on one date at `now`: its state and places left. The order of checks is the order of reasons shown. */
export function slotOn(slot: DeliverySlot, date: string, now: Date, facts: DayFacts): SlotAvailability {
  const left =
    slot.capacity === null || facts.booked === null ? null : Math.max(0, slot.capacity - facts.booked);
  let state: SlotState = 'open';
  if (slot.retired) state = 'retired';
  else if (!slot.weekdays.includes(weekdayOf(date))) state = 'not-running';
  else if (facts.closed !== null) state = 'closed';
  else if (now.getTime() >= cutoffAt(slot, date)) state = 'past';
  else if (left === 0) state = 'full';
  return { ...slot, date, state, left, cutoffAt: new Date(cutoffAt(slot, date)).toISOString() };
}

/** The live slots of a date in the shop's order (position, then start). Retired slots are left out. */
export function slotsOn(
  slots: readonly DeliverySlot[],
  date: string,
  now: Date,
  closures: readonly ClosedDate[],
  booked: (slotID: number) => number | null,
): SlotAvailability[] {
  const closed = closures.find((c) => c.date === date)?.message ?? null;
  return sortSlots(slots.filter((s) => !s.retired)).map((s) =>
    slotOn(s, date, now, { closed, booked: booked(s.slotID) }),
  );
}

export function sortSlots<T extends Pick<DeliverySlot, 'position' | 'start' | 'slotID'>>(
  slots: readonly T[],
): T[] {
  return [...slots].sort((a, b) => a.position - b.position || a.start - b.start || a.slotID - b.slotID);
}

/** The slot an order without one gets; null when the shop has none left (never in a migrated database). */
export function defaultSlot(slots: readonly DeliverySlot[]): DeliverySlot | null {
  return slots.find((s) => s.isDefault && !s.retired) ?? null;
}

/**
 * The first date, from today (India), on which some live slot can still be booked,
 * not knowing which are full: the date box's minimum. Null when none within the booking horizon.
 */
export function earliestSlotDate(
  slots: readonly DeliverySlot[],
  closures: readonly ClosedDate[],
  now: Date,
  from: string = indiaClock(now).date,
): string | null {
  const today = indiaClock(now).date;
  for (let i = 0; i <= MAX_DAYS_AHEAD; i++) {
    const date = addDays(from < today ? today : from, i);
    if (slotsOn(slots, date, now, closures, () => null).some((s) => s.state === 'open')) return date;
  }
  return null;
}

/**
 * The slots a shopper is offered instead of one that cannot be had: the next
 * `count` open slots from `from`, date by date, each date's in the shop's order.
 * `booked(date, slotID)` is what the server counted (null on the device).
 */
export function nextFreeSlots(
  slots: readonly DeliverySlot[],
  closures: readonly ClosedDate[],
  now: Date,
  from: string,
  booked: (date: string, slotID: number) => number | null,
  count = 4,
  days = 14,
): SlotOffer[] {
  const out: SlotOffer[] = [];
  const today = indiaClock(now).date;
  const start = from < today ? today : from;
  for (let i = 0; i < days && out.length < count; i++) {
    const date = addDays(start, i);
    for (const s of slotsOn(slots, date, now, closures, (id) => booked(date, id))) {
      if (s.state !== 'open' || out.length >= count) continue;
      out.push({ date, slotID: s.slotID, name: s.name, start: s.start, end: s.end, surcharge: s.surcharge });
    }
  }
  return out;
}

// ---------------------------------------------------------------- input

export const SLOT_NAME_MAX = 40;
export const CLOSURE_MESSAGE_MAX = 200;
export const MAX_SURCHARGE = 100_000;
export const MAX_CAPACITY = 10_000;
/** How far before its day a cut-off may reach: a week. */
export const MIN_CUTOFF = -7 * DAY_MINUTES;

const minuteOfDay = (what: string, max: number) =>
  v.pipe(
    v.number(`${what} must be a number of minutes.`),
    v.integer(`${what} must be a whole number of minutes.`),
    v.minValue(0, `${what} must be between 00:00 and ${minuteToTime(max)}.`),
    v.maxValue(max, `${what} must be between 00:00 and ${minuteToTime(max)}.`),
  );

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u001F\u007F]/;
const WEEKDAYS_INVALID = 'The weekdays must be numbers from 0 (Sunday) to 6.';
const POSITION_MAX = 1000;
const POSITION_INVALID = `The position must be a whole number from 0 to ${POSITION_MAX}.`;

/** What the admin's Slots form sends to add or edit a slot. */
export const SlotInputSchema = v.pipe(
  v.object({
    name: v.pipe(
      v.string('Please enter a slot name.'),
      v.trim(),
      v.nonEmpty('Please enter a slot name.'),
      v.maxLength(SLOT_NAME_MAX, `A slot name has at most ${SLOT_NAME_MAX} characters.`),
      v.check((s) => !CONTROL.test(s), 'The slot name contains characters that are not allowed.'),
    ),
    start: minuteOfDay('The start', DAY_MINUTES - 1),
    end: minuteOfDay('The end', DAY_MINUTES),
    surcharge: v.pipe(
      v.number('The surcharge must be a whole number of rupees.'),
      v.minValue(0, 'The surcharge must be 0 or more.'),
      v.maxValue(MAX_SURCHARGE, `The surcharge must be at most ${MAX_SURCHARGE}.`),
      v.safeInteger('The surcharge must be a whole number of rupees.'),
    ),
    cutoff: v.pipe(
      v.number('The cut-off must be a number of minutes.'),
      v.integer('The cut-off must be a whole number of minutes.'),
      v.minValue(MIN_CUTOFF, 'The cut-off can be at most 7 days before the delivery day.'),
      v.maxValue(DAY_MINUTES, 'The cut-off must be on or before the delivery day.'),
    ),
    capacity: v.nullable(
      v.pipe(
        v.number('The capacity must be a whole number of orders.'),
        v.integer('The capacity must be a whole number of orders.'),
        v.minValue(0, 'The capacity must be 0 or more.'),
        v.maxValue(MAX_CAPACITY, `The capacity must be at most ${MAX_CAPACITY}.`),
      ),
    ),
    weekdays: v.pipe(
      v.array(
        v.pipe(
          v.number(WEEKDAYS_INVALID),
          v.integer(WEEKDAYS_INVALID),
          v.minValue(0, WEEKDAYS_INVALID),
          v.maxValue(6, WEEKDAYS_INVALID),
        ),
        WEEKDAYS_INVALID,
      ),
      v.minLength(1, 'Choose at least one weekday.'),
      v.transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    ),
    position: v.optional(
      v.pipe(
        v.number(POSITION_INVALID),
        v.integer(POSITION_INVALID),
        v.minValue(0, POSITION_INVALID),
        v.maxValue(POSITION_MAX, POSITION_INVALID),
      ),
      0,
    ),
  }),
  v.check((s) => s.end > s.start, 'The end must be after the start.'),
);
export type SlotInput = v.InferOutput<typeof SlotInputSchema>;
export type SlotInputIn = v.InferInput<typeof SlotInputSchema>;

export const ClosedDateParamsSchema = v.object({
  date: v.pipe(
    v.string('Dates are written YYYY-MM-DD.'),
    v.check(isCalendarDate, 'Dates are written YYYY-MM-DD, and must exist.'),
  ),
});

export const ClosureInputSchema = v.object({
  message: v.pipe(
    v.string('Please write the message shoppers see.'),
    v.trim(),
    v.nonEmpty('Please write the message shoppers see.'),
    v.maxLength(CLOSURE_MESSAGE_MAX, `The message has at most ${CLOSURE_MESSAGE_MAX} characters.`),
    v.check((s) => !CONTROL.test(s), 'The message contains characters that are not allowed.'),
  ),
});

export const SlotsQuerySchema = v.object({
  date: v.pipe(
    v.string('Ask for a date: ?date=YYYY-MM-DD.'),
    v.check(isCalendarDate, 'Dates are written YYYY-MM-DD, and must exist.'),
  ),
});

export const AdminSlotsSchema = v.object({
  slots: v.array(DeliverySlotSchema),
  closedDates: v.array(ClosedDateSchema),
});
export type AdminSlots = v.InferOutput<typeof AdminSlotsSchema>;

/** The demo shop's slots; Standard is made by the migration, the others by the demo seed. */
export const DEMO_SLOTS: readonly (SlotInput & { slotID: number })[] = [
  {
    slotID: 2,
    name: 'Morning',
    start: 9 * 60,
    end: 12 * 60,
    surcharge: 100,
    cutoff: 6 * 60,
    capacity: 15,
    weekdays: [...ALL_WEEKDAYS],
    position: 1,
  },
  {
    slotID: 3,
    name: 'Afternoon',
    start: 12 * 60,
    end: 15 * 60,
    surcharge: 100,
    cutoff: 9 * 60,
    capacity: 15,
    weekdays: [...ALL_WEEKDAYS],
    position: 2,
  },
  {
    slotID: 4,
    name: 'Evening',
    start: 15 * 60,
    end: 18 * 60,
    surcharge: 100,
    cutoff: 12 * 60,
    capacity: 15,
    weekdays: [...ALL_WEEKDAYS],
    position: 3,
  },
  {
    slotID: 5,
    name: 'Night',
    start: 18 * 60,
    end: 21 * 60,
    surcharge: 100,
    cutoff: 15 * 60,
    capacity: 15,
    weekdays: [...ALL_WEEKDAYS],
    position: 4,
  },
  {
    slotID: 6,
    name: 'Midnight',
    start: 23 * 60,
    end: 24 * 60,
    surcharge: 250,
    cutoff: 21 * 60,
    capacity: 10,
    weekdays: [...ALL_WEEKDAYS],
    position: 5,
  },
];

/** The migration's Standard: the spec's delivery, 10 AM to 9 PM, free, same-day until 6 PM, no limit. */
export const STANDARD_SLOT = {
  slotID: 1,
  name: 'Standard',
  start: 10 * 60,
  end: 21 * 60,
  surcharge: 0,
  cutoff: 18 * 60,
  capacity: null,
  weekdays: [...ALL_WEEKDAYS],
  position: 0,
} as const;
