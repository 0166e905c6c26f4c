import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentVersion } from '../../api/catalogue/catalogue.repository.js';
import { mediaDirOf } from '../../api/images/media-store.js';
import type { Product } from '../../domain/catalogue.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Nothing half-written: every admin write of the catalogue and the posts is
 * made to fail at its LAST database statement, by a real trigger in the real
 * database (SQLite and PostgreSQL), and afterwards the catalogue reads exactly
 * as before (rows, links, variations, the version devices sync from, image
 * files). The answer is the masked 500 envelope: a database failure is the
 * server's fault, and its text never reaches the client.
 *
 * Also: deleting a product keeps its image files (see api/images/README.md).
 */
type Auth = { authorization: string };
type Event = 'insert' | 'update' | 'delete';

async function pngOf(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 150, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function form(fields: Record<string, string | string[]>, images: Buffer[]) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) f.append(k, one);
  for (const [i, img] of images.entries())
    f.append('images', new Blob([new Uint8Array(img)], { type: 'image/png' }), `p${i}.png`);
  const res = new Response(f);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

for (const dialect of DIALECTS) {
  describe(`admin writes are all or nothing on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let dataDir: string;
    let _mediaDir: string;
    let productId: number;
    let cakes: number;
    let gifts: number;

    /** Makes every `event` on `table` fail inside the database while `run` runs. */
    async function failing<T>(table: string, event: Event, run: () => Promise<T>): Promise<T> {
      const name = `a3_fail_${table}_${event}`;
      if (dialect === 'sqlite') {
        await sql
          .raw(
            `create trigger ${name} before ${event} on ${table} begin select raise(abort, 'injected failure'); end`,
          )
          .execute(t.db.kysely);
      } else {
        await sql
          .raw(`create trigger ${name} before ${event} on ${table} for each row execute function a3_fail()`)
          .execute(t.db.kysely);
      }
      try {
        return await run();
      } finally {
        await sql
          .raw(`drop trigger ${name}${dialect === 'postgres' ? ` on ${table}` : ''}`)
          .execute(t.db.kysely);
      }
    }

    /** Everything a device or a shopper could see of the catalogue, plus the files on disk. */
    async function snapshot() {
      const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).json().data;
      return {
        version: await currentVersion(t.app.db),
        categories: await get('/api/GetCategories'),
        products: await get('/api/ABCGetProducts'),
        posts: await get('/api/posts'),
        rows: {
          links: await t.app.db
            .selectFrom('product_categories')
            .selectAll()
            .orderBy('product_id')
            .orderBy('category_id')
            .execute(),
          variations: await t.app.db
            .selectFrom('variations')
            .select(['product_id', 'name'])
            .orderBy('id')
            .execute(),
          images: await t.app.db
            .selectFrom('product_images')
            .select(['product_id', 'file_stem'])
            .orderBy('id')
            .execute(),
          products: await t.app.db
            .selectFrom('products')
            .select(['id', 'version', 'deleted_at'])
            .orderBy('id')
            .execute(),
          categories: await t.app.db
            .selectFrom('categories')
            .select(['id', 'version', 'deleted_at'])
            .orderBy('id')
            .execute(),
        },
        files: await t.app.media.names(),
      };
    }

    const expectMasked500 = (res: { statusCode: number; json(): Record<string, unknown> }) => {
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'Something went wrong. Please try again.',
      });
    };

    const addProduct = async (title: string, categoryIds: number[]) => {
      const body = await form(
        {
          CategoryID: categoryIds.map(String),
          Title: title,
          Description: '<p>Soft sponge</p>',
          LabelHeading: 'Eggless',
          LabelDescription: 'Fresh',
          Price: '500',
          SizeOrWeight: '1 kg',
          variationsJson: JSON.stringify([{ VariationName: 'Weight', VariationType: '2 kg', Price: 900 }]),
        },
        [await pngOf('#c63'), await pngOf('#36c')],
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        payload: body.payload,
        headers: { ...body.headers, ...admin },
      });
    };

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'a3-atomic-'));
      _mediaDir = mediaDirOf(dataDir);
      t = await makeTestApp(dialect, { dataDir });
      if (dialect === 'postgres') {
        await sql
          .raw(
            `create function a3_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
          )
          .execute(t.db.kysely);
      }
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      const cat = async (name: string) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/AddCategory',
            headers: admin,
            payload: { CategoryName: name },
          })
        ).json().data.categoryID as number;
      cakes = await cat('Atomic Cakes');
      gifts = await cat('Atomic Gifts');
      const res = await addProduct('Atomic Sponge', [cakes, gifts]);
      expect(res.statusCode).toBe(201);
      productId = res.json().data.productID;
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: admin,
        payload: { title: 'Hours' },
      });
      expect(post.statusCode).toBe(201);
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('POST /AddCategory', async () => {
      const before = await snapshot();
      const res = await failing('categories', 'insert', () =>
        t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: 'Never' },
        }),
      );
      expectMasked500(res);
      expect(await snapshot()).toEqual(before);
    });

    it('POST /AddProductForDash: no product, link, variation, image row or file', async () => {
      const before = await snapshot();
      expect(before.files.length).toBeGreaterThan(0);
      // Images are processed and written before the transaction; the last insert (image rows) fails.
      const res = await failing('product_images', 'insert', () => addProduct('Never Sponge', [cakes]));
      expectMasked500(res);
      expect(await snapshot()).toEqual(before);
    });

    it('PUT /UpdateProductDetails: the product row, its categories and variations stay as they were', async () => {
      const before = await snapshot();
      const product = (await t.app.inject({ method: 'GET', url: `/api/GetProductById/${productId}` })).json()
        .data as Product;
      const res = await failing('variations', 'insert', () =>
        t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: {
            ...product,
            title: 'Changed',
            price: 1,
            categories: [{ categoryID: gifts }],
            variations: [{ variationName: 'Size', variationValue: 'XL', price: 5 }],
          },
        }),
      );
      expectMasked500(res);
      expect(await snapshot()).toEqual(before);
    });

    it('DELETE /DeleteCategory: links, product stamps and the category stay', async () => {
      const before = await snapshot();
      // The category row is marked deleted last, after its links went and its products were re-stamped.
      const res = await failing('categories', 'update', () =>
        t.app.inject({ method: 'DELETE', url: `/api/DeleteCategory?categoryID=${gifts}`, headers: admin }),
      );
      expectMasked500(res);
      expect(await snapshot()).toEqual(before);
    });

    it('DELETE /DeleteProduct', async () => {
      const before = await snapshot();
      const res = await failing('products', 'update', () =>
        t.app.inject({ method: 'DELETE', url: `/api/DeleteProduct?productID=${productId}`, headers: admin }),
      );
      expectMasked500(res);
      expect(await snapshot()).toEqual(before);
    });

    it('POST, PUT and DELETE /posts', async () => {
      const before = await snapshot();
      const id = (before.posts as { id: number }[])[0]?.id;
      expect(id).toBeGreaterThan(0);
      expectMasked500(
        await failing('posts', 'insert', () =>
          t.app.inject({ method: 'POST', url: '/api/posts', headers: admin, payload: { title: 'Never' } }),
        ),
      );
      expectMasked500(
        await failing('posts', 'update', () =>
          t.app.inject({
            method: 'PUT',
            url: `/api/posts/${id}`,
            headers: admin,
            payload: { title: 'Never' },
          }),
        ),
      );
      expectMasked500(
        await failing('posts', 'delete', () =>
          t.app.inject({ method: 'DELETE', url: `/api/posts/${id}`, headers: admin }),
        ),
      );
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a form naming an unknown or deleted category before decoding any image', async () => {
      const before = await snapshot();
      const body = await form(
        {
          CategoryID: [String(cakes), '99999'],
          Title: 'Nowhere Cake',
          Description: '<p>x</p>',
          LabelHeading: 'a',
          LabelDescription: 'b',
          Price: '100',
        },
        // Not an image: had it been decoded first, the answer would name the image instead.
        [Buffer.from('not a picture at all')],
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        payload: body.payload,
        headers: { ...body.headers, ...admin },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        isSuccess: false,
        data: { field: 'CategoryID' },
        sys_message: 'Category 99999 does not exist.',
      });
      expect(await snapshot()).toEqual(before);
    });

    it('two admins at once: each delete, and each new name, succeeds exactly once (never a 500)', async () => {
      const admin2 = (await createUserWithToken(t.app, { role: '1' })).auth;
      const twice = <T>(make: (auth: Auth) => Promise<T>) =>
        Promise.all([admin, admin2, admin, admin2].map(make));
      const statuses = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort();

      const added = await twice((auth) =>
        t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: auth,
          payload: { CategoryName: 'Race Cakes' },
        }),
      );
      expect(statuses(added)).toEqual([201, 409, 409, 409]);
      const raceId = added.find((r) => r.statusCode === 201)?.json().data.categoryID as number;

      const product = await addProduct('Race Sponge', [raceId]);
      expect(product.statusCode).toBe(201);
      const id = product.json().data.productID as number;
      const versionBefore = await currentVersion(t.app.db);
      const deleted = await twice((auth) =>
        t.app.inject({ method: 'DELETE', url: `/api/DeleteProduct?productID=${id}`, headers: auth }),
      );
      expect(statuses(deleted)).toEqual([200, 404, 404, 404]);
      // One delete, one new version: the losers wrote nothing.
      expect(await currentVersion(t.app.db)).toBe(versionBefore + 1);

      const catDeleted = await twice((auth) =>
        t.app.inject({ method: 'DELETE', url: `/api/DeleteCategory?categoryID=${raceId}`, headers: auth }),
      );
      expect(statuses(catDeleted)).toEqual([200, 404, 404, 404]);
      expect(await currentVersion(t.app.db)).toBe(versionBefore + 2);
    });

    it('an update racing a delete never writes to the deleted product', async () => {
      const res = await addProduct('Race Bun', [cakes]);
      const product = res.json().data as Product;
      const [update, del] = await Promise.all([
        t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: { ...product, title: 'Race Bun Changed' },
        }),
        t.app.inject({
          method: 'DELETE',
          url: `/api/DeleteProduct?productID=${product.productID}`,
          headers: admin,
        }),
      ]);
      expect(del.statusCode).toBe(200);
      expect([200, 404]).toContain(update.statusCode);
      const row = await t.app.db
        .selectFrom('products')
        .select(['title', 'version', 'deleted_at'])
        .where('id', '=', product.productID)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();
      // A refused update left the title; an update that won was made before the delete.
      if (update.statusCode === 404) expect(row.title).toBe('Race Bun');
      else expect(row.title).toBe('Race Bun Changed');
      const deletes = await t.app.db
        .selectFrom('catalogue_state')
        .select('version')
        .executeTakeFirstOrThrow();
      expect(Number(row.version)).toBe(Number(deletes.version));
    });

    it('deleting a product keeps its image files, still served: devices and order history still show them', async () => {
      const product = (await t.app.inject({ method: 'GET', url: `/api/GetProductById/${productId}` })).json()
        .data as Product;
      const urls = product.imagePath.split(',').filter(Boolean);
      expect(urls.length).toBe(2);
      const filesBefore = await t.app.media.names();
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/DeleteProduct?productID=${productId}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/GetProductById/${productId}` })).statusCode,
      ).toBe(404);
      expect(await t.app.media.names()).toEqual(filesBefore);
      for (const url of [...urls, ...product.images.map((i) => i.thumb)]) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
      }
      // A device that syncs learns the product is gone (and stops showing it) from the feed.
      const feed = (
        await t.app.inject({
          method: 'GET',
          url: `/api/sync/catalogue?since=${(await currentVersion(t.app.db)) - 1}`,
        })
      ).json().data;
      expect(feed.deletedProductIds).toContain(productId);
    });
  });
}
