import { describe, expect, it } from 'vitest';
import { formatRupees, fromPaise, isWholeRupees, toPaise } from '../../domain/money.js';

describe('money', () => {
  it('formats rupees the en-IN way with no decimals', () => {
    expect(formatRupees(1250)).toBe('₹1,250');
    expect(formatRupees(125000)).toBe('₹1,25,000');
    expect(formatRupees(0)).toBe('₹0');
  });
  it("writes exactly what ICU's en-IN rupee formatter writes (it is written by hand)", () => {
    const icu = new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    const values = [
      0, -0, 0.4, 0.5, -0.5, 1, 9, 99, 999, 1000, 1250, 99999, 100000, 1234567.5, -200, -1234567.5,
    ];
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n, -n, n + 0.5);
    for (const v of values) expect(formatRupees(v), String(v)).toBe(icu.format(v));
  });
  it('converts rupees to paise and back', () => {
    expect(toPaise(999)).toBe(99900);
    expect(fromPaise(99900)).toBe(999);
  });
  it('refuses fractions', () => {
    expect(() => toPaise(9.5)).toThrow(RangeError);
    expect(() => fromPaise(99950)).toThrow(RangeError);
    expect(isWholeRupees(10)).toBe(true);
    expect(isWholeRupees(-1)).toBe(false);
    expect(isWholeRupees(1.5)).toBe(false);
  });
});
