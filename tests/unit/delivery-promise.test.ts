/**
 * The product page's delivery promise (domain/delivery-promise.ts) over the demo shop's slots and
 * the seeded areas: the times of day and the shop's facts that change the answer.
 */
import { describe, expect, it } from 'vitest';
import { type DeliveryArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { deliveryPromise, type PromiseFacts, promiseText } from '../../domain/delivery-promise.js';
import { addDays } from '../../domain/india-time.js';
import { DEMO_SLOTS, type DeliverySlot, STANDARD_SLOT } from '../../domain/slots.js';

const slots: DeliverySlot[] = [STANDARD_SLOT, ...DEMO_SLOTS].map((s) => ({
  ...s,
  weekdays: [...s.weekdays],
  isDefault: s.slotID === STANDARD_SLOT.slotID,
  retired: false,
}));
/** An instant of 2026-11-27 (a Friday) in India time. */
const at = (hhmm: string) => new Date(`2026-11-27T${hhmm}:00+05:30`);
const TODAY = '2026-11-27';
const facts = (over: Partial<PromiseFacts> = {}): PromiseFacts => ({
  areas: SEED_AREAS,
  slots,
  closures: [],
  photoCake: false,
  noticeDays: 1,
  now: at('11:00'),
  ...over,
});
const say = (pincode: string, f: PromiseFacts) => promiseText(deliveryPromise(pincode, f), f.now);

describe('the delivery promise', () => {
  it('promises today by 9 PM before the 6 PM cut-off, with the paid slots still open', () => {
    const f = facts({ now: at('11:00') });
    expect(say('160062', f)).toBe(
      'Delivers to Mohali (160062) · today until 9 PM if you order by 6 PM · ₹150 · Evening or Night +₹100 · Midnight +₹250',
    );
    const p = deliveryPromise('160062', f);
    expect(p.kind === 'delivers' && p.date).toBe(TODAY);
  });

  it("after 6 PM offers tonight's Midnight until 9 PM, then tomorrow", () => {
    expect(say('160062', facts({ now: at('18:30') }))).toBe(
      'Delivers to Mohali (160062) · today 11 PM – 12 AM (Midnight +₹250) if you order by 9 PM · ₹150',
    );
    const late = deliveryPromise('160017', facts({ now: at('21:15') }));
    expect(late).toMatchObject({ kind: 'delivers', date: addDays(TODAY, 1), slot: { name: 'Standard' } });
    expect(promiseText(late, at('21:15'))).toMatch(
      /^Delivers to Chandigarh \(160017\) · tomorrow until 9 PM · ₹200 · /,
    );
  });

  it('skips a closed date', () => {
    const f = facts({ closures: [{ date: TODAY, message: 'Closed for Diwali' }] });
    expect(deliveryPromise('134109', f)).toMatchObject({ kind: 'delivers', date: addDays(TODAY, 1) });
    expect(say('134109', f)).toContain('Delivers to Panchkula (134109) · tomorrow until 9 PM · ₹300');
  });

  it('leaves out a full Midnight when the counts are known, and keeps it when they are not', () => {
    const full = facts({ now: at('11:00'), booked: (_date, id) => (id === 6 ? 10 : 0) });
    expect(say('160062', full)).not.toContain('Midnight');
    expect(say('160062', facts({ booked: () => null }))).toContain('Midnight +₹250');
    // After 6 PM with Midnight full, today is gone: tomorrow's Standard is the promise.
    const evening = facts({ now: at('19:00'), booked: (date, id) => (id === 6 && date === TODAY ? 10 : 0) });
    expect(deliveryPromise('160062', evening)).toMatchObject({
      date: addDays(TODAY, 1),
      slot: { name: 'Standard' },
    });
  });

  it('gives a photo cake its notice, from the shop setting', () => {
    expect(deliveryPromise('160062', facts({ photoCake: true }))).toMatchObject({ date: addDays(TODAY, 1) });
    expect(deliveryPromise('160062', facts({ photoCake: true, noticeDays: 3 }))).toMatchObject({
      date: addDays(TODAY, 3),
    });
    expect(deliveryPromise('160062', facts({ photoCake: true, noticeDays: 0 }))).toMatchObject({
      date: TODAY,
    });
  });

  it('starts tomorrow at a pincode without same-day delivery, and only with its own slots', () => {
    const areas: DeliveryArea[] = [
      ...SEED_AREAS.filter((a) => a.pincode !== '140301'),
      { pincode: '140301', city: 'Kharar', state: 'Punjab', charge: 200, sameDay: false, slotIDs: [1] },
    ];
    const p = deliveryPromise('140301', facts({ areas }));
    expect(p).toMatchObject({
      kind: 'delivers',
      date: addDays(TODAY, 1),
      slot: { name: 'Standard' },
      extras: [],
    });
    expect(promiseText(p, at('11:00'))).toBe('Delivers to Kharar (140301) · tomorrow until 9 PM · ₹200');
  });

  it('refuses a pincode outside the areas, and names where the shop delivers', () => {
    const p = deliveryPromise('110001', facts());
    expect(p).toEqual({
      kind: 'outside',
      pincode: '110001',
      areasText: 'Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300',
    });
    expect(promiseText(p, at('11:00'))).toBe("We don't deliver to 110001 yet.");
    expect(deliveryPromise('01234', facts()).kind).toBe('invalid');
    expect(deliveryPromise('012345', facts()).kind).toBe('invalid');
  });

  it('says so when no date is open at all', () => {
    const p = deliveryPromise('160062', facts({ slots: slots.map((s) => ({ ...s, weekdays: [] })) }));
    expect(p.kind).toBe('no-date');
  });
});
