import { describe, expect, it } from 'vitest';
import { indiaInstant } from '../../domain/india-time.js';
import {
  DEMO_SLOTS,
  type DeliverySlot,
  earliestSlotDate,
  nextFreeSlots,
  nightOfLabel,
  STANDARD_SLOT,
  slotOn,
  windowLabel,
} from '../../domain/slots.js';

/** The slot rule's cut-off table (issue 25), India time, with the clock a minute before and at each cut-off. */
const slot = (s: (typeof DEMO_SLOTS)[number] | typeof STANDARD_SLOT): DeliverySlot => ({
  ...s,
  weekdays: [...s.weekdays],
  isDefault: s.slotID === 1,
  retired: false,
  position: s.position ?? 0,
});
const SLOTS = [slot(STANDARD_SLOT), ...DEMO_SLOTS.map(slot)];
const DAY = '2026-11-26';
const at = (date: string, h: number, m = 0) => new Date(indiaInstant(date, h * 60 + m));
const state = (name: string, now: Date, booked: number | null = 0, closed: string | null = null) => {
  const s = SLOTS.find((x) => x.name === name);
  if (!s) throw new Error(name);
  return slotOn(s, DAY, now, { closed, booked }).state;
};

describe('the cut-off table, India time', () => {
  const table: [string, number, number][] = [
    ['Standard', 17, 18],
    ['Morning', 5, 6],
    ['Afternoon', 8, 9],
    ['Evening', 11, 12],
    ['Night', 14, 15],
    ['Midnight', 20, 21],
  ];
  for (const [name, before, cutoff] of table) {
    it(`${name}: open at ${before}:59, past at ${cutoff}:00`, () => {
      expect(state(name, at(DAY, before, 59))).toBe('open');
      expect(state(name, at(DAY, cutoff))).toBe('past');
    });
  }
  it('reads 18:00 India as 12:30 UTC whatever the zone', () => {
    expect(at(DAY, 18).toISOString()).toBe('2026-11-26T12:30:00.000Z');
  });
  it('a full, closed or off-day slot says so; places left count down', () => {
    expect(state('Midnight', at(DAY, 10), 10)).toBe('full');
    expect(state('Midnight', at(DAY, 10), 3, 'Closed for Diwali')).toBe('closed');
    const s = SLOTS.find((x) => x.name === 'Midnight') as DeliverySlot;
    expect(slotOn({ ...s, weekdays: [1] }, DAY, at(DAY, 10), { closed: null, booked: 0 }).state).toBe(
      'not-running',
    );
    expect(slotOn(s, DAY, at(DAY, 10), { closed: null, booked: 7 }).left).toBe(3);
    expect(windowLabel(s)).toBe('11 PM – 12 AM');
  });
  it("after 6 PM today's Midnight keeps the date on sale until 9 PM", () => {
    expect(earliestSlotDate(SLOTS, [], at(DAY, 18, 30))).toBe(DAY);
    expect(earliestSlotDate(SLOTS, [], at(DAY, 21))).toBe('2026-11-27');
    expect(earliestSlotDate(SLOTS, [{ date: '2026-11-27', message: 'x' }], at(DAY, 21))).toBe('2026-11-28');
  });
  it('offers the next free slots in order, skipping full ones', () => {
    const next = nextFreeSlots(SLOTS, [], at(DAY, 19), DAY, (d, id) => (d === DAY && id === 6 ? 10 : 0), 2);
    expect(next.map((o) => `${o.date} ${o.name}`)).toEqual(['2026-11-27 Standard', '2026-11-27 Morning']);
  });
});

describe('which night a late slot is', () => {
  const midnight = SLOTS.find((s) => s.name === 'Midnight');
  const standard = SLOTS.find((s) => s.name === 'Standard');
  if (!midnight || !standard) throw new Error('demo slots');

  it('says the night of the date, before the next day begins, for a window ending at midnight', () => {
    expect(nightOfLabel(midnight, '2026-11-28')).toBe('Night of 28 Nov, before the 29th begins');
    // Across a month and a year, with the ordinal of the day that begins.
    expect(nightOfLabel(midnight, '2026-11-30')).toBe('Night of 30 Nov, before the 1st begins');
    expect(nightOfLabel(midnight, '2026-12-31')).toBe('Night of 31 Dec, before the 1st begins');
    expect(nightOfLabel(midnight, '2027-02-01')).toBe('Night of 1 Feb, before the 2nd begins');
    expect(nightOfLabel(midnight, '2026-09-02')).toBe('Night of 2 Sep, before the 3rd begins');
    expect(nightOfLabel(midnight, '2026-11-10')).toBe('Night of 10 Nov, before the 11th begins');
    expect(nightOfLabel(midnight, '2026-11-11')).toBe('Night of 11 Nov, before the 12th begins');
    expect(nightOfLabel(midnight, '2026-11-20')).toBe('Night of 20 Nov, before the 21st begins');
    expect(nightOfLabel(midnight, '2026-11-21')).toBe('Night of 21 Nov, before the 22nd begins');
    expect(nightOfLabel(midnight, '2028-02-28')).toBe('Night of 28 Feb, before the 29th begins');
  });

  it('says nothing for a window that ends before midnight, or a date that is not one', () => {
    expect(nightOfLabel(standard, '2026-11-28')).toBeNull();
    expect(nightOfLabel({ end: 23 * 60 + 59 }, '2026-11-28')).toBeNull();
    expect(nightOfLabel(midnight, 'soon')).toBeNull();
  });
});
