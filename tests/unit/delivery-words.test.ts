import { describe, expect, it } from 'vitest';
import { type DeliveryArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { DELIVERY_BY_PINCODE, deliveryLine, deliveryWhere } from '../../domain/delivery-words.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { DEMO_SLOTS, STANDARD_SLOT, slotOfferLabel, slotSurchargeLabel } from '../../domain/slots.js';

/**
 * What the pages say about delivery, from the delivery areas (domain/delivery-words.ts): the
 * seeded shop, two cities, one city, a shop with no same-day pincode, and a device that has no
 * areas yet. And the slots' words: a slot that adds nothing is not "Free" while the pincode's
 * charge applies.
 */

const area = (
  pincode: string,
  city: string,
  state: string,
  charge: number,
  sameDay = true,
): DeliveryArea => ({
  pincode,
  city,
  state,
  charge,
  slotIDs: null,
  sameDay,
});

describe('the delivery line, from the areas', () => {
  it("names the seeded shop's cities and charges", () => {
    expect(deliveryLine(SEED_AREAS)).toBe(
      'Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300',
    );
    expect(deliveryWhere(SEED_AREAS)).toBe(
      "We deliver in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, and nowhere else yet. The delivery charge is your pincode's: ₹150-₹300.",
    );
  });

  it('two cities: joined with "and", the range over their pincodes', () => {
    const two = [area('160062', 'Mohali', 'Punjab', 150), area('140301', 'Kharar', 'Punjab', 200)];
    expect(deliveryLine(two)).toBe('Same-day delivery in Mohali and Kharar, ₹150-₹200');
    expect(deliveryWhere(two)).toBe(
      "We deliver in Mohali and Kharar, and nowhere else yet. The delivery charge is your pincode's: ₹150-₹200.",
    );
  });

  it('one city at one charge: its name and that charge', () => {
    const one = [area('160062', 'Mohali', 'Punjab', 150), area('160055', 'Mohali', 'Punjab', 150)];
    expect(deliveryLine(one)).toBe('Same-day delivery in Mohali, ₹150');
    expect(deliveryWhere(one)).toBe(
      "We deliver in Mohali, and nowhere else yet. The delivery charge is your pincode's: ₹150.",
    );
  });

  it('names only the same-day cities as same-day, and says "Delivery" when no pincode has it', () => {
    const mixed = [
      area('160062', 'Mohali', 'Punjab', 150),
      area('134101', 'Panchkula', 'Haryana', 300, false),
    ];
    expect(deliveryLine(mixed)).toBe('Same-day delivery in Mohali, ₹150-₹300');
    expect(deliveryWhere(mixed)).toContain('We deliver in Mohali and Panchkula,');
    const none = mixed.map((a) => ({ ...a, sameDay: false }));
    expect(deliveryLine(none)).toBe('Delivery in Mohali and Panchkula, ₹150-₹300');
    // What cannot come today (a photo cake with notice) is said the same way over every city.
    expect(deliveryLine(mixed, false)).toBe('Delivery in Mohali and Panchkula, ₹150-₹300');
  });

  it('says a shop that charges nothing has no delivery charge', () => {
    const free = [area('160062', 'Mohali', 'Punjab', 0)];
    expect(deliveryLine(free)).toBe('Same-day delivery in Mohali, no delivery charge');
    expect(deliveryWhere(free)).toBe(
      'We deliver in Mohali, and nowhere else yet. There is no delivery charge.',
    );
  });

  it('promises nothing while the device has no areas yet', () => {
    for (const areas of [undefined, []]) {
      expect(deliveryLine(areas)).toBe(DELIVERY_BY_PINCODE);
      expect(deliveryWhere(areas)).toBe(`${DELIVERY_BY_PINCODE}.`);
    }
    expect(DELIVERY_BY_PINCODE).not.toMatch(/same-day|free|india|chandigarh|₹/i);
  });
});

describe("a slot's charge in words", () => {
  it('says "no extra charge" for a slot that adds nothing, never "Free"', () => {
    expect(slotSurchargeLabel(STANDARD_SLOT)).toBe('no extra charge');
    expect(slotOfferLabel(STANDARD_SLOT)).toBe('Standard, 10 AM – 9 PM, no extra charge');
    const midnight = DEMO_SLOTS.find((s) => s.name === 'Midnight');
    expect(midnight && slotOfferLabel(midnight)).toBe('Midnight, 11 PM – 12 AM, ₹250');
    expect(slotMessages.noSurchargeAlone).toBe('No extra charge');
    // "Free" is the picker's word only where the delivery itself costs nothing (tests/web/checkout).
    expect(Object.values(slotMessages).filter((m) => typeof m === 'string' && /\bfree\b/i.test(m))).toEqual([
      'Free',
      expect.stringMatching(/free slot/),
    ]);
  });
});
