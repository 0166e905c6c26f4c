import { describe, expect, it } from 'vitest';
import { cartLineOption } from '../../domain/checkout.js';
import { lineOption } from '../../domain/order-lines.js';
import { heldOrderLabel, WAITING_TO_BE_SENT } from '../../domain/order-tracking.js';

describe("an order the phone holds, in the shopper's state names", () => {
  it('waits to be sent until the server has it, then reads as the server says', () => {
    expect(heldOrderLabel('queued', null)).toBe(WAITING_TO_BE_SENT);
    expect(heldOrderLabel('sending', null)).toBe(WAITING_TO_BE_SENT);
    expect(heldOrderLabel('attention', null)).toBe(WAITING_TO_BE_SENT);
    expect(heldOrderLabel('sent', 'placed')).toBe('Placed');
    expect(heldOrderLabel('sent', 'paid')).toBe('Paid');
    expect(heldOrderLabel('cancelled', null)).toBe('Cancelled');
  });
});

describe('a cart line’s choice in an order line’s words', () => {
  const base = { variationID: null, variationName: null, variationValue: null };
  it('names a variation by its name and value, the base option by its size', () => {
    const weight = { variationID: 51, variationName: 'Weight', variationValue: '1 kg', baseSize: null };
    expect(lineOption(cartLineOption(weight))).toBe('Weight: 1 kg');
    expect(lineOption(cartLineOption({ ...base, baseSize: '0.5 kg' }))).toBe('0.5 kg');
    expect(lineOption(cartLineOption({ ...base, baseSize: null }))).toBeNull();
  });
  it('a cart line kept before values were names its option alone, never "size not recorded"', () => {
    expect(lineOption(cartLineOption({ variationID: 51, variationName: 'Weight' }))).toBe('Weight');
  });
});
