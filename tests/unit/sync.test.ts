import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogueDelta, Category, Product } from '../../domain/catalogue.js';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { DEFAULT_SETTINGS, readSettings } from '../../domain/settings.js';
import {
  DEFAULT_PAGE_SIZE,
  LATER_PAGE_SIZE,
  lastSyncedAt,
  nextCursor,
  SyncError,
  syncCatalogue,
} from '../../sw/catalogue-sync.js';
import { ShopDatabase } from '../../sw/db.js';
import {
  imageOwner,
  keepImage,
  MAX_PAGE_IMAGES,
  storeProductImage,
  storeThumbnails,
} from '../../sw/images.js';
import { writeProducts } from '../../sw/product-chunks.js';
import { allProducts, countProducts, getProduct, productsInCategory } from '../../sw/product-reads.js';

const cakes: Category = { categoryID: 1, categoryName: 'Cakes' };
const flowers: Category = { categoryID: 2, categoryName: 'Flowers' };

function product(id: number, price: number, categories: Category[] = [cakes]): Product {
  return {
    productID: id,
    title: `Item ${id}`,
    description: '',
    price,
    imagePath: `/media/item-${id}-640.webp`,
    takesMessage: false,
    photoCake: false,
    categories,
    categoryName: categories.map((c) => c.categoryName).join(','),
    labelHeading: '',
    labelDescription: '',
    sizeOrWeight: '',
    variations: [],
    images: [
      {
        src: `/media/item-${id}-640.webp`,
        thumb: `/media/item-${id}-320.webp`,
        srcset: '',
        width: 640,
        height: 640,
      },
    ],
    updatedAt: '2026-11-23T00:00:00.000Z',
    version: 1,
  };
}

function delta(part: Partial<CatalogueDelta> & { cursor: string }): CatalogueDelta {
  return {
    full: false,
    hasMore: false,
    categories: [],
    products: [],
    deletedProductIds: [],
    deletedCategoryIds: [],
    ...part,
  };
}

type Answer = Response | Error;
/** A fetch the test drives: it answers from a queue and records what was asked. */
function drivenFetch(answers: Answer[]) {
  const calls: { url: URL; headers: Record<string, string> }[] = [];
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: new URL(String(input), 'http://shop.test'),
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return { fn, calls };
}

function envelope(data: CatalogueDelta, init: { etag?: string } = {}): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.etag) headers.etag = init.etag;
  return new Response(JSON.stringify({ isSuccess: true, data, sys_message: 'Success' }), { headers });
}

let store: ShopDatabase;
beforeEach(() => {
  store = new ShopDatabase(`sync-${Math.random()}`);
});
afterEach(async () => {
  await store.delete();
});

const cursorOf = async () => (await store.meta.get('catalogueCursor'))?.value ?? null;

describe('catalogue sync', () => {
  it('fills an empty device from a paged full snapshot, storing the cursor only after the last page', async () => {
    const { fn, calls } = drivenFetch([
      envelope(
        delta({
          cursor: 'p1',
          full: true,
          hasMore: true,
          categories: [cakes, flowers],
          products: [product(1, 500), product(2, 600)],
        }),
      ),
      envelope(delta({ cursor: 'v9', full: true, products: [product(3, 700, [cakes, flowers])] })),
    ]);
    const result = await syncCatalogue({ store, fetch: fn, pageSize: 2 });
    expect(result).toMatchObject({
      pages: 2,
      full: true,
      productsChanged: 3,
      categoriesChanged: 2,
      cursor: 'v9',
    });
    expect(calls.map((c) => c.url.pathname + c.url.search)).toEqual([
      '/api/sync/catalogue?limit=2',
      '/api/sync/catalogue?limit=2&since=p1',
    ]);
    expect(await countProducts(store)).toBe(3);
    expect((await getProduct(store, 3))?.categoryIds).toEqual([1, 2]);
    expect((await productsInCategory(store, 2)).map((p) => p.productID)).toEqual([3]);
    expect(await store.categories.count()).toBe(2);
    expect(await cursorOf()).toBe('v9');
    expect(await lastSyncedAt(store)).toBeTypeOf('number');
  });

  it('applies a delta: changed prices, deleted products with their images, deleted categories', async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([
        envelope(
          delta({
            cursor: 'v1',
            full: true,
            categories: [cakes, flowers],
            products: [product(1, 500), product(2, 600)],
          }),
        ),
      ]).fn,
    });
    await store.images.put({
      url: '/media/item-2-320.webp',
      blob: new Blob(['x']),
      productID: 2,
      storedAt: 1,
      kind: 'thumb',
    });
    const { fn, calls } = drivenFetch([
      envelope(
        delta({
          cursor: 'v2',
          products: [{ ...product(1, 550), version: 2 }],
          deletedProductIds: [2],
          deletedCategoryIds: [2],
        }),
      ),
    ]);
    const result = await syncCatalogue({ store, fetch: fn });
    expect(calls[0]?.url.searchParams.get('since')).toBe('v1');
    expect(result).toMatchObject({
      full: false,
      productsChanged: 1,
      productsDeleted: 1,
      categoriesDeleted: 1,
    });
    expect((await getProduct(store, 1))?.price).toBe(550);
    expect(await getProduct(store, 2)).toBeUndefined();
    expect(await store.images.count()).toBe(0);
    expect(await store.categories.toCollection().primaryKeys()).toEqual([1]);
    expect(await cursorOf()).toBe('v2');
  });

  it('sends the stored ETag for the same cursor and treats 304 as nothing changed', async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([envelope(delta({ cursor: 'v1', full: true, products: [product(1, 500)] }))]).fn,
    });
    // The first delta request for v1 has no ETag yet; its answer gives one.
    const first = drivenFetch([envelope(delta({ cursor: 'v1' }), { etag: 'W/"v1"' })]);
    await syncCatalogue({ store, fetch: first.fn });
    expect(first.calls[0]?.headers['if-none-match']).toBeUndefined();
    const second = drivenFetch([new Response(null, { status: 304 })]);
    const result = await syncCatalogue({ store, fetch: second.fn });
    expect(second.calls[0]?.headers['if-none-match']).toBe('W/"v1"');
    expect(result.notModified).toBe(true);
    expect((await getProduct(store, 1))?.price).toBe(500);
  });

  it("a delta is one write transaction with the run's end in it; a 304 records the run's end too", async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([envelope(delta({ cursor: 'v1', full: true, products: [product(1, 500)] }))]).fn,
    });
    await store.meta.put({ key: 'lastSyncError', value: 'Catalogue sync failed: HTTP 503' });
    // Counted below Dexie's table API, where every write, implicit or explicit, opens a transaction
    // (a middleware takes effect when the database opens).
    let writes = 0;
    store.close();
    store.use({
      stack: 'dbcore',
      name: 'count-writes',
      create: (down) => ({
        ...down,
        transaction: (tables, mode, options) => {
          if (mode === 'readwrite') writes += 1;
          return down.transaction(tables, mode, options);
        },
      }),
    });
    await store.open();
    const before = Date.now();
    await syncCatalogue({
      store,
      fetch: drivenFetch([envelope(delta({ cursor: 'v2', products: [product(1, 550)] }))]).fn,
    });
    expect(writes).toBe(1);
    expect((await getProduct(store, 1))?.price).toBe(550);
    expect(await lastSyncedAt(store)).toBeGreaterThanOrEqual(before);
    expect((await store.meta.get('lastSyncError'))?.value).toBeNull();

    await store.meta.put({ key: 'lastSyncError', value: 'Catalogue sync failed: HTTP 503' });
    await store.meta.put({ key: 'lastSyncedAt', value: 1 });
    const result = await syncCatalogue({
      store,
      fetch: drivenFetch([new Response(null, { status: 304 })]).fn,
    });
    expect(result.notModified).toBe(true);
    expect(await lastSyncedAt(store)).toBeGreaterThanOrEqual(before);
    expect((await store.meta.get('lastSyncError'))?.value).toBeNull();
  });

  it('a later full snapshot removes what the server no longer has', async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([
        envelope(
          delta({
            cursor: 'v1',
            full: true,
            categories: [cakes, flowers],
            products: [product(1, 1), product(2, 2), product(3, 3)],
          }),
        ),
      ]).fn,
    });
    await syncCatalogue({
      store,
      full: true,
      fetch: drivenFetch([
        envelope(
          delta({ cursor: 'f1', full: true, hasMore: true, categories: [cakes], products: [product(1, 1)] }),
        ),
        envelope(delta({ cursor: 'v7', full: true, products: [product(3, 3)] })),
      ]).fn,
    });
    expect((await allProducts(store)).map((p) => p.productID)).toEqual([1, 3]);
    expect(await store.categories.toCollection().primaryKeys()).toEqual([1]);
  });

  it('offline: throws an offline SyncError, records it, and keeps the local catalogue', async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([envelope(delta({ cursor: 'v1', full: true, products: [product(1, 500)] }))]).fn,
    });
    const err = await syncCatalogue({
      store,
      fetch: drivenFetch([new TypeError('Failed to fetch')]).fn,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(SyncError);
    expect((err as SyncError).offline).toBe(true);
    expect((await store.meta.get('lastSyncError'))?.value).toMatch(/Failed to fetch/);
    expect(await countProducts(store)).toBe(1);
    expect(await cursorOf()).toBe('v1');
  });

  it('a failed or malformed answer changes nothing and says why', async () => {
    await syncCatalogue({
      store,
      fetch: drivenFetch([envelope(delta({ cursor: 'v1', full: true, products: [product(1, 500)] }))]).fn,
    });
    const failure = new Response(
      JSON.stringify({ isSuccess: false, data: null, sys_message: 'Database down' }),
      { status: 503 },
    );
    const err = await syncCatalogue({ store, fetch: drivenFetch([failure]).fn }).catch((e) => e);
    expect(err).toMatchObject({
      name: 'SyncError',
      status: 503,
      message: expect.stringContaining('Database down'),
    });
    const odd = new Response(
      JSON.stringify({ isSuccess: true, data: { cursor: 5 }, sys_message: 'Success' }),
    );
    const err2 = await syncCatalogue({ store, fetch: drivenFetch([odd]).fn }).catch((e) => e);
    expect(err2).toMatchObject({ name: 'SyncError', message: expect.stringContaining('unexpected shape') });
    const html = new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } });
    const err3 = await syncCatalogue({ store, fetch: drivenFetch([html]).fn }).catch((e) => e);
    expect(err3).toBeInstanceOf(SyncError);
    expect((await getProduct(store, 1))?.price).toBe(500);
    expect(await cursorOf()).toBe('v1');
  });

  it('a cursor the server rejects starts over with a full snapshot', async () => {
    await store.meta.put({ key: 'catalogueCursor', value: 'from-another-db' });
    await writeProducts(store, [{ ...product(9, 9), categoryIds: [1] }], []);
    const rejected = new Response(
      JSON.stringify({ isSuccess: false, data: null, sys_message: 'Bad cursor' }),
      { status: 400 },
    );
    const { fn, calls } = drivenFetch([
      rejected,
      envelope(delta({ cursor: 'v3', full: true, products: [product(1, 500)] })),
    ]);
    const result = await syncCatalogue({ store, fetch: fn });
    expect(calls[1]?.url.searchParams.has('since')).toBe(false);
    expect(result.full).toBe(true);
    expect((await allProducts(store)).map((p) => p.productID)).toEqual([1]);
    expect(await cursorOf()).toBe('v3');
  });

  it('an interrupted full snapshot keeps its pages and resumes from its cursor', async () => {
    const { fn } = drivenFetch([
      envelope(delta({ cursor: '0.5.1', full: true, hasMore: true, products: [product(1, 500)] })),
      new TypeError('Failed to fetch'),
    ]);
    await expect(syncCatalogue({ store, fetch: fn })).rejects.toBeInstanceOf(SyncError);
    expect(await cursorOf()).toBe('0.5.1');
    expect(await countProducts(store)).toBe(1);
    const next = drivenFetch([envelope(delta({ cursor: '5', full: true, products: [product(2, 600)] }))]);
    await syncCatalogue({ store, fetch: next.fn });
    expect(next.calls[0]?.url.searchParams.get('since')).toBe('0.5.1');
    expect((await allProducts(store)).map((p) => p.productID)).toEqual([1, 2]);
  });

  it("asks for the next page as soon as a page's headers name it, before that page's body has arrived", async () => {
    // Page 1's body is held back until the test lets it go; its headers name page 2 (Link: rel="next").
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const body = JSON.stringify({
      isSuccess: true,
      sys_message: 'Success',
      data: delta({ cursor: '0.9.1', full: true, hasMore: true, products: [product(1, 500)] }),
    });
    const first = new Response(
      new ReadableStream({
        async start(c) {
          await held;
          c.enqueue(new TextEncoder().encode(body));
          c.close();
        },
      }),
      { headers: { link: '</api/sync/catalogue?since=0.9.1&limit=5000>; rel="next"' } },
    );
    const { fn, calls } = drivenFetch([
      first,
      envelope(delta({ cursor: '9', full: true, products: [product(2, 600)] })),
    ]);
    const run = syncCatalogue({ store, fetch: fn });
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[1]?.url.searchParams.get('since')).toBe('0.9.1');
    release();
    expect(await run).toMatchObject({ pages: 2, cursor: '9', productsChanged: 2 });
    expect(await countProducts(store)).toBe(2);
  });

  it('takes the next page only from a Link rel="next", not from any other link a proxy adds', () => {
    const linked = (link: string, status = 200) => new Response('{}', { status, headers: { link } });
    expect(nextCursor(linked('</api/sync/catalogue?since=0.9.1&limit=5000>; rel="next"'))).toBe('0.9.1');
    expect(nextCursor(linked('</assets/app.css>; rel=preload; as=style'))).toBeNull();
    expect(nextCursor(linked('</api/sync/catalogue?since=0.9.1&limit=5000>; rel="next"', 500))).toBeNull();
    expect(nextCursor(new Response('{}'))).toBeNull();
  });

  it('a run that stops at its last page asks for nothing ahead, says so before storing it, and a resumed run asks for whole pages', async () => {
    const { fn, calls } = drivenFetch([
      new Response(
        JSON.stringify({
          isSuccess: true,
          sys_message: 'Success',
          data: delta({ cursor: '0.9.1', full: true, hasMore: true, products: [product(1, 500)] }),
        }),
        { headers: { link: '</api/sync/catalogue?since=0.9.1&limit=200>; rel="next"' } },
      ),
    ]);
    let storedWhenTold: number | null = null;
    const result = await syncCatalogue({
      store,
      fetch: fn,
      maxPages: 1,
      onMore: () => {
        void countProducts(store).then((n) => {
          storedWhenTold ??= n;
        });
      },
    });
    expect(result.more).toBe(true);
    expect(calls.map((c) => c.url.searchParams.get('limit'))).toEqual([String(DEFAULT_PAGE_SIZE)]);
    expect(storedWhenTold).toBe(0);
    const rest = drivenFetch([envelope(delta({ cursor: '9', full: true, products: [product(2, 600)] }))]);
    await syncCatalogue({ store, fetch: rest.fn });
    expect(rest.calls[0]?.url.searchParams.get('since')).toBe('0.9.1');
    expect(rest.calls[0]?.url.searchParams.get('limit')).toBe(String(LATER_PAGE_SIZE));
  });

  it('a feed that says hasMore without moving its cursor is an error, not a loop', async () => {
    await syncCatalogue({ store, fetch: drivenFetch([envelope(delta({ cursor: 'v1', full: true }))]).fn });
    const stuck = drivenFetch([envelope(delta({ cursor: 'v1', hasMore: true }))]);
    await expect(syncCatalogue({ store, fetch: stuck.fn })).rejects.toThrow(/did not move/);
  });

  it('an empty device takes the answer the page’s HTML already started, once', async () => {
    const early = Promise.resolve(envelope(delta({ cursor: 'v4', full: true, products: [product(1, 10)] })));
    const { fn, calls } = drivenFetch([]);
    const result = await syncCatalogue({ store, fetch: fn, firstPage: early });
    expect(calls).toHaveLength(0);
    expect(result).toMatchObject({ full: true, cursor: 'v4', productsChanged: 1 });
    // A failed early answer is asked again; a device with a cursor ignores it.
    await store.meta.clear();
    const failed = drivenFetch([envelope(delta({ cursor: 'v5', full: true }))]);
    await syncCatalogue({
      store,
      fetch: failed.fn,
      firstPage: Promise.resolve(new Response('', { status: 503 })),
    });
    expect(failed.calls).toHaveLength(1);
    const later = drivenFetch([envelope(delta({ cursor: 'v6' }))]);
    await syncCatalogue({ store, fetch: later.fn, firstPage: Promise.resolve(null) });
    expect(later.calls[0]?.url.searchParams.get('since')).toBe('v5');
  });

  it('a call during a run queues one more run after it; later callers join the queued one', async () => {
    const { fn, calls } = drivenFetch([
      envelope(delta({ cursor: 'v1', full: true, products: [product(1, 1)] })),
      envelope(delta({ cursor: 'v2', products: [product(1, 2)] })),
    ]);
    const [a, b, c] = await Promise.all([
      syncCatalogue({ store, fetch: fn }),
      syncCatalogue({ store, fetch: fn }),
      syncCatalogue({ store, fetch: fn }),
    ]);
    expect(a).not.toBe(b);
    expect(b).toBe(c);
    expect(calls.map((x) => x.url.searchParams.get('since'))).toEqual([null, 'v1']);
    expect((await getProduct(store, 1))?.price).toBe(2);
  });
});

function imageFetch(failing: Set<string> = new Set()) {
  const asked: string[] = [];
  const fn = (async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://shop.test').pathname;
    asked.push(path);
    if (failing.has(path)) return new Response('missing', { status: 404 });
    if (path.includes('html')) return new Response('<p>', { headers: { 'content-type': 'text/html' } });
    return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/webp' } });
  }) as typeof fetch;
  return { fn, asked };
}

describe('delivery areas and settings on the device', () => {
  const mohali: DeliveryArea = {
    pincode: '160062',
    city: 'Mohali',
    state: 'Punjab',
    charge: 150,
    slotIDs: null,
    sameDay: true,
  };
  const kharar: DeliveryArea = { ...mohali, pincode: '140301', city: 'Kharar', charge: 200 };
  const zirakpur: DeliveryArea = { ...mohali, pincode: '140603', city: 'Zirakpur', charge: 250 };
  const pincodes = async () => (await store.areas.toCollection().primaryKeys()).sort();
  const settingsOf = async () => readSettings(await store.settings.toArray());
  const sync = (...pages: CatalogueDelta[]) =>
    syncCatalogue({ store, fetch: drivenFetch(pages.map((p) => envelope(p))).fn });

  it('a full snapshot brings every area and setting, and a later one replaces them whole', async () => {
    await sync(
      delta({ cursor: 'v1', full: true, areas: [mohali, kharar], settings: { photoCakeNoticeDays: 2 } }),
    );
    expect(await pincodes()).toEqual(['140301', '160062']);
    expect(await store.areas.get('160062')).toEqual(mohali);
    expect((await settingsOf()).photoCakeNoticeDays).toBe(2);

    // Kharar went and Zirakpur came while the device was away; the setting went back to its default.
    await syncCatalogue({
      store,
      full: true,
      fetch: drivenFetch([
        envelope(delta({ cursor: 'f1', full: true, hasMore: true, areas: [mohali, zirakpur], settings: {} })),
        // A later page of the snapshot without areas keeps what its first page brought.
        envelope(delta({ cursor: 'v5', full: true, products: [product(1, 100)] })),
      ]).fn,
    });
    expect(await pincodes()).toEqual(['140603', '160062']);
    expect(await store.settings.count()).toBe(0);
    expect((await settingsOf()).photoCakeNoticeDays).toBe(DEFAULT_SETTINGS.photoCakeNoticeDays);
  });

  it('a delta upserts the one area and setting it carries and keeps the rest', async () => {
    await sync(
      delta({ cursor: 'v1', full: true, areas: [mohali, kharar], settings: { photoCakeNoticeDays: 1 } }),
    );
    await sync(
      delta({ cursor: 'v2', areas: [{ ...kharar, charge: 220 }], settings: { photoCakeNoticeDays: 3 } }),
    );
    expect(await pincodes()).toEqual(['140301', '160062']);
    expect((await store.areas.get('140301'))?.charge).toBe(220);
    expect(await store.areas.get('160062')).toEqual(mohali);
    expect((await settingsOf()).photoCakeNoticeDays).toBe(3);

    // A page with neither leaves them as they are.
    await sync(delta({ cursor: 'v3', products: [product(1, 100)] }));
    expect(await pincodes()).toEqual(['140301', '160062']);
    expect((await settingsOf()).photoCakeNoticeDays).toBe(3);
  });

  it('a delta removes the pincodes it names, and only those', async () => {
    await sync(delta({ cursor: 'v1', full: true, areas: [mohali, kharar, zirakpur] }));
    await sync(delta({ cursor: 'v2', deletedPincodes: ['140301', '110001'] }));
    expect(await pincodes()).toEqual(['140603', '160062']);
    expect(await cursorOf()).toBe('v2');
  });

  it('areas and settings go in the same transaction as the page: a failed write leaves all as it was', async () => {
    await sync(delta({ cursor: 'v1', full: true, areas: [mohali], settings: { photoCakeNoticeDays: 1 } }));
    // The page's last write (its cursor) fails, as a full disk would: nothing of the page may stay.
    let failing = true;
    store.close();
    store.use({
      stack: 'dbcore',
      name: 'fail-meta',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          if (name !== 'meta') return table;
          return {
            ...table,
            mutate: (req) => (failing ? Promise.reject(new Error('disk full')) : table.mutate(req)),
          };
        },
      }),
    });
    await store.open();
    await expect(
      sync(
        delta({
          cursor: 'v2',
          products: [product(2, 100)],
          areas: [kharar],
          deletedPincodes: ['160062'],
          settings: { photoCakeNoticeDays: 4 },
        }),
      ),
    ).rejects.toThrow('disk full');
    failing = false;
    expect(await countProducts(store)).toBe(0);
    expect(await pincodes()).toEqual(['160062']);
    expect((await settingsOf()).photoCakeNoticeDays).toBe(1);
    expect(await cursorOf()).toBe('v1');
  });

  it('a device synced before the areas existed starts over with a full snapshot after the upgrade', async () => {
    const name = `sync-upgrade-${Math.random()}`;
    // Version 7 as a phone has it: a cursor past every row the areas would have come in.
    const old = new Dexie(name);
    old.version(7).stores({ meta: 'key', categories: 'categoryID' });
    await old.open();
    await old.table('meta').bulkPut([
      { key: 'catalogueCursor', value: 'v40' },
      { key: 'catalogueEtag', value: JSON.stringify({ since: 'v40', etag: 'W/"v40"' }) },
      { key: 'lastSyncedAt', value: 5 },
    ]);
    await old.table('categories').put(cakes);
    old.close();

    const upgraded = new ShopDatabase(name);
    try {
      const { fn, calls } = drivenFetch([
        envelope(delta({ cursor: 'v41', full: true, categories: [cakes], areas: [mohali] })),
      ]);
      const result = await syncCatalogue({ store: upgraded, fetch: fn });
      expect(calls[0]?.url.searchParams.has('since')).toBe(false);
      expect(calls[0]?.headers['if-none-match']).toBeUndefined();
      expect(result.full).toBe(true);
      expect(await upgraded.areas.get('160062')).toEqual(mohali);
      // Only the cursor went: the rest of the device's data stayed through the upgrade.
      expect(await upgraded.categories.get(1)).toEqual(cakes);
    } finally {
      await upgraded.delete();
    }
  });
});

describe('images on the device', () => {
  const origin = 'http://shop.test';

  it('stores every product thumb once, skips failures, and prunes images no product points at', async () => {
    await writeProducts(
      store,
      [1, 2, 3].map((id) => ({ ...product(id, id), categoryIds: [1] })),
      [],
    );
    await store.images.put({
      url: '/media/gone-320.webp',
      blob: new Blob(['x']),
      productID: 99,
      storedAt: 1,
      kind: 'thumb',
    });
    const { fn, asked } = imageFetch(new Set(['/media/item-2-320.webp']));
    expect(await storeThumbnails({ store, fetch: fn, origin })).toBe(2);
    expect((await store.images.toCollection().primaryKeys()).sort()).toEqual([
      '/media/item-1-320.webp',
      '/media/item-3-320.webp',
    ]);
    expect(asked.sort()).toEqual([
      '/media/item-1-320.webp',
      '/media/item-2-320.webp',
      '/media/item-3-320.webp',
    ]);
    const again = imageFetch();
    expect(await storeThumbnails({ store, fetch: again.fn, origin })).toBe(1);
    expect(again.asked).toEqual(['/media/item-2-320.webp']);
    const row = await store.images.get('/media/item-1-320.webp');
    expect(row).toMatchObject({ productID: 1, kind: 'thumb' });
  });

  it('never stores another origin’s image or a non-image answer', async () => {
    const foreign = { ...product(1, 1), images: [], imagePath: 'https://cdn.example/x.jpg' };
    const html = { ...product(2, 2), images: [], imagePath: '/media/html-page' };
    await writeProducts(
      store,
      [
        { ...foreign, categoryIds: [1] },
        { ...html, categoryIds: [1] },
      ],
      [],
    );
    const { fn, asked } = imageFetch();
    expect(await storeThumbnails({ store, fetch: fn, origin })).toBe(0);
    expect(asked).toEqual(['/media/html-page']);
  });

  it('keeps page images of viewed products within the bound, oldest out first', async () => {
    const { fn } = imageFetch();
    expect(await storeProductImage(product(1, 1), { store, fetch: fn, origin })).toBe(true);
    expect(await store.images.get('/media/item-1-640.webp')).toMatchObject({ kind: 'src', productID: 1 });
    for (let i = 0; i < MAX_PAGE_IMAGES + 5; i++) {
      await keepImage(`/media/p-${i}-640.webp`, new Blob(['x']), 100 + i, 'src', store);
    }
    await keepImage('/media/t-320.webp', new Blob(['x']), 7, 'thumb', store);
    const pages = await store.images.filter((i) => i.kind === 'src').primaryKeys();
    expect(pages).toHaveLength(MAX_PAGE_IMAGES);
    expect(pages).not.toContain('/media/item-1-640.webp');
    expect(pages).toContain(`/media/p-${MAX_PAGE_IMAGES + 4}-640.webp`);
    expect(await store.images.get('/media/t-320.webp')).toBeDefined();
  });

  it('finds which product an image belongs to, and forgets after a sync', async () => {
    await writeProducts(store, [{ ...product(4, 4), categoryIds: [1] }], []);
    expect(await imageOwner('/media/item-4-320.webp', store, origin)).toEqual({
      productID: 4,
      kind: 'thumb',
    });
    expect(await imageOwner('/media/item-4-640.webp', store, origin)).toEqual({ productID: 4, kind: 'src' });
    expect(await imageOwner('/media/item-5-320.webp', store, origin)).toBeNull();
    await writeProducts(store, [{ ...product(5, 5), categoryIds: [1] }], []);
    await store.meta.put({ key: 'lastSyncedAt', value: 123 });
    expect(await imageOwner('/media/item-5-320.webp', store, origin)).toEqual({
      productID: 5,
      kind: 'thumb',
    });
  });
});
