import { describe, expect, it } from 'vitest';
import {
  type CodRules,
  codMessages,
  codProblem,
  codRefusal,
  isPersonalised,
} from '../../domain/cod-rules.js';
import { orderTotals } from '../../domain/orders.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import { DEFAULT_SETTINGS } from '../../domain/settings.js';

const RULES: CodRules = { codEnabled: true, codLimit: 10_000, codPersonalised: 'any' };
const cod = (total: number, over: Partial<Parameters<typeof codProblem>[0]> = {}) =>
  codProblem({
    rules: RULES,
    paysOnline: true,
    paymentMethod: PAYMENT_METHODS.cod,
    total,
    personalised: false,
    ...over,
  });

describe("the owner's Cash on Delivery rules (codProblem)", () => {
  it('defaults to on, ₹10,000 and personalised cakes like any order', () => {
    expect({
      codEnabled: DEFAULT_SETTINGS.codEnabled,
      codLimit: DEFAULT_SETTINGS.codLimit,
      codPersonalised: DEFAULT_SETTINGS.codPersonalised,
    }).toEqual(RULES);
  });

  it('takes the whole total up to the limit and refuses one rupee over, charges counted and the coupon taken off', () => {
    const line = { unitPrice: 9_500, quantity: 1 };
    // ₹9,500 + ₹150 delivery + ₹350 slot - ₹0 = ₹10,000: at the limit.
    const at = orderTotals([line], 150, 0, 350);
    expect(at.total).toBe(10_000);
    expect(cod(at.total)).toBeNull();
    const over = orderTotals([line], 150, 0, 351);
    expect(cod(over.total)).toEqual({ rule: 'limit', limit: 10_000, message: codMessages.limit(10_000) });
    expect(codMessages.limit(10_000)).toBe('Cash on Delivery is available up to ₹10,000. Please pay online.');
    // The coupon brings it back under.
    const coupon = orderTotals([line], 150, 200, 351);
    expect(coupon.total).toBe(9_801);
    expect(cod(coupon.total)).toBeNull();
  });

  it('has no limit at 0', () => {
    expect(cod(250_000, { rules: { ...RULES, codLimit: 0 } })).toBeNull();
  });

  it('refuses every Cash on Delivery order while the owner has it off', () => {
    expect(cod(100, { rules: { ...RULES, codEnabled: false } })).toEqual({
      rule: 'off',
      message: codMessages.off,
    });
  });

  it('keeps a personalised cake to online payment only when the owner chose so', () => {
    expect(cod(900, { personalised: true })).toBeNull();
    expect(cod(900, { personalised: true, rules: { ...RULES, codPersonalised: 'online' } })).toEqual({
      rule: 'personalised',
      message: codMessages.personalised,
    });
    // Not personalised: the choice does not matter.
    expect(cod(900, { rules: { ...RULES, codPersonalised: 'online' } })).toBeNull();
  });

  it('judges nothing without online payment, and nothing of an order paid online', () => {
    const strict: CodRules = { codEnabled: false, codLimit: 1, codPersonalised: 'online' };
    expect(cod(50_000, { rules: strict, paysOnline: false, personalised: true })).toBeNull();
    expect(
      cod(50_000, { rules: strict, paymentMethod: PAYMENT_METHODS.online, personalised: true }),
    ).toBeNull();
  });

  it('names a personalised line by its message or photo, and the refusal as the server sends it', () => {
    expect(isPersonalised({ cakeMessage: 'Happy 60th Dadi' })).toBe(true);
    expect(isPersonalised({ cakeMessage: '   ', photoID: null })).toBe(false);
    expect(isPersonalised({ photoID: 'p1' })).toBe(true);
    expect(codRefusal({ rule: 'limit', limit: 5_000, message: '' })).toEqual({
      reason: 'cod',
      rule: 'limit',
      limit: 5_000,
    });
    expect(codRefusal({ rule: 'off', message: '' })).toEqual({ reason: 'cod', rule: 'off' });
  });
});
