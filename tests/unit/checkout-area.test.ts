/**
 * The checkout's rules from the pincode (domain/checkout.ts): the charge is the area's, a whole
 * pincode outside the areas is refused with where the shop delivers, State and City errors give
 * way to the pincode's, no same-day where the area has none, and the dates the form offers.
 */
import { describe, expect, it } from 'vitest';
import { checkoutDates, checkoutErrors, checkoutTotals, pincodeProblem } from '../../domain/checkout.js';
import { checkoutMessages } from '../../domain/checkout-messages.js';
import {
  areaMessages,
  type DeliveryArea,
  deliveryAreasText,
  SEED_AREAS,
} from '../../domain/delivery-areas.js';
import { addDays } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { DEMO_SLOTS, type DeliverySlot, STANDARD_SLOT } from '../../domain/slots.js';

const slots: DeliverySlot[] = [STANDARD_SLOT, ...DEMO_SLOTS].map((s) => ({
  ...s,
  weekdays: [...s.weekdays],
  isDefault: s.slotID === STANDARD_SLOT.slotID,
  retired: false,
}));
const at = (hhmm: string) => new Date(`2026-11-27T${hhmm}:00+05:30`);
const TODAY = '2026-11-27';
const TOMORROW = addDays(TODAY, 1);
const area = (pincode: string): DeliveryArea => {
  const found = SEED_AREAS.find((a) => a.pincode === pincode);
  if (!found) throw new Error(pincode);
  return found;
};
const mohali = area('160062');
const noSameDay: DeliveryArea = { ...mohali, sameDay: false };
const facts = (over: Partial<Parameters<typeof checkoutDates>[1]> = {}) => ({
  slots,
  closures: [],
  photoCake: false,
  noticeDays: 1,
  now: at('11:00'),
  ...over,
});
const request = (over: Partial<OrderRequestInput> = {}): OrderRequestInput => ({
  DeliveryDate: TODAY,
  CustomerName: 'Asha Verma',
  CustomerEmail: 'asha@example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 12, Sector 70',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: 750,
  OrderItems: [{ ProductID: 1, ProductName: 'Cake', Price: 600, Quantity: 1, ProductImage: '' }],
  ...over,
});

describe('checkout from the pincode', () => {
  it("charges the pincode's area, nothing until it is known", () => {
    const lines = [{ price: 600, quantity: 2 }];
    expect(checkoutTotals(lines, mohali, 0).deliveryCharge).toBe(150);
    expect(checkoutTotals(lines, area('134101'), 0).total).toBe(1200 + 300);
    expect(checkoutTotals(lines, null, 0)).toMatchObject({ deliveryCharge: 0, total: 1200 });
  });

  it('refuses a whole pincode outside the areas at once, with where the shop delivers', () => {
    const where = { areas: SEED_AREAS };
    expect(pincodeProblem('11000', { ...where, area: null })).toBeNull();
    expect(pincodeProblem('110001', { ...where, area: null })).toBe(
      "We don't deliver to 110001 yet. Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300.",
    );
    expect(pincodeProblem('012345', { ...where, area: null })).toBe(areaMessages.pincodeInvalid);
    expect(pincodeProblem('160062', { ...where, area: mohali })).toBeNull();
    // A phone that has not synced the areas yet knows nothing of the pincode, and says that.
    expect(pincodeProblem('160062', { areas: [], area: null })).toBe(checkoutMessages.areasNotOnPhone);
    // Still being looked up: nothing said yet.
    expect(pincodeProblem('160062', { ...where, area: undefined })).toBeNull();
  });

  it("the pincode's error stands for State and City; no same-day where the area has none", () => {
    const where = { areas: SEED_AREAS, area: null };
    const empty = checkoutErrors(
      request({ CustomerPincode: '', State: '', City: '' }),
      at('11:00'),
      undefined,
      where,
    );
    expect(empty).toMatchObject({ CustomerPincode: messages.pincodeRequired });
    expect(empty.State).toBeUndefined();
    expect(empty.City).toBeUndefined();
    const outside = checkoutErrors(
      request({ CustomerPincode: '110001', State: '', City: '' }),
      at('11:00'),
      undefined,
      where,
    );
    expect(outside.CustomerPincode).toBe(
      `${areaMessages.outside('110001')} ${deliveryAreasText(SEED_AREAS)}.`,
    );
    expect(checkoutErrors(request(), at('11:00'), undefined, { areas: SEED_AREAS, area: mohali })).toEqual(
      {},
    );
    expect(
      checkoutErrors(request(), at('11:00'), undefined, { areas: SEED_AREAS, area: noSameDay }).DeliveryDate,
    ).toBe(areaMessages.noSameDay('160062'));
  });

  it("offers the area's first open date: today where same-day, tomorrow where not, a photo cake's notice", () => {
    expect(checkoutDates(mohali, facts())).toEqual({ earliest: TODAY, suggested: TODAY });
    expect(checkoutDates(noSameDay, facts())).toEqual({ earliest: TOMORROW, suggested: TOMORROW });
    expect(checkoutDates(mohali, facts({ photoCake: true, noticeDays: 2 })).earliest).toBe(addDays(TODAY, 2));
    // After 6 PM tonight's Midnight can still be had, but the form suggests tomorrow (the spec's default).
    expect(checkoutDates(mohali, facts({ now: at('18:30') }))).toEqual({
      earliest: TODAY,
      suggested: TOMORROW,
    });
    // An area that gets only Standard: after its cut-off, today is gone.
    const standardOnly = { ...mohali, slotIDs: [STANDARD_SLOT.slotID] };
    expect(checkoutDates(standardOnly, facts({ now: at('18:30') })).earliest).toBe(TOMORROW);
    // No pincode yet: the shop's dates, with the photo cake's notice from the settings.
    expect(checkoutDates(null, facts({ photoCake: true, noticeDays: 3 })).earliest).toBe(addDays(TODAY, 3));
  });
});
