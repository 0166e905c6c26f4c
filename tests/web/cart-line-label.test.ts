import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { type CartLine, choiceFields, lineLabel } from '../../domain/cart.js';
import type { Product } from '../../domain/catalogue.js';
import { addToCart } from '../../sw/cart.js';
import { ShopDatabase } from '../../sw/db.js';

const weight = (id: number, value: string, price: number) => ({
  variationID: id,
  variationName: 'Weight',
  variationValue: value,
  price,
});
const truffle: Product = {
  productID: 1,
  title: 'Chocolate Truffle Delight',
  description: '',
  price: 549,
  imagePath: '',
  categories: [],
  categoryName: '',
  labelHeading: '',
  labelDescription: '',
  sizeOrWeight: '0.5 kg',
  variations: [weight(11, '0.5 kg', 549), weight(12, '1 kg', 1009), weight(13, '2 kg', 1919)],
  images: [],
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  takesMessage: false,
  photoCake: false,
};

describe('cart line label (issue 13, item 1)', () => {
  it('names the chosen variation value, so lines of one product read apart', async () => {
    const store = new ShopDatabase(`label-${Math.random()}`);
    const lines = [
      await addToCart(truffle, truffle.variations[1] ?? null, 1, store),
      await addToCart(truffle, truffle.variations[2] ?? null, 1, store),
      await addToCart(truffle, truffle.variations[0] ?? null, 1, store),
      await addToCart(truffle, null, 1, store),
    ];
    expect(lines.map(lineLabel)).toEqual([
      'Chocolate Truffle Delight (Weight: 1 kg)',
      'Chocolate Truffle Delight (Weight: 2 kg)',
      'Chocolate Truffle Delight (Weight: 0.5 kg)',
      'Chocolate Truffle Delight (Base price, 0.5 kg)',
    ]);
    expect(new Set(lines.map(lineLabel)).size).toBe(4);
    store.close();
  });

  it('keeps a product without options to its title, and reads lines stored before the value was kept', () => {
    const gift = { ...truffle, variations: [], sizeOrWeight: '1 set' };
    expect(lineLabel({ title: 'Mug', variationID: null, ...choiceFields(gift, null) })).toBe('Mug');
    const old: Pick<CartLine, 'title' | 'variationID' | 'variationName'> = {
      title: 'Chocolate Truffle Delight',
      variationID: 12,
      variationName: 'Weight',
    };
    expect(lineLabel(old)).toBe('Chocolate Truffle Delight (Weight)');
    expect(
      lineLabel({ ...truffle, variationID: null, ...choiceFields({ ...truffle, sizeOrWeight: '' }, null) }),
    ).toBe('Chocolate Truffle Delight (Base price)');
  });
});
