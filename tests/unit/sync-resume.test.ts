import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCursor } from '../../api/catalogue/catalogue.feed.js';
import type { CatalogueDelta, Category, Product } from '../../domain/catalogue.js';
import { SyncError, syncCatalogue } from '../../sw/catalogue-sync.js';
import { ShopDatabase } from '../../sw/db.js';
import { writeProducts } from '../../sw/product-chunks.js';
import { allProducts, countProducts, productsInCategory } from '../../sw/product-reads.js';

/**
 * Issue 17: a first sync (or a later full snapshot) cut off at any page resumes from its cursor,
 * never starts over, and ends with exactly the server's catalogue, even when the server changed
 * while the phone was away. The feed here keeps the server's contract (api/catalogue/README.md:
 * windows (S, V], products by id, categories and deletions on a window's first page, full
 * snapshots on since absent or 0) over an in-memory catalogue, with the server's own cursor
 * parser, so the test can change the catalogue between requests.
 */

interface Row {
  product: Product;
  version: number;
  deleted: boolean;
}

class Shop {
  version = 1;
  rows = new Map<number, Row>();
  categories = new Map<number, { category: Category; version: number; deleted: boolean }>();
  requests: string[] = [];

  constructor(products: number) {
    this.putCategory({ categoryID: 1, categoryName: 'Cakes' });
    this.putCategory({ categoryID: 2, categoryName: 'Flowers' });
    for (let id = 1; id <= products; id++) this.putProduct(id, 100 + id);
  }

  putCategory(category: Category): void {
    this.version += 1;
    this.categories.set(category.categoryID, { category, version: this.version, deleted: false });
  }

  putProduct(id: number, price: number): void {
    this.version += 1;
    const category = this.categories.get(1 + (id % 2))?.category as Category;
    this.rows.set(id, {
      version: this.version,
      deleted: false,
      product: {
        productID: id,
        title: `Item ${id}`,
        description: `<p>Item ${id}</p>`,
        price,
        imagePath: '',
        categories: [category],
        categoryName: category.categoryName,
        labelHeading: '',
        labelDescription: '',
        sizeOrWeight: '',
        variations: [],
        images: [],
        updatedAt: '2026-11-25T00:00:00.000Z',
        version: this.version,
        takesMessage: false,
        photoCake: false,
      },
    });
  }

  deleteProduct(id: number): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.version += 1;
    row.version = this.version;
    row.deleted = true;
  }

  /** What the device must end with: every live product as the feed last sent it. */
  live(): Product[] {
    return [...this.rows.values()]
      .filter((r) => !r.deleted)
      .map((r) => r.product)
      .sort((a, b) => a.productID - b.productID);
  }

  feed(since: string | undefined, limit: number): CatalogueDelta {
    const w = parseCursor(since, this.version);
    const inWindow = (v: number) => v > w.after && v <= w.upTo;
    const page = [...this.rows.values()]
      .filter((r) => !r.deleted && inWindow(r.version) && r.product.productID > w.afterId)
      .sort((a, b) => a.product.productID - b.product.productID);
    const products = page.slice(0, limit).map((r) => r.product);
    const hasMore = page.length > limit;
    const firstPage = w.afterId === 0;
    const full = w.after === 0;
    const cats = firstPage ? [...this.categories.values()].filter((c) => inWindow(c.version)) : [];
    const last = products.at(-1);
    return {
      cursor: hasMore && last ? `${w.after}.${w.upTo}.${last.productID}` : String(w.upTo),
      full,
      hasMore,
      categories: cats.filter((c) => !c.deleted).map((c) => c.category),
      products,
      deletedProductIds:
        firstPage && !full
          ? [...this.rows.values()]
              .filter((r) => r.deleted && inWindow(r.version))
              .map((r) => r.product.productID)
          : [],
      deletedCategoryIds: full ? [] : cats.filter((c) => c.deleted).map((c) => c.category.categoryID),
    };
  }

  /** A fetch answering from this shop; it fails (as a lost signal does) on the request numbered `failAt`. */
  fetch(failAt = -1, onRequest: (n: number) => void = () => undefined): typeof fetch {
    let n = 0;
    return (async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://shop.test');
      const at = n++;
      onRequest(at);
      if (at === failAt) throw new TypeError('Failed to fetch');
      const since = url.searchParams.get('since') ?? undefined;
      this.requests.push(since ?? '');
      const data = this.feed(since, Number(url.searchParams.get('limit')));
      return new Response(JSON.stringify({ isSuccess: true, data, sys_message: 'Success' }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
  }
}

const PRODUCTS = 23;
const PAGE = 4;
/** Pages of a full snapshot of the shop: 23 products in pages of 4. */
const PAGES = Math.ceil(PRODUCTS / PAGE);

let store: ShopDatabase;
let n = 0;
beforeEach(() => {
  // Chunks of 3 ids against pages of 4 products: every page boundary cuts through a chunk.
  store = new ShopDatabase(`resume-${++n}`, { chunkSpan: 3 });
});
afterEach(async () => {
  await store.delete();
});

async function deviceProducts(): Promise<Product[]> {
  const rows = await allProducts(store);
  return rows.map(({ categoryIds: _ids, ...p }) => p);
}

describe('an interrupted catalogue sync', () => {
  for (let cut = 1; cut < PAGES; cut++) {
    it(`cut off before page ${cut + 1} of ${PAGES}: resumes there and ends with exactly the server's catalogue`, async () => {
      const shop = new Shop(PRODUCTS);
      // The device holds an older copy: a product the server no longer has, one it will delete, stale prices.
      await writeProducts(
        store,
        [
          { ...shop.live()[0], price: 1, categoryIds: [2] } as Product & { categoryIds: number[] },
          { ...(shop.live()[5] as Product), productID: 1000, categoryIds: [1] },
        ],
        [],
      );
      await store.categories.put({ categoryID: 9, categoryName: 'Gone' });

      const window = shop.version;
      // A full snapshot (the device's copy is replaced), cut off before page `cut + 1`; meanwhile the shop changes.
      await expect(
        syncCatalogue({
          store,
          full: true,
          pageSize: PAGE,
          fetch: shop.fetch(cut, (at) => {
            if (at === cut) {
              shop.putProduct(2, 999);
              shop.putProduct(PRODUCTS + 1, 50);
              shop.deleteProduct(PRODUCTS - 1);
              shop.deleteProduct(7);
            }
          }),
        }),
      ).rejects.toBeInstanceOf(SyncError);
      const storedCursor = (await store.meta.get('catalogueCursor'))?.value;
      expect(storedCursor).toBe(`0.${window}.${PAGE * cut}`);
      // The pages stored before the cut are on the device, and nothing of the pages after it came yet.
      const ids = (await allProducts(store)).map((p) => p.productID);
      expect(ids.filter((id) => id <= PAGE * cut).length).toBeGreaterThan(0);

      shop.requests = [];
      const resumed = await syncCatalogue({ store, pageSize: PAGE, fetch: shop.fetch() });
      // It resumed where it stopped and finished the snapshot's window: never from the start.
      expect(shop.requests[0]).toBe(storedCursor);
      expect(shop.requests).not.toContain('');
      expect(resumed.cursor).toBe(String(window));
      // What changed meanwhile comes with the next run, from the window's top.
      shop.requests = [];
      const next = await syncCatalogue({ store, pageSize: PAGE, fetch: shop.fetch() });
      expect(shop.requests[0]).toBe(String(window));
      expect(next.cursor).toBe(String(shop.version));
      expect(await deviceProducts()).toEqual(shop.live());
      expect(await store.categories.toCollection().primaryKeys()).toEqual([1, 2]);
      expect((await productsInCategory(store, 1)).length).toBe(
        shop.live().filter((p) => p.categories[0]?.categoryID === 1).length,
      );
      expect((await store.meta.get('catalogueSnapshotFrom'))?.value ?? null).toBeNull();
    });
  }

  it("a first visit's split run (the page stores the first page, a worker the rest) ends with exactly the server's catalogue", async () => {
    const shop = new Shop(PRODUCTS);
    const first = await syncCatalogue({ store, pageSize: PAGE, maxPages: 1, fetch: shop.fetch() });
    expect(first).toMatchObject({ more: true, pages: 1, productsChanged: PAGE });
    expect(await countProducts(store)).toBe(PAGE);
    // Not synced yet: the status and the worker's start must not take one page for the catalogue.
    expect(await store.meta.get('lastSyncedAt')).toBeUndefined();
    const cursor = (await store.meta.get('catalogueCursor'))?.value;

    shop.requests = [];
    const rest = await syncCatalogue({ store, pageSize: PAGE, fetch: shop.fetch() });
    // The rest resumed from the first page's cursor; the snapshot never started over.
    expect(shop.requests[0]).toBe(cursor);
    expect(shop.requests).not.toContain('');
    expect(rest).toMatchObject({ more: false, pages: PAGES - 1 });
    expect(await deviceProducts()).toEqual(shop.live());
    expect((await store.meta.get('lastSyncedAt'))?.value).toBeTypeOf('number');
  });

  it('an uninterrupted run ends the same way, and a later delta run brings only what changed', async () => {
    const shop = new Shop(PRODUCTS);
    await syncCatalogue({ store, pageSize: PAGE, fetch: shop.fetch() });
    expect(await deviceProducts()).toEqual(shop.live());
    shop.putProduct(3, 7);
    shop.deleteProduct(4);
    shop.requests = [];
    const result = await syncCatalogue({ store, pageSize: PAGE, fetch: shop.fetch() });
    expect(result).toMatchObject({ full: false, productsChanged: 1, productsDeleted: 1 });
    expect(await deviceProducts()).toEqual(shop.live());
  });
});
