/**
 * The coupon rules (domain/coupons.ts, domain/coupon-terms.ts): the minimum at its edge, a
 * percentage with its cap, the window's edges in India's time, the first order, uses per account
 * and in all, and the form's checks.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { couponDiscount, couponKey } from '../../domain/coupon-terms.js';
import {
  type Coupon,
  type CouponFacts,
  CouponInputSchema,
  couponRefusal,
  couponState,
  couponTakes,
} from '../../domain/coupons.js';
import { indiaInstant } from '../../domain/india-time.js';

const base: Coupon = {
  code: 'SAVE200',
  off: { kind: 'flat', amount: 200 },
  minItems: 999,
  firstOrderOnly: false,
  maxUses: null,
  perAccount: 1,
  startsAt: null,
  endsAt: null,
  active: true,
};
const facts: CouponFacts = {
  now: Date.UTC(2026, 10, 1),
  subtotal: 999,
  usedByAccount: 0,
  usedInAll: 0,
  hasOrders: false,
};

describe('the coupon rules', () => {
  it('holds at the minimum and refuses one rupee under, naming it', () => {
    expect(couponRefusal(base, facts)).toBeNull();
    expect(couponRefusal(base, { ...facts, subtotal: 998 })).toEqual({
      kind: 'minimum',
      message: 'SAVE200 needs items of at least ₹999',
    });
    // Asked without a basket, the minimum waits for the order.
    expect(couponRefusal(base, { ...facts, subtotal: null })).toBeNull();
    expect(couponTakes(base, 998)).toBe(0);
    expect(couponTakes(base, 999)).toBe(200);
  });

  it('takes a percentage rounded down to whole rupees, up to its cap, never below ₹0 and never off delivery', () => {
    const pct = { kind: 'percent', percent: 10, cap: 300 } as const;
    expect(couponDiscount(pct, 1999)).toBe(199);
    expect(couponDiscount(pct, 3000)).toBe(300);
    expect(couponDiscount(pct, 9000)).toBe(300);
    expect(couponDiscount({ kind: 'percent', percent: 100, cap: 5000 }, 700)).toBe(700);
    expect(couponDiscount({ kind: 'flat', amount: 500 }, 300)).toBe(300);
    expect(couponDiscount(200, 150)).toBe(150);
    expect(couponDiscount(null, 150)).toBe(0);
  });

  it("starts and ends on the window's edges in India's time", () => {
    const start = indiaInstant('2026-10-20', 0); // 20 Oct, 00:00 in India = 19 Oct 18:30 UTC
    const end = indiaInstant('2026-11-03', 0); // through 2 Nov
    const c = { ...base, code: 'DIWALI10', minItems: 0, startsAt: start, endsAt: end };
    expect(start).toBe(Date.UTC(2026, 9, 19, 18, 30));
    expect(couponRefusal(c, { ...facts, now: start - 1 })).toEqual({
      kind: 'not-started',
      message: 'DIWALI10 starts on 20 Oct 2026, 12:00 am',
    });
    expect(couponRefusal(c, { ...facts, now: start })).toBeNull();
    expect(couponRefusal(c, { ...facts, now: end - 1 })).toBeNull();
    expect(couponRefusal(c, { ...facts, now: end })).toEqual({
      kind: 'ended',
      message: 'DIWALI10 ended on 2 Nov',
    });
    expect(couponState(c, start - 1)).toBe('scheduled');
    expect(couponState(c, start)).toBe('live');
    expect(couponState(c, end)).toBe('ended');
    // One taken off offer before end dates existed reads as ended, with no date to name.
    expect(couponRefusal({ ...c, active: false, endsAt: null }, facts)?.message).toBe('DIWALI10 has ended');
  });

  it('keeps a first-order coupon for an account with no order that counts', () => {
    const first = { ...base, code: 'FIRST50', firstOrderOnly: true };
    expect(couponRefusal(first, facts)).toBeNull();
    expect(couponRefusal(first, { ...facts, hasOrders: true })?.message).toBe(
      'FIRST50 is for a first order only',
    );
  });

  it('counts uses per account and in all', () => {
    const twice = { ...base, code: 'TWICE', perAccount: 2, maxUses: 3 };
    expect(couponRefusal(twice, { ...facts, usedByAccount: 1, usedInAll: 2 })).toBeNull();
    expect(couponRefusal(twice, { ...facts, usedByAccount: 2 })?.message).toBe('You have used TWICE already');
    expect(couponRefusal(twice, { ...facts, usedInAll: 3 })?.message).toBe('TWICE has been used up');
  });
});

describe("the owner's form", () => {
  const good = {
    code: ' diwali10 ',
    off: { kind: 'percent', percent: 10, cap: 300 },
    minItems: 999,
    firstOrderOnly: false,
    maxUses: 100,
    perAccount: 1,
    startsAt: 1_000,
    endsAt: 2_000,
  };
  const fieldOf = (input: unknown) => {
    const r = v.safeParse(CouponInputSchema, input);
    return r.success ? null : v.getDotPath(r.issues[0] as v.BaseIssue<unknown>);
  };

  it('keeps the code upper-case and takes a good coupon', () => {
    expect(v.parse(CouponInputSchema, good).code).toBe('DIWALI10');
  });

  it('names the field of each bad input', () => {
    expect(fieldOf({ ...good, code: 'NO SPACES' })).toBe('code');
    expect(fieldOf({ ...good, off: { kind: 'percent', percent: 101, cap: 300 } })).toBe('off.percent');
    expect(fieldOf({ ...good, off: { kind: 'flat', amount: -1 } })).toBe('off.amount');
    expect(fieldOf({ ...good, endsAt: 1_000 })).toBe('endsAt');
    expect(fieldOf({ ...good, perAccount: 0 })).toBe('perAccount');
    expect(fieldOf({ ...good, maxUses: 0 })).toBe('maxUses');
  });
});

describe('the key a phone knows a code by', () => {
  it('is the same for any case and spacing, differs between codes, and does not contain the code', async () => {
    const key = await couponKey('SAVE200');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(await couponKey(' save200 ')).toBe(key);
    expect(await couponKey('SAVE201')).not.toBe(key);
  });
});
