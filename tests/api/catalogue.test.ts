import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import type { Category, CategoryGroup, Product } from '../../domain/catalogue.js';
import { CATEGORIES } from '../../domain/shop.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * The catalogue endpoints of the spec (section 7) over the demo catalogue:
 * public reads, admin writes, and every kind of bad input, on each dialect.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`catalogue on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let admin: Auth;
    let shopper: Auth;

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers });
    const version = async (id: number) =>
      (await get(`/api/GetProductById/${id}`)).json().data.version as number;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'h1-catalogue-'));
      t = await makeTestApp(dialect, { dataDir });
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app, { role: '0' })).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    describe('public reads', () => {
      it('lists the categories with the spec ids', async () => {
        const res = await get('/api/GetCategories');
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.isSuccess).toBe(true);
        expect(body.data).toEqual(
          Object.values(CATEGORIES)
            .map((c) => ({ categoryID: c.categoryID, categoryName: c.categoryName }))
            .sort((a, b) => a.categoryID - b.categoryID),
        );
      });

      it('lists every product in the spec shape', async () => {
        const res = await get('/api/ABCGetProducts');
        expect(res.statusCode).toBe(200);
        const products = res.json().data as Product[];
        expect(products.length).toBe(86);
        const p = products[0] as Product;
        expect(Object.keys(p).sort()).toEqual(
          [
            'productID',
            'title',
            'description',
            'price',
            'imagePath',
            'categories',
            'categoryName',
            'labelHeading',
            'labelDescription',
            'sizeOrWeight',
            'variations',
            'images',
            'updatedAt',
            'version',
            'takesMessage',
            'photoCake',
            'occasions',
          ].sort(),
        );
        expect(p.categories).toEqual([
          { categoryID: 13, categoryName: 'Chocolate Cakes' },
          { categoryID: 24, categoryName: 'All Cakes' },
        ]);
        expect(p.categoryName).toBe('Chocolate Cakes, All Cakes');
        expect(Number.isInteger(p.price)).toBe(true);
        expect(p.variations.map((v) => v.variationValue)).toEqual(['0.5 kg', '1 kg', '2 kg']);
        expect(p.images).toHaveLength(1);
        expect(p.imagePath).toBe(p.images[0]?.src);
        expect(p.images[0]?.thumb).toMatch(/^\/media\/.+-320\.webp$/);
        expect(p.images[0]?.srcset).toContain('320w');
      });

      it('lists the products of one category, and refuses unknown or bad ids', async () => {
        const res = await get('/api/ABCGetProducts?categoryId=13');
        expect(res.statusCode).toBe(200);
        const products = res.json().data as Product[];
        expect(products.length).toBe(6);
        for (const p of products) expect(p.categories.map((c) => c.categoryID)).toContain(13);
        const allCakes = (await get('/api/ABCGetProducts?categoryId=24')).json().data as Product[];
        expect(allCakes.length).toBe(48);

        const unknown = await get('/api/ABCGetProducts?categoryId=999');
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json()).toEqual({ isSuccess: false, data: null, sys_message: 'Category not found.' });
        for (const bad of ['abc', '-1', '0', '1.5']) {
          const res = await get(`/api/ABCGetProducts?categoryId=${bad}`);
          expect(res.statusCode, bad).toBe(400);
          expect(res.json().isSuccess).toBe(false);
        }
      });

      it('answers one product on both paths; 404 for unknown, 400 for bad ids', async () => {
        const a = await get('/api/ABCGetProducts/7');
        const b = await get('/api/GetProductById/7');
        expect(a.statusCode).toBe(200);
        expect(a.json().data.productID).toBe(7);
        expect(b.json()).toEqual(a.json());
        for (const url of ['/api/ABCGetProducts/99999', '/api/GetProductById/99999']) {
          const res = await get(url);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ isSuccess: false, data: null, sys_message: 'Product not found.' });
        }
        for (const url of [
          '/api/GetProductById/abc',
          '/api/ABCGetProducts/0',
          '/api/GetProductById/12345678901',
        ]) {
          const res = await get(url);
          expect(res.statusCode, url).toBe(400);
          expect(res.json().isSuccess).toBe(false);
        }
      });

      it('searches title, description and category name; an empty query finds nothing', async () => {
        const velvet = (await get('/api/search?q=VELVET')).json().data as Product[];
        // Six red velvet cakes and the red velvet combo; titles first.
        expect(velvet.length).toBe(7);
        expect(velvet.every((p) => /velvet/i.test(p.title + p.categoryName))).toBe(true);
        // "Mohali" is only in descriptions.
        expect(((await get('/api/search?q=mohali')).json().data as Product[]).length).toBe(86);
        // A category name: "All Flowers" matches bouquets whose titles do not say it.
        expect(((await get('/api/search?q=all%20flowers')).json().data as Product[]).length).toBe(12);
        for (const url of ['/api/search?q=', '/api/search?q=%20%20', '/api/search']) {
          const res = await get(url);
          expect(res.statusCode).toBe(200);
          expect(res.json().data).toEqual([]);
        }
        expect((await get('/api/search?q=zzzz-nothing')).json().data).toEqual([]);
        const long = await get(`/api/search?q=${'a'.repeat(201)}`);
        expect(long.statusCode).toBe(400);
        // Tags are not text: "strong" is markup in every description, never a match.
        expect((await get('/api/search?q=strong')).json().data).toEqual([]);
      });

      it('revalidates reads with an ETag: 304 while the catalogue is unchanged', async () => {
        for (const url of [
          '/api/GetCategories',
          '/api/ABCGetProducts',
          '/api/ABCGetProducts?categoryId=15',
          '/api/GetProductById/3',
          '/api/GetTopProductsByCategory',
        ]) {
          const first = await get(url);
          expect(first.statusCode).toBe(200);
          expect(first.headers['cache-control']).toBe('no-cache');
          const etag = first.headers.etag as string;
          expect(etag, url).toMatch(/^"v\d+-/);
          const again = await get(url, { 'if-none-match': etag });
          expect(again.statusCode, url).toBe(304);
          expect(again.body).toBe('');
          // The cached, pre-serialized answer is the same text as a fresh one.
          expect((await get(url)).body).toBe(first.body);
        }
        // Different requests never share a tag.
        const a = (await get('/api/ABCGetProducts?categoryId=15')).headers.etag as string;
        expect((await get('/api/ABCGetProducts?categoryId=17', { 'if-none-match': a })).statusCode).toBe(200);
        const missing = await get('/api/GetProductById/99999');
        expect(missing.statusCode).toBe(404);
        expect(missing.headers.etag).toBeUndefined();
      });

      it('groups top products by category name, at most 6 each', async () => {
        const groups = (await get('/api/GetTopProductsByCategory')).json().data as CategoryGroup[];
        expect(groups.map((g) => g.categoryName)).toContain('All Cakes');
        for (const g of groups) {
          expect(g.products.length).toBeGreaterThan(0);
          expect(g.products.length).toBeLessThanOrEqual(6);
          for (const p of g.products)
            expect(p.categories.map((c) => c.categoryName)).toContain(g.categoryName);
        }
        expect(groups.find((g) => g.categoryID === 24)?.products.length).toBe(6);
      });
    });

    describe('admin writes', () => {
      it('refuses writes without a token (401) and with a shopper token (403)', async () => {
        const calls = [
          { method: 'POST' as const, url: '/api/AddCategory', payload: { CategoryName: 'X' } },
          { method: 'DELETE' as const, url: '/api/DeleteCategory?categoryID=13' },
          { method: 'DELETE' as const, url: '/api/DeleteProduct?productID=1' },
          { method: 'PUT' as const, url: '/api/UpdateProductDetails', payload: { productID: 1 } },
          { method: 'POST' as const, url: '/api/AddProductForDash', payload: {} },
        ];
        for (const call of calls) {
          const anon = await t.app.inject(call);
          expect(anon.statusCode, call.url).toBe(401);
          expect(anon.json().isSuccess).toBe(false);
          const shop = await t.app.inject({ ...call, headers: shopper });
          expect(shop.statusCode, call.url).toBe(403);
          expect(shop.json().isSuccess).toBe(false);
        }
        const forged = await t.app.inject({ ...calls[0], headers: { authorization: 'Bearer not.a.token' } });
        expect(forged.statusCode).toBe(401);
        // Nothing changed.
        expect(((await get('/api/GetCategories')).json().data as Category[]).length).toBe(14);
        expect((await get('/api/GetProductById/1')).statusCode).toBe(200);
      });

      it('compares category names in any case and composition, beyond ASCII, alike on both databases', async () => {
        const add = (name: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/AddCategory',
            headers: admin,
            payload: { CategoryName: name },
          });
        expect((await add('Éclair Specials')).statusCode).toBe(201);
        for (const same of ['éclair specials', 'ÉCLAIR SPECIALS', 'E\u0301clair Specials']) {
          const res = await add(same);
          expect(res.statusCode, same).toBe(409);
          expect(res.json().sys_message).toBe(`A category named "${same}" already exists.`);
        }
        expect((await add('Eclair Specials')).statusCode).toBe(201);
      });

      it('adds a category; a taken name (any case) is a 409; an empty name is a 400', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: '  Cupcakes ' },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          isSuccess: true,
          sys_message: 'Category added successfully!',
          data: { categoryName: 'Cupcakes' },
        });
        // After the seed's explicit ids, new ids continue past them (PostgreSQL's sequence was moved).
        expect(res.json().data.categoryID).toBeGreaterThan(29);
        const dup = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { categoryName: 'CUPCAKES' },
        });
        expect(dup.statusCode).toBe(409);
        expect(dup.json().sys_message).toContain('already exists');
        for (const payload of [{ CategoryName: '   ' }, {}, { CategoryName: 12 }]) {
          const bad = await t.app.inject({
            method: 'POST',
            url: '/api/AddCategory',
            headers: admin,
            payload,
          });
          expect(bad.statusCode).toBe(400);
          expect(bad.json()).toEqual({
            isSuccess: false,
            data: expect.anything(),
            sys_message: 'Please enter a category name.',
          });
        }
        // Five admins add the same name at once: exactly one wins.
        const race = await Promise.all(
          Array.from({ length: 5 }, () =>
            t.app.inject({
              method: 'POST',
              url: '/api/AddCategory',
              headers: admin,
              payload: { CategoryName: 'Diyas' },
            }),
          ),
        );
        expect(race.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
        const long = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: 'x'.repeat(81) },
        });
        expect(long.statusCode).toBe(400);
        const notJson = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: { ...admin, 'content-type': 'application/json' },
          payload: '{"CategoryName":',
        });
        expect(notJson.statusCode).toBe(400);
        expect(notJson.json().isSuccess).toBe(false);
      });

      it('deletes a category by detaching it from its products', async () => {
        const before = await version(1);
        const res = await t.app.inject({
          method: 'DELETE',
          url: '/api/DeleteCategory?categoryID=13',
          headers: admin,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ isSuccess: true, data: { categoryID: 13, detachedProducts: 6 } });
        const cats = (await get('/api/GetCategories')).json().data as Category[];
        expect(cats.map((c) => c.categoryID)).not.toContain(13);
        const p = (await get('/api/GetProductById/1')).json().data as Product;
        expect(p.categories).toEqual([{ categoryID: 24, categoryName: 'All Cakes' }]);
        expect(p.version).toBeGreaterThan(before);
        expect((await get('/api/ABCGetProducts?categoryId=13')).statusCode).toBe(404);

        const again = await t.app.inject({
          method: 'DELETE',
          url: '/api/DeleteCategory?categoryID=13',
          headers: admin,
        });
        expect(again.statusCode).toBe(404);
        const bad = await t.app.inject({
          method: 'DELETE',
          url: '/api/DeleteCategory?categoryID=x',
          headers: admin,
        });
        expect(bad.statusCode).toBe(400);
        const missing = await t.app.inject({ method: 'DELETE', url: '/api/DeleteCategory', headers: admin });
        expect(missing.statusCode).toBe(400);
        // A deleted name may be used again.
        const reuse = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: 'Chocolate Cakes' },
        });
        expect(reuse.statusCode).toBe(201);
      });

      it('updates a product from the full product object, sanitizing its description', async () => {
        const original = (await get('/api/GetProductById/20')).json().data as Product;
        const staleTag = (await get('/api/ABCGetProducts?categoryId=17')).headers.etag as string;
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: {
            ...original,
            title: '  Butterscotch Royale ',
            price: '725',
            description:
              '<p onclick="steal()">Crunchy <b>praline</b><script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src="x" onerror="alert(1)"><iframe src="https://evil.test"></iframe>',
            labelHeading: 'New heading',
            variations: [{ VariationName: 'Weight', VariationType: '1 kg', Price: 999 }],
          },
        });
        expect(res.statusCode).toBe(200);
        const updated = res.json().data as Product;
        expect(res.json().sys_message).toBe('Product updated successfully.');
        expect(updated.title).toBe('Butterscotch Royale');
        expect(updated.price).toBe(725);
        expect(updated.labelHeading).toBe('New heading');
        expect(updated.description).toContain('<b>praline</b>');
        for (const evil of ['script', 'onclick', 'onerror', 'javascript:', 'iframe', 'alert'])
          expect(updated.description).not.toContain(evil);
        expect(updated.variations).toEqual([
          { variationID: expect.any(Number), variationName: 'Weight', variationValue: '1 kg', price: 999 },
        ]);
        expect(updated.categories).toEqual(original.categories);
        expect(updated.images).toEqual(original.images);
        expect(updated.version).toBeGreaterThan(original.version);
        // Lists answered before the change are stale now: their tags no longer match.
        const fresh = await get('/api/ABCGetProducts?categoryId=17', { 'if-none-match': staleTag });
        expect(fresh.statusCode).toBe(200);
        const listed = fresh.json().data as Product[];
        expect(listed.find((p) => p.productID === 20)?.title).toBe('Butterscotch Royale');

        // The spec's capitalised field names work too; categories are replaced when sent.
        const caps = await t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: {
            ProductID: 20,
            Title: 'Butterscotch Royale',
            Description: 'Plain',
            Price: 700,
            Categories: [{ CategoryID: 17 }],
          },
        });
        expect(caps.statusCode).toBe(200);
        expect(caps.json().data.categories).toEqual([{ categoryID: 17, categoryName: 'Butterscotch Cakes' }]);
        expect(caps.json().data.variations).toHaveLength(1);
      });

      it('refuses bad product updates with a truthful status and changes nothing', async () => {
        const before = (await get('/api/GetProductById/21')).json().data as Product;
        const base = { productID: 21, title: 'T', description: 'D', price: 10 };
        const cases: [unknown, number, string][] = [
          [{ ...base, title: '' }, 400, 'Title is required.'],
          [{ ...base, title: undefined }, 400, ''],
          [{ ...base, price: -1 }, 400, 'Price must be at least 0.'],
          [{ ...base, price: 10.5 }, 400, 'Price must be a whole number of rupees.'],
          [{ ...base, price: 'ten' }, 400, 'Price must be a whole number of rupees.'],
          [{ ...base, productID: 'x' }, 400, ''],
          [{ ...base, description: '<script>alert(1)</script>' }, 400, 'Description is required.'],
          [{ ...base, categories: [{ categoryID: 777 }] }, 400, 'Category 777 does not exist.'],
          [{ ...base, categories: [] }, 400, 'Choose at least one category.'],
          [{ ...base, variations: [{ variationName: 'W', variationValue: '1 kg', price: -5 }] }, 400, ''],
          [{ ...base, productID: 99999 }, 404, 'Product not found.'],
          [[1, 2, 3], 400, ''],
        ];
        for (const [payload, status, message] of cases) {
          const res = await t.app.inject({
            method: 'PUT',
            url: '/api/UpdateProductDetails',
            headers: admin,
            payload: payload as object,
          });
          expect(res.statusCode, JSON.stringify(payload)).toBe(status);
          expect(res.json().isSuccess).toBe(false);
          if (message) expect(res.json().sys_message).toBe(message);
        }
        expect((await get('/api/GetProductById/21')).json().data).toEqual(before);
      });

      it('answers every odd input with a 4xx envelope, never a 500', async () => {
        const bodies: unknown[] = [
          null,
          [],
          'text',
          42,
          { productID: null },
          { Title: ['a'], Price: {} },
          { __proto__: { x: 1 } },
        ];
        const calls: {
          method: 'GET' | 'POST' | 'PUT' | 'DELETE';
          url: string;
          payload?: unknown;
          type?: string;
        }[] = [
          { method: 'GET', url: '/api/ABCGetProducts?categoryId=13&categoryId=14' },
          { method: 'GET', url: '/api/ABCGetProducts?categoryId=' },
          { method: 'GET', url: '/api/ABCGetProducts/%00' },
          { method: 'GET', url: '/api/GetProductById/9999999999999999999999' },
          { method: 'GET', url: '/api/search?q=a&q=b' },
          { method: 'GET', url: '/api/sync/catalogue?since=1&since=2' },
          { method: 'GET', url: '/api/sync/catalogue?limit=99999999999' },
          { method: 'DELETE', url: '/api/DeleteCategory?categoryID=1&categoryID=2' },
          { method: 'DELETE', url: '/api/DeleteProduct?productID=99999' },
          {
            method: 'POST',
            url: '/api/AddCategory',
            payload: 'CategoryName=x',
            type: 'application/x-www-form-urlencoded',
          },
          { method: 'POST', url: '/api/AddProductForDash', payload: '--x\r\n', type: 'multipart/form-data' },
          {
            method: 'POST',
            url: '/api/AddProductForDash',
            payload: '--x\r\nbroken',
            type: 'multipart/form-data; boundary=x',
          },
          ...bodies.flatMap((b) => [
            {
              method: 'POST' as const,
              url: '/api/AddCategory',
              payload: JSON.stringify(b),
              type: 'application/json',
            },
            {
              method: 'PUT' as const,
              url: '/api/UpdateProductDetails',
              payload: JSON.stringify(b),
              type: 'application/json',
            },
          ]),
        ];
        for (const c of calls) {
          const res = await t.app.inject({
            method: c.method,
            url: c.url,
            headers: { ...admin, ...(c.type ? { 'content-type': c.type } : {}) },
            ...(c.payload !== undefined ? { payload: c.payload as string } : {}),
          });
          const label = `${c.method} ${c.url} ${String(c.payload)}`;
          expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, label).toBeLessThan(500);
          const body = res.json();
          expect(body.isSuccess, label).toBe(false);
          expect(typeof body.sys_message, label).toBe('string');
          expect(body.sys_message, label).not.toMatch(/at .*\.ts|SQLITE|syntax error|stack/i);
        }
      });

      it('deletes a product softly: gone from every read, a second delete is a 404', async () => {
        const { title } = (await get('/api/GetProductById/30')).json().data as Product;
        const res = await t.app.inject({
          method: 'DELETE',
          url: '/api/DeleteProduct?productID=30',
          headers: admin,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          isSuccess: true,
          data: { productID: 30 },
          sys_message: 'Product deleted successfully!',
        });
        expect((await get('/api/GetProductById/30')).statusCode).toBe(404);
        expect((await get('/api/ABCGetProducts/30')).statusCode).toBe(404);
        const all = (await get('/api/ABCGetProducts')).json().data as Product[];
        expect(all.map((p) => p.productID)).not.toContain(30);
        expect(
          ((await get(`/api/search?q=${encodeURIComponent(title)}`)).json().data as Product[]).length,
        ).toBe(0);
        const again = await t.app.inject({
          method: 'DELETE',
          url: '/api/DeleteProduct?productID=30',
          headers: admin,
        });
        expect(again.statusCode).toBe(404);
        const update = await t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: { productID: 30, title: 'x', description: 'y', price: 1 },
        });
        expect(update.statusCode).toBe(404);
        for (const url of ['/api/DeleteProduct?productID=abc', '/api/DeleteProduct']) {
          const bad = await t.app.inject({ method: 'DELETE', url, headers: admin });
          expect(bad.statusCode).toBe(400);
        }
      });
    });
  });
}
