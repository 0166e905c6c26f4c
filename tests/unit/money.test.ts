import { describe, expect, it } from 'vitest';
import { formatRupees, fromPaise, isWholeRupees, toPaise } from '../../domain/money.js';

describe('money', () => {
  it('formats rupees the en-IN way with no decimals', () => {
    expect(formatRupees(1250)).toBe('₹1,250');
    expect(formatRupees(125000)).toBe('₹1,25,000');
    expect(formatRupees(0)).toBe('₹0');
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
