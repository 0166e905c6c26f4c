import { describe, expect, it } from 'vitest';
import { addressLines, addressText } from '../../domain/address.js';

/**
 * An order's address is written once: the typed address (without the city, state and pincode it
 * may repeat at its end), then "City, State PIN" from their own fields.
 */
const place = { city: 'Mohali', state: 'Punjab', pincode: '160062' };
const text = (address: string) => addressText({ address, ...place });

describe('the address, written once', () => {
  it('joins the typed address and the place when the address holds only the street', () => {
    expect(text('House 12, Sector 70')).toBe('House 12, Sector 70, Mohali, Punjab 160062');
    expect(addressLines({ address: 'House 12, Sector 70', ...place })).toEqual([
      'House 12, Sector 70',
      'Mohali, Punjab 160062',
    ]);
  });

  it('leaves out what the typed address repeats at its end, however it was typed', () => {
    const once = 'House 12, Sector 70, Mohali, Punjab 160062';
    expect(text('House 12, Sector 70, Mohali, Punjab 160062')).toBe(once);
    expect(text('House 12, Sector 70, mohali, PUNJAB - 160 062, India.')).toBe(once);
    expect(text('House 12, Sector 70, 160062 Mohali Punjab')).toBe(once);
    expect(text('House 12, Sector 70 Mohali')).toBe(once);
  });

  it('keeps a word that only contains the city, and digits that only end in the pincode', () => {
    expect(text('House 12, Mohali Road')).toBe('House 12, Mohali Road, Mohali, Punjab 160062');
    expect(text('Plot 1160062')).toBe('Plot 1160062, Mohali, Punjab 160062');
    expect(text('Near Mohalipur Chowk')).toBe('Near Mohalipur Chowk, Mohali, Punjab 160062');
  });

  it('writes only the place when the typed address was nothing but the place', () => {
    expect(text('Mohali, Punjab 160062')).toBe('Mohali, Punjab 160062');
    expect(addressLines({ address: 'Mohali', ...place })).toEqual(['', 'Mohali, Punjab 160062']);
  });

  it('takes cities of more than one word, and keeps the typed case of the street', () => {
    expect(
      addressText({
        address: 'flat 4b, andheri east, navi mumbai, maharashtra 400703',
        city: 'Navi Mumbai',
        state: 'Maharashtra',
        pincode: '400703',
      }),
    ).toBe('flat 4b, andheri east, Navi Mumbai, Maharashtra 400703');
  });
});
