import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Product, Variation } from '../../domain/catalogue.js';
import {
  addToCart,
  CART_STORAGE_KEY,
  cartCount,
  cartLines,
  clearCart,
  removeFromCart,
  setQuantity,
} from '../../sw/cart.js';
import { ShopDatabase } from '../../sw/db.js';
import { writeProducts } from '../../sw/product-chunks.js';

function product(id: number, price: number, variations: Variation[] = []): Product {
  return {
    productID: id,
    title: `Cake ${id}`,
    description: '<p>Soft</p>',
    price,
    imagePath: `/media/cake-${id}-640.webp`,
    categories: [{ categoryID: 1, categoryName: 'Cakes' }],
    categoryName: 'Cakes',
    labelHeading: '',
    labelDescription: '',
    sizeOrWeight: '1 kg',
    variations,
    images: [],
    updatedAt: '2026-11-23T00:00:00.000Z',
    version: 1,
    takesMessage: false,
    photoCake: false,
  };
}

const half: Variation = { variationID: 7, variationName: 'Weight', variationValue: '500 g', price: 450 };

let store: ShopDatabase;
beforeEach(async () => {
  store = new ShopDatabase(`cart-${Math.random()}`);
  localStorage.clear();
});
afterEach(async () => {
  await store.delete();
});

function mirror(): Array<Record<string, unknown>> {
  return JSON.parse(localStorage.getItem(CART_STORAGE_KEY) ?? 'null');
}

describe('cart on the device', () => {
  it('merges the same product and variation into one line and mirrors cartItems', async () => {
    const cake = product(1, 800, [half]);
    await writeProducts(store, [{ ...cake, categoryIds: [1] }], []);
    await addToCart(cake, null, 1, store);
    await addToCart(cake, null, 2, store);
    const withVariation = await addToCart(cake, half, 1, store);
    expect(withVariation.price).toBe(450);
    const lines = await cartLines(store);
    expect(lines.map((l) => [l.key, l.quantity, l.price])).toEqual([
      ['1:base', 3, 800],
      ['1:7', 1, 450],
    ]);
    expect(await cartCount(store)).toBe(4);
    const items = mirror();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      productID: 1,
      title: 'Cake 1',
      price: 800,
      quantity: 3,
      sizeOrWeight: '1 kg',
    });
    expect(items[1]).toMatchObject({ price: 450, quantity: 1, variationName: 'Weight' });
    expect(items[0]?.uniqueId).not.toBe(items[1]?.uniqueId);
  });

  it('setQuantity to zero or below removes; bad numbers never corrupt a line', async () => {
    const cake = product(2, 300);
    const line = await addToCart(cake, null, 1, store);
    await setQuantity(line.key, 5, store);
    expect((await store.cart.get(line.key))?.quantity).toBe(5);
    await setQuantity(line.key, 1000, store);
    expect((await store.cart.get(line.key))?.quantity).toBe(99);
    await setQuantity(line.key, Number.NaN, store);
    expect(await store.cart.get(line.key)).toBeUndefined();
    await addToCart(cake, null, -4, store);
    expect((await store.cart.get(line.key))?.quantity).toBe(1);
    await setQuantity(line.key, 0, store);
    expect(await cartLines(store)).toEqual([]);
    expect(mirror()).toEqual([]);
    await setQuantity('missing:base', 3, store);
    expect(await cartLines(store)).toEqual([]);
  });

  it('remove and clear rewrite the mirror; a product gone from the catalogue still mirrors', async () => {
    const a = await addToCart(product(3, 100), null, 1, store);
    await addToCart(product(4, 200), null, 2, store);
    expect(mirror()[0]).toMatchObject({
      productID: 3,
      title: 'Cake 3',
      price: 100,
      imagePath: '/media/cake-3-640.webp',
    });
    await removeFromCart(a.key, store);
    expect(mirror().map((i) => i.productID)).toEqual([4]);
    await clearCart(store);
    expect(mirror()).toEqual([]);
    expect(await cartCount(store)).toBe(0);
  });

  it('survives reopening the database (a restart)', async () => {
    await addToCart(product(5, 250), null, 2, store);
    const name = store.name;
    store.close();
    const reopened = new ShopDatabase(name);
    expect((await cartLines(reopened)).map((l) => [l.key, l.quantity])).toEqual([['5:base', 2]]);
    store = reopened;
  });
});
