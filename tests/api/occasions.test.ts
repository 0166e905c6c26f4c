import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import type { Product } from '../../domain/catalogue.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/** Occasions through both product endpoints and the feed, and unknown ones refused, on each dialect. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]) {
  const boundary = `----occ${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head = p.filename
      ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: image/png\r\n\r\n`
      : `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), 'content-type': `multipart/form-data; boundary=${boundary}` };
}

for (const dialect of DIALECTS) {
  describe(`product occasions on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let admin: { authorization: string };
    let image: Buffer;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'h1-occasions-'));
      t = await makeTestApp(dialect, { dataDir });
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
        .png()
        .toBuffer();
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const add = (occasions: string[]) => {
      const form = multipart([
        { name: 'CategoryID', value: '25' },
        { name: 'Title', value: 'Occasion Roses' },
        { name: 'Description', value: '<p>Red roses</p>' },
        { name: 'LabelHeading', value: 'Fresh' },
        { name: 'LabelDescription', value: 'Cut today' },
        { name: 'Price', value: '799' },
        ...occasions.map((value) => ({ name: 'Occasion', value })),
        { name: 'images', value: image, filename: 'r.png' },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        headers: { ...admin, 'content-type': form['content-type'] },
        payload: form.payload,
      });
    };

    it('gives the demo products their occasions in every answer', async () => {
      const products = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      const roses = products.find((p) => p.title === 'Red Roses Bouquet');
      expect(roses?.occasions).toContain("Valentine's Day");
      expect(products.find((p) => p.title === 'Classic Truffle Cake')?.occasions).toEqual([
        'Birthday',
        'Anniversary',
        'Congratulations',
      ]);
    });

    it('adds a product with repeated Occasion fields, in the list order, and keeps them on an update that leaves them out', async () => {
      const created = await add(["Valentine's Day", 'Anniversary', 'Anniversary']);
      expect(created.statusCode, created.body).toBe(201);
      const product = created.json().data as Product;
      expect(product.occasions).toEqual(['Anniversary', "Valentine's Day"]);

      const put = (extra: Record<string, unknown>) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/UpdateProductDetails',
          headers: admin,
          payload: {
            productID: product.productID,
            title: 'Occasion Roses',
            description: '<p>Red roses</p>',
            price: 799,
            ...extra,
          },
        });
      const kept = await put({});
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json().data.occasions).toEqual(['Anniversary', "Valentine's Day"]);
      expect(kept.json().data.version).toBeGreaterThan(product.version);

      const changed = await put({ occasions: ['Sorry', 'Birthday'] });
      expect(changed.json().data.occasions).toEqual(['Birthday', 'Sorry']);
      // A saved product is re-stamped: the feed's delta from its old version carries the new occasions.
      const feed = await t.app.inject({ method: 'GET', url: `/api/sync/catalogue?since=${product.version}` });
      const row = (feed.json().data.products as Product[]).find((p) => p.productID === product.productID);
      expect(row?.occasions).toEqual(['Birthday', 'Sorry']);

      const cleared = await put({ occasions: [] });
      expect(cleared.json().data.occasions).toEqual([]);
    });

    it('refuses an unknown occasion on either endpoint with a 400 naming the field, saving nothing', async () => {
      const before = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json().data.length;
      const bad = await add(['Birthday', 'Halloween']);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().sys_message).toMatch(/^Occasions must be from: Birthday/);
      expect(bad.json().data.field).toMatch(/^occasions/);
      const after = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json().data.length;
      expect(after).toBe(before);

      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { productID: 1, title: 'X', description: '<p>x</p>', price: 1, occasions: ['Halloween'] },
      });
      expect(put.statusCode).toBe(400);
      expect(put.json().data.field).toMatch(/^occasions/);
      const one = (await t.app.inject({ method: 'GET', url: '/api/GetProductById/1' })).json()
        .data as Product;
      expect(one.title).not.toBe('X');
      const notList = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { productID: 1, title: 'X', description: '<p>x</p>', price: 1, occasions: 'Birthday' },
      });
      expect(notList.statusCode).toBe(400);
      expect(notList.json().sys_message).toBe('Occasions must be a list.');
    });
  });
}
