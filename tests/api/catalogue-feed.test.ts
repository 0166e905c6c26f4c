import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { type CatalogueDelta, LIMITS, type Product } from '../../domain/catalogue.js';
import { LATER_PAGE_SIZE } from '../../sw/catalogue-sync.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * The delta feed `GET /api/sync/catalogue`: full snapshots in pages, deltas
 * after each kind of write (changes, deletions, detached categories), ETag
 * and 304, a stable window while paging, and bad cursors.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`catalogue feed on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let admin: Auth;

    const feed = async (query = '', headers: Record<string, string> = {}) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync/catalogue${query}`, headers });
      return { res, delta: res.statusCode === 200 ? (res.json().data as CatalogueDelta) : null };
    };
    /** Follows the pages from `since` to the end, as a device does. */
    const all = async (since: string | null, limit: number) => {
      const pages: CatalogueDelta[] = [];
      let cursor = since;
      for (;;) {
        const q = new URLSearchParams({
          limit: String(limit),
          ...(cursor !== null ? { since: cursor } : {}),
        });
        const { delta } = await feed(`?${q}`);
        if (!delta) throw new Error('feed failed');
        pages.push(delta);
        cursor = delta.cursor;
        if (!delta.hasMore) return pages;
      }
    };
    const update = (p: Product, changes: Partial<Product>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { ...p, ...changes },
      });
    const product = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/GetProductById/${id}` })).json().data as Product;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'h1-feed-'));
      t = await makeTestApp(dialect, { dataDir });
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('gives a full snapshot without a cursor, in pages', async () => {
      const { res, delta } = await feed();
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(/^"cat-full-\d+-500"$/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(delta?.full).toBe(true);
      expect(delta?.hasMore).toBe(false);
      expect(delta?.products).toHaveLength(86);
      expect(delta?.categories).toHaveLength(14);
      expect(delta?.deletedProductIds).toEqual([]);
      expect(delta?.products[0]?.variations.length).toBeGreaterThan(0);
      expect(delta?.products[0]?.images.length).toBe(1);

      const pages = await all(null, 30);
      expect(pages.map((p) => p.products.length)).toEqual([30, 30, 26]);
      expect(pages.every((p) => p.full)).toBe(true);
      expect(pages[0]?.categories).toHaveLength(14);
      expect(pages[1]?.categories).toEqual([]);
      const ids = pages.flatMap((p) => p.products.map((x) => x.productID));
      expect(new Set(ids).size).toBe(86);
      expect(pages.at(-1)?.cursor).toBe(delta?.cursor);
      expect(pages[0]?.cursor).toMatch(/^0\.\d+\.30$/);
      // A page with more after it names the next one in its headers (a phone asks for it before this
      // body has arrived): the body's cursor, the same limit; the last page names none.
      const first = await feed('?limit=30');
      expect(first.res.headers.link).toBe(
        `</api/sync/catalogue?since=${encodeURIComponent(pages[0]?.cursor ?? '')}&limit=30>; rel="next"`,
      );
      const second = await feed(`?limit=30&since=${pages[0]?.cursor}`);
      expect(second.res.headers.link).toContain(`since=${encodeURIComponent(pages[1]?.cursor ?? '')}&`);
      expect((await feed(`?limit=30&since=${pages[1]?.cursor}`)).res.headers.link).toBeUndefined();
      expect(res.headers.link).toBeUndefined();
    });

    it('answers an unchanged catalogue with 304 on If-None-Match, and 200 once it changes', async () => {
      const first = await feed();
      const cursor = first.delta?.cursor as string;
      const none = await feed(`?since=${cursor}`);
      expect(none.res.statusCode).toBe(200);
      expect(none.delta).toMatchObject({
        cursor,
        full: false,
        hasMore: false,
        categories: [],
        products: [],
        deletedProductIds: [],
        deletedCategoryIds: [],
      });
      const etag = none.res.headers.etag as string;
      const again = await feed(`?since=${cursor}`, { 'if-none-match': etag });
      expect(again.res.statusCode).toBe(304);
      expect(again.res.body).toBe('');
      expect(again.res.headers.etag).toBe(etag);
      // A weak form and a list both match.
      expect((await feed(`?since=${cursor}`, { 'if-none-match': `"x", W/${etag}` })).res.statusCode).toBe(
        304,
      );
      // The full snapshot's own ETag works the same way.
      expect((await feed('', { 'if-none-match': first.res.headers.etag as string })).res.statusCode).toBe(
        304,
      );

      const p = await product(5);
      expect((await update(p, { price: p.price + 1 })).statusCode).toBe(200);
      const changed = await feed(`?since=${cursor}`, { 'if-none-match': etag });
      expect(changed.res.statusCode).toBe(200);
      expect(changed.res.headers.etag).not.toBe(etag);
      expect(changed.delta?.full).toBe(false);
      expect(changed.delta?.products.map((x) => [x.productID, x.price])).toEqual([[5, p.price + 1]]);
      expect(Number(changed.delta?.cursor)).toBeGreaterThan(Number(cursor));
    });

    it('sends the slots and closed dates on a full snapshot and on the delta after they change, not after a product change', async () => {
      const first = await feed();
      expect(first.delta?.slots?.length).toBeGreaterThan(0);
      expect(first.delta?.closedDates).toEqual([]);
      const cursor = first.delta?.cursor as string;

      // One product changes: the delta is that product, without the shop's slot table (issue 17).
      const p = await product(7);
      expect((await update(p, { price: p.price + 2 })).statusCode).toBe(200);
      const productOnly = await feed(`?since=${cursor}`);
      expect(productOnly.delta?.products.map((x) => x.productID)).toEqual([7]);
      expect(productOnly.delta?.slots).toBeUndefined();
      expect(productOnly.delta?.closedDates).toBeUndefined();
      expect(productOnly.res.body.length).toBeLessThan(2048);

      // A date is closed: the delta from before carries slots and closed dates whole, once.
      const afterProduct = productOnly.delta?.cursor as string;
      const day = '2099-11-01';
      const close = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/closed-dates/${day}`,
        headers: admin,
        payload: { message: 'Closed for Diwali' },
      });
      expect(close.statusCode).toBe(200);
      for (const since of [cursor, afterProduct]) {
        const withSlots = await feed(`?since=${since}`);
        expect(withSlots.delta?.closedDates).toEqual([{ date: day, message: 'Closed for Diwali' }]);
        expect(withSlots.delta?.slots).toEqual(first.delta?.slots);
      }
      const later = (await feed(`?since=${afterProduct}`)).delta?.cursor as string;
      expect((await feed(`?since=${later}`)).delta?.closedDates).toBeUndefined();
      // Reopened: the delta says so with an empty list, which replaces the device's copy.
      await t.app.inject({ method: 'DELETE', url: `/api/admin/closed-dates/${day}`, headers: admin });
      expect((await feed(`?since=${later}`)).delta?.closedDates).toEqual([]);
    });

    it('sends deletions: products deleted, categories deleted and the products they left', async () => {
      const cursor = (await feed()).delta?.cursor as string;
      const del = await t.app.inject({
        method: 'DELETE',
        url: '/api/DeleteProduct?productID=6',
        headers: admin,
      });
      expect(del.statusCode).toBe(200);
      const cat = await t.app.inject({
        method: 'DELETE',
        url: '/api/DeleteCategory?categoryID=14',
        headers: admin,
      });
      expect(cat.statusCode).toBe(200);
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/AddCategory',
        headers: admin,
        payload: { CategoryName: 'Cupcakes' },
      });
      const { delta } = await feed(`?since=${cursor}`);
      expect(delta?.deletedProductIds).toEqual([6]);
      expect(delta?.deletedCategoryIds).toEqual([14]);
      expect(delta?.categories).toEqual([added.json().data]);
      // The truffle cakes (7..12) lost category 14 and are sent again without it.
      expect(delta?.products.map((x) => x.productID)).toEqual([7, 8, 9, 10, 11, 12]);
      for (const x of delta?.products ?? []) expect(x.categories.map((c) => c.categoryID)).toEqual([24]);
      // A full snapshot never lists deletions: the device replaces its copy.
      const full = (await feed()).delta;
      expect(full?.deletedProductIds).toEqual([]);
      expect(full?.products.map((x) => x.productID)).not.toContain(6);
    });

    it('keeps the window fixed while paging; changes made meanwhile come with the next cursor', async () => {
      const start = (await feed()).delta?.cursor as string;
      // Three changes, then page through them two at a time...
      for (const id of [1, 2, 3]) {
        const p = await product(id);
        expect((await update(p, { title: `${p.title} v2` })).statusCode).toBe(200);
      }
      const page1 = (await feed(`?since=${start}&limit=2`)).delta;
      expect(page1?.products.map((x) => x.productID)).toEqual([1, 2]);
      expect(page1?.hasMore).toBe(true);
      // ...while product 1 (already sent) and product 40 (outside the window) change again.
      for (const id of [1, 40]) {
        const p = await product(id);
        expect((await update(p, { title: `${p.title} v3` })).statusCode).toBe(200);
      }
      const page2 = (await feed(`?since=${page1?.cursor}&limit=2`)).delta;
      expect(page2?.products.map((x) => x.productID)).toEqual([3]);
      expect(page2?.hasMore).toBe(false);
      const next = (await feed(`?since=${page2?.cursor}`)).delta;
      expect(next?.products.map((x) => x.productID)).toEqual([1, 40]);
      expect(next?.products[0]?.title).toMatch(/v3$/);
    });

    it('never skips a change when writes and syncs run at the same time', async () => {
      // A device's copy: the full snapshot, then deltas pulled while 30 writes race each other.
      const device = new Map<number, number>();
      let cursor = '';
      const pull = async () => {
        for (const page of await all(cursor || null, 25)) {
          for (const p of page.products) device.set(p.productID, p.price);
          for (const id of page.deletedProductIds) device.delete(id);
          cursor = page.cursor;
        }
      };
      await pull();
      const ids = [31, 32, 33, 34, 35, 36, 37, 38, 39, 41];
      const writes = Array.from({ length: 30 }, async (_, i) => {
        const id = ids[i % ids.length] as number;
        const p = await product(id);
        const res = await update(p, { price: 1000 + i });
        expect(res.statusCode).toBe(200);
      });
      let done = false;
      const settled = Promise.all(writes).then(() => {
        done = true;
      });
      while (!done) {
        await pull();
        // Let the writes' I/O run: on SQLite a pull can resolve entirely in microtasks.
        await new Promise((r) => setImmediate(r));
      }
      await settled;
      await pull();
      const server = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      expect(new Map(server.map((p) => [p.productID, p.price]))).toEqual(device);
    });

    it('answers a cursor from another database (above the current version) with a full snapshot', async () => {
      const { delta } = await feed('?since=999999999');
      expect(delta?.full).toBe(true);
      expect(delta?.products.length).toBeGreaterThan(80);
      const mid = (await feed('?since=5.999999.3')).delta;
      expect(mid?.full).toBe(true);
      // An empty cursor is no cursor.
      const empty = await feed('?since=');
      expect(empty.delta?.full).toBe(true);
      expect(empty.res.headers.etag).toMatch(/^"cat-full-/);
    });

    it('refuses bad cursors and limits with 400', async () => {
      // The largest page, the one a phone's sync asks for after its first, is accepted.
      expect(LATER_PAGE_SIZE).toBe(LIMITS.feedPage);
      expect((await feed(`?limit=${LATER_PAGE_SIZE}`)).res.statusCode).toBe(200);
      for (const q of [
        '?since=abc',
        '?since=1.2',
        '?since=-1',
        '?limit=0',
        `?limit=${LIMITS.feedPage + 1}`,
        '?limit=x',
        '?since=1.2.3.4',
        // A product id beyond any id the database can hold (PostgreSQL failed the query: a 500).
        '?since=1.2.2147483648',
        '?since=0.1.999999999999999',
      ]) {
        const { res } = await feed(q);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().isSuccess).toBe(false);
      }
    });
  });
}
