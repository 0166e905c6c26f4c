import { describe, expect, it } from 'vitest';
import { SEED_AREAS } from '../../domain/delivery-areas.js';
import {
  areasAreOwn,
  demoParts,
  type GoLiveFacts,
  goLiveChecklist,
  goLiveMessages,
  isReady,
  profileIsOwn,
} from '../../domain/go-live.js';
import { DEFAULT_PROFILE, DEMO_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';

/** The "Make it yours" checklist's rules (domain/go-live.ts), each item on its own facts. */
const own: ShopProfile = {
  ...DEMO_PROFILE,
  name: 'Rose & Rye Bakers',
  care: { ...DEMO_PROFILE.care, phone: '+91 91234 56780', email: 'hello@roseandrye.in' },
};
const demo: GoLiveFacts = {
  profileSaved: true,
  profile: DEMO_PROFILE,
  areas: SEED_AREAS,
  provider: null,
  codOnlyConfirmed: false,
  policiesReviewed: false,
};
const doneOf = (facts: Partial<GoLiveFacts>) =>
  Object.fromEntries(goLiveChecklist({ ...demo, ...facts }).map((i) => [i.id, i.done]));

describe('the go-live checklist', () => {
  it('has nothing done for the demo shop, each item linking to its screen with what is missing', () => {
    const items = goLiveChecklist(demo);
    expect(items.map((i) => [i.id, i.done, i.path])).toEqual([
      ['profile', false, '/shop-profile'],
      ['fssai', false, '/shop-profile'],
      ['grievance', false, '/shop-profile'],
      ['areas', false, '/delivery-areas'],
      ['payments', false, '/shop-settings'],
      ['policies', false, '/policies'],
    ]);
    expect(items.every((i) => i.label && i.hint)).toBe(true);
  });

  it("ticks the profile only when saved with a name, phone and email that are not the demo's", () => {
    expect(profileIsOwn({ profileSaved: true, profile: own })).toBe(true);
    expect(profileIsOwn({ profileSaved: false, profile: own })).toBe(false);
    // Never saved: the default's name is the demo's.
    expect(profileIsOwn({ profileSaved: false, profile: DEFAULT_PROFILE })).toBe(false);
    expect(profileIsOwn({ profileSaved: true, profile: { ...own, name: ' bakery & blooms ' } })).toBe(false);
    // The demo's phone written another way is still the demo's.
    const demoPhone = { ...own, care: { ...own.care, phone: '098765 43210' } };
    expect(profileIsOwn({ profileSaved: true, profile: demoPhone })).toBe(false);
    const demoEmail = { ...own, care: { ...own.care, email: 'HELLO@bakeryandblooms.in' } };
    expect(profileIsOwn({ profileSaved: true, profile: demoEmail })).toBe(false);
    // One way to reach the shop is enough; none is not.
    expect(profileIsOwn({ profileSaved: true, profile: { ...own, care: { ...own.care, email: '' } } })).toBe(
      true,
    );
    const unreachable = { ...own, care: { ...own.care, phone: '', email: '' } };
    expect(profileIsOwn({ profileSaved: true, profile: unreachable })).toBe(false);
  });

  it('ticks the FSSAI number when set, and the grievance officer with a name and a phone or email', () => {
    expect(doneOf({ profile: { ...own, fssai: '12345678901234' } }).fssai).toBe(true);
    const officer = (grievance: Partial<ShopProfile['grievance']>) =>
      doneOf({ profile: { ...own, grievance: { ...own.grievance, ...grievance } } }).grievance;
    expect(officer({ name: 'Meera Kapoor', email: 'grievance@roseandrye.in' })).toBe(true);
    expect(officer({ name: 'Meera Kapoor', phone: '9876501234' })).toBe(true);
    expect(officer({ name: 'Meera Kapoor' })).toBe(false);
    expect(officer({ phone: '9876501234' })).toBe(false);
  });

  it('ticks the delivery areas once they are not the seed list: added, removed or changed', () => {
    expect(areasAreOwn(SEED_AREAS)).toBe(false);
    expect(areasAreOwn([...SEED_AREAS].reverse())).toBe(false);
    expect(areasAreOwn([])).toBe(false);
    const [first, ...rest] = SEED_AREAS;
    if (!first) throw new Error('no seed areas');
    expect(areasAreOwn(rest)).toBe(true);
    expect(areasAreOwn([{ ...first, charge: first.charge + 50 }, ...rest])).toBe(true);
    expect(areasAreOwn([{ ...first, sameDay: !first.sameDay }, ...rest])).toBe(true);
    expect(areasAreOwn([{ ...first, slotIDs: [1] }, ...rest])).toBe(true);
    expect(areasAreOwn([...SEED_AREAS, { ...first, pincode: '110001', city: 'New Delhi' }])).toBe(true);
  });

  it('ticks payments with Razorpay or Cash on Delivery only, never with the test provider', () => {
    expect(doneOf({ provider: 'razorpay' }).payments).toBe(true);
    expect(doneOf({ codOnlyConfirmed: true }).payments).toBe(true);
    expect(doneOf({ provider: 'test' }).payments).toBe(false);
    const hint = goLiveChecklist({ ...demo, provider: 'test' }).find((i) => i.id === 'payments')?.hint;
    expect(hint).toContain('no money moves');
  });

  it('ticks the policies when marked read, and is ready only with everything done and no demo left', () => {
    expect(doneOf({ policiesReviewed: true }).policies).toBe(true);
    const all = goLiveChecklist({
      profileSaved: true,
      profile: {
        ...own,
        fssai: '12345678901234',
        grievance: { name: 'Meera Kapoor', designation: 'Owner', phone: '', email: 'g@roseandrye.in' },
      },
      areas: SEED_AREAS.slice(1),
      provider: 'razorpay',
      codOnlyConfirmed: false,
      policiesReviewed: true,
    });
    expect(all.every((i) => i.done && i.hint === '')).toBe(true);
    const none = { products: 0, categories: 0, images: 0, coupon: false };
    expect(isReady(all, none)).toBe(true);
    expect(isReady(all, { ...none, coupon: true })).toBe(false);
    expect(isReady(goLiveChecklist(demo), none)).toBe(false);
  });

  it('says what the removal takes and what it took, in plain words', () => {
    expect(demoParts({ products: 86, categories: 14, images: 86, coupon: true })).toBe(
      '86 products, 14 categories, 86 pictures and the coupon SAVE200',
    );
    expect(demoParts({ products: 1, categories: 1, images: 0, coupon: false })).toBe(
      '1 product and 1 category',
    );
    expect(goLiveMessages.confirmRemoval({ products: 2, categories: 0, images: 2, coupon: false })).toBe(
      'Remove the demo catalogue: 2 products and 2 pictures? Orders, and the products and categories you added or changed, stay.',
    );
    expect(
      goLiveMessages.removed({ products: 0, categories: 0, images: 0, coupon: 'none', offerCleared: false }),
    ).toBe(goLiveMessages.nothingLeft);
    expect(
      goLiveMessages.removed({ products: 0, categories: 0, images: 0, coupon: 'ended', offerCleared: true }),
    ).toBe('Removed the coupon SAVE200. The product pages no longer advertise SAVE200.');
  });
});
