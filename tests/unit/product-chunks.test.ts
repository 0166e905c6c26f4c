import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '../../domain/catalogue.js';
import { toStored } from '../../sw/catalogue-sync.js';
import { ShopDatabase } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { chunkOf, hasProducts, writeProducts } from '../../sw/product-chunks.js';
import {
  allProducts,
  countProducts,
  getProduct,
  getProducts,
  productSlice,
  productsInCategory,
} from '../../sw/product-reads.js';

/** The device's products a span of ids to a row (issue 17): every read and write through sw/product-chunks.ts. */
function product(id: number, categories: number[] = [1], price = 100 + id): StoredProduct {
  const p: Product = {
    productID: id,
    title: `Product ${id}`,
    description: '',
    price,
    imagePath: '',
    categories: categories.map((c) => ({ categoryID: c, categoryName: `C${c}` })),
    categoryName: categories.map((c) => `C${c}`).join(','),
    labelHeading: '',
    labelDescription: '',
    sizeOrWeight: '',
    variations: [],
    images: [],
    updatedAt: '2026-11-26T00:00:00.000Z',
    version: 1,
    takesMessage: false,
    photoCake: false,
  };
  return toStored(p);
}

const ids = (rows: readonly (StoredProduct | undefined)[]) => rows.map((p) => p?.productID);
const opened: Dexie[] = [];
let n = 0;
function shop(span = 4): ShopDatabase {
  const store = new ShopDatabase(`chunks-${++n}`, { chunkSpan: span });
  opened.push(store);
  return store;
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.delete();
});

describe('products stored in chunks', () => {
  it('puts, replaces and deletes across chunks, each chunk in id order with its categories', async () => {
    const store = shop();
    expect(await hasProducts(store)).toBe(false);
    await writeProducts(store, [product(9), product(2, [2]), product(5, [1, 3]), product(1)], []);
    expect(await store.productChunks.toCollection().primaryKeys()).toEqual([0, 1, 2]);
    expect((await store.productChunks.get(0))?.products.map((p) => p.productID)).toEqual([1, 2]);
    expect((await store.productChunks.get(0))?.categoryIds.sort()).toEqual([1, 2]);
    expect(ids(await allProducts(store))).toEqual([1, 2, 5, 9]);
    expect(await countProducts(store)).toBe(4);
    expect(await hasProducts(store)).toBe(true);

    // A changed price replaces the product in its chunk; a deletion empties chunk 2, which goes.
    const removed = await writeProducts(store, [product(5, [3], 999)], [9, 42]);
    expect(removed).toEqual([9]);
    expect((await getProduct(store, 5))?.price).toBe(999);
    expect(await store.productChunks.toCollection().primaryKeys()).toEqual([0, 1]);
    expect(ids(await productsInCategory(store, 1))).toEqual([1]);
    expect(ids(await productsInCategory(store, 3))).toEqual([5]);
    expect(await store.productChunks.where('categoryIds').equals(1).primaryKeys()).toEqual([0]);
    expect(ids(await getProducts(store, [5, 7, 1, 5]))).toEqual([5, undefined, 1, 5]);
    expect(await getProduct(store, 9)).toBeUndefined();
  });

  it("a snapshot page's range removes what the page does not carry, within the range only", async () => {
    const store = shop();
    await writeProducts(
      store,
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((id) => product(id)),
      [],
    );
    // A page covering ids (2, 7] that carries 3 and 6 only: 4, 5 and 7 are gone from the shop.
    const removed = await writeProducts(store, [product(3, [1], 1), product(6, [1], 1)], [], {
      from: 2,
      to: 7,
    });
    expect(removed.sort((a, b) => a - b)).toEqual([4, 5, 7]);
    expect(ids(await allProducts(store))).toEqual([1, 2, 3, 6, 8, 9, 10, 11]);
    // The last page reaches to the end: everything above its start that it does not carry goes.
    expect(await writeProducts(store, [product(9)], [], { from: 8, to: Number.POSITIVE_INFINITY })).toEqual([
      10, 11,
    ]);
    expect(ids(await allProducts(store))).toEqual([1, 2, 3, 6, 8, 9]);
    expect(chunkOf(store, 11)).toBe(2);
    expect(ids((await store.productChunks.get(2))?.products ?? [])).toEqual([8, 9]);
  });

  it('reads the catalogue in slices of chunks that together are the whole of it', async () => {
    const store = shop(3);
    await writeProducts(
      store,
      Array.from({ length: 20 }, (_, i) => product(i + 1)),
      [],
    );
    const seen: number[] = [];
    let after: number | null = null;
    let slices = 0;
    for (;;) {
      const slice = await productSlice(store, after, 2);
      slices += 1;
      seen.push(...slice.products.map((p) => p.productID));
      if (slice.next === null) break;
      after = slice.next;
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // 20 ids in spans of 3 are 7 chunks: 4 slices of at most 2.
    expect(slices).toBe(4);
  });
});

describe('a device from before chunks', () => {
  // The schema's versions as the app declared them before (sw/db.ts now declares only 6, 7 and 8, whole).
  const OLD_VERSIONS: Record<string, string>[] = [
    {
      categories: 'categoryID, categoryName',
      products: 'productID, *categoryIds, price, updatedAt',
      images: 'url, productID, storedAt',
      cart: 'key, productID, addedAt',
      meta: 'key',
    },
    { session: 'key', outbox: 'key, state, userId, createdAt', orderHistory: 'userId' },
    { slots: 'slotID', closedDates: 'date' },
    { orderDetails: 'orderID, userId' },
    { recipients: 'userId' },
  ];
  for (const from of [1, 3, 5]) {
    it(`at version ${from} opens with its products moved into chunks, nothing lost, every table there and the old one gone`, async () => {
      const name = `chunks-upgrade-${++n}`;
      const old = new Dexie(name);
      OLD_VERSIONS.slice(0, from).forEach((tables, i) => {
        old.version(i + 1).stores(tables);
      });
      const before = Array.from({ length: 250 }, (_, i) => product(i + 1, [1 + (i % 3)]));
      await old.table('products').bulkPut(before);
      await old.table('meta').put({ key: 'catalogueCursor', value: '7' });
      await old.table('cart').put({ key: 'line-1', productID: 3, addedAt: 1 });
      old.close();

      const store = new ShopDatabase(name);
      opened.push(store);
      await store.open();
      expect(store.tables.map((t) => t.name)).not.toContain('products');
      expect(await allProducts(store)).toEqual(before);
      expect(await store.productChunks.count()).toBe(3);
      expect(ids(await productsInCategory(store, 2))).toEqual(
        before.filter((p) => p.categoryIds.includes(2)).map((p) => p.productID),
      );
      // The products stay, shown offline as before; the cursor goes (version 8 brought the delivery
      // areas, which come with a full snapshot: see sw/db.ts); the cart stays too.
      expect(await store.meta.get('catalogueCursor')).toBeUndefined();
      expect(await store.cart.count()).toBe(1);
      // Tables of the versions it skipped are there and work.
      await store.recipients.put({ userId: 1, rows: [], fetchedAt: 1 });
      await store.orderDetails.where('userId').equals(1).count();
      await store.outbox.where('state').equals('queued').count();
      expect(await store.recipients.count()).toBe(1);
    });
  }
});
