import { describe, expect, it } from 'vitest';
import { addressLines } from '../../domain/address.js';
import { deliverToOf } from '../../domain/deliver-to.js';

/** Where an order goes, as order success, My Orders and the order page say it. */
const own = {
  customerName: ' Asha Verma ',
  customerPhone: '9876543210',
  customerAddress: 'House 12, Sector 70',
  city: 'Mohali',
  state: 'Punjab',
  pincode: 160062,
  recipient: null,
};

describe('deliverToOf', () => {
  it("the shopper's own order goes to their name and phone", () => {
    expect(deliverToOf(own)).toEqual({
      name: 'Asha Verma',
      phone: '9876543210',
      address: 'House 12, Sector 70',
      city: 'Mohali',
      state: 'Punjab',
      pincode: '160062',
      gift: false,
    });
  });

  it("a gift goes to the recipient's name and phone, never the buyer's, at the order's address", () => {
    const to = deliverToOf({ ...own, recipient: { name: 'Dadi Ji', phone: '9812345678' } });
    expect(to).toMatchObject({
      name: 'Dadi Ji',
      phone: '9812345678',
      address: 'House 12, Sector 70',
      gift: true,
    });
  });
});

describe('where it goes, as the screens write it', () => {
  it('"Mohali, Punjab 160062" after an address without them', () => {
    expect(addressLines(deliverToOf(own))).toEqual([own.customerAddress, 'Mohali, Punjab 160062']);
  });

  it('the town and pincode once after an address that already ends with them, whatever the case', () => {
    const to = deliverToOf({ ...own, customerAddress: 'House 12, Sector 70, mohali, punjab 160062' });
    expect(addressLines(to)).toEqual(['House 12, Sector 70', 'Mohali, Punjab 160062']);
  });
});
