import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { DatabaseMediaStore } from '../../api/images/media-store.js';
import { DEMO_PHOTO_CAKES, seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedSyntheticProducts } from '../../api/seed/synthetic.js';
import { runStartupTasks } from '../../api/startup.js';
import type { Product } from '../../domain/catalogue.js';
import { CATEGORIES } from '../../domain/shop.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS, TEST_DATABASE_URL } from '../support/databases.js';

/**
 * The demo catalogue: the spec's categories with their ids, at least 80
 * products with pictures made by the project, loaded once into an empty
 * database (by the start-up task when SEED_DEMO is on), and the synthetic
 * catalogue the benchmarks use.
 */
for (const dialect of DIALECTS) {
  describe(`demo catalogue on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'h1-seed-'));
      t = await makeTestApp(dialect, { dataDir, seedDemo: true });
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('is loaded by the start-up task into an empty database, once', async () => {
      const started = Date.now();
      await runStartupTasks(t.app);
      // Reported, not asserted (no timed assertions): the issue asks for under 20 s.
      console.log(`demo catalogue on ${dialect}: ${Date.now() - started} ms`);
      const products = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      expect(products.length).toBeGreaterThanOrEqual(80);
      const again = await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      expect(again).toEqual({ categories: 0, products: 0 });
      await runStartupTasks(t.app);
      const after = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      expect(after.length).toBe(products.length);
    });

    it('takes a message on every cake, and has two photo cakes (issue 26)', async () => {
      const cakes = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts?categoryId=24' })).json()
        .data as Product[];
      expect(cakes.length).toBeGreaterThan(0);
      expect(cakes.every((p) => p.takesMessage)).toBe(true);
      const all = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      expect(
        all
          .filter((p) => p.photoCake)
          .map((p) => p.title)
          .sort(),
      ).toEqual([...DEMO_PHOTO_CAKES].sort());
      expect(all.filter((p) => p.photoCake).every((p) => p.takesMessage)).toBe(true);
      expect(all.some((p) => !p.takesMessage)).toBe(true);
    });

    it('has the spec categories with their ids, and the right products in the "All" categories', async () => {
      const cats = (await t.app.inject({ method: 'GET', url: '/api/GetCategories' })).json().data;
      for (const c of Object.values(CATEGORIES)) expect(cats).toContainEqual(c);
      const of = async (id: number) =>
        (await t.app.inject({ method: 'GET', url: `/api/ABCGetProducts?categoryId=${id}` })).json()
          .data as Product[];
      const allCakes = await of(24);
      for (const id of [13, 14, 15, 17, 18, 19, 20, 21]) {
        const members = await of(id);
        expect(members.length, `category ${id}`).toBeGreaterThanOrEqual(4);
        for (const p of members) expect(allCakes.map((x) => x.productID)).toContain(p.productID);
      }
      expect((await of(25)).every((p) => /bouquet|bunch|basket|arrangement/i.test(p.title))).toBe(true);
      for (const id of [25, 26, 27, 28, 29])
        expect((await of(id)).length, `category ${id}`).toBeGreaterThanOrEqual(6);
    });

    it('gives every product rupee prices, sizes, labels, HTML descriptions and a picture under budget', async () => {
      const products = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      for (const p of products) {
        expect(Number.isInteger(p.price) && p.price > 0).toBe(true);
        expect(p.sizeOrWeight).not.toBe('');
        expect(p.labelHeading).not.toBe('');
        expect(p.labelDescription).not.toBe('');
        expect(p.description).toMatch(/^<p>/);
        expect(p.images).toHaveLength(1);
        const img = p.images[0];
        const size = async (url = '') => (await t.app.media.get(path.basename(url)))?.content.length;
        const thumb = await size(img?.thumb);
        const src = await size(img?.src);
        expect(thumb).toBeLessThan(15 * 1024);
        expect(src).toBeLessThan(60 * 1024);
      }
      expect(await t.app.media.names()).toHaveLength(products.length * 2);
      const cake = products.find((p) => p.categories.some((c) => c.categoryID === 24));
      expect(cake?.variations.map((v) => v.variationValue)).toEqual(['0.5 kg', '1 kg', '2 kg']);
    });

    it('keeps ids growing after the explicit seed ids, and adds a synthetic catalogue for benches', async () => {
      const admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      const cat = await t.app.inject({
        method: 'POST',
        url: '/api/AddCategory',
        headers: admin,
        payload: { CategoryName: 'Cupcakes' },
      });
      expect(cat.statusCode).toBe(201);
      expect(cat.json().data.categoryID).toBe(30);
      const { firstId, lastId } = await seedSyntheticProducts(t.app.db, dialect, 1000);
      expect(lastId - firstId + 1).toBe(1000);
      const products = (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json()
        .data as Product[];
      expect(products.length).toBe(1086);
      const last = products.at(-1);
      expect(last?.productID).toBe(lastId);
      expect(last?.variations).toHaveLength(3);
      expect(last?.categories.length).toBeGreaterThan(0);
    });
  });
}

/**
 * Several processes starting together on one empty PostgreSQL database (issue 18) each find it
 * empty and seed: one catalogue stands, the others start without error and leave no pictures of
 * their own behind. SQLite runs as one process (its default), so the race is PostgreSQL's.
 */
describe.skipIf(!TEST_DATABASE_URL)('demo catalogue seeded by processes starting together (postgres)', () => {
  it('gives one catalogue, and every process starts', async () => {
    const url = TEST_DATABASE_URL as string;
    const schema = `seed_race_${Date.now().toString(36)}_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const dbs = [1, 2, 3].map(() => openDatabase({ databaseUrl: url, pgSchema: schema }));
    try {
      await migrateToLatest((dbs[0] as Db).kysely);
      const results = await Promise.all(
        dbs.map((db) => seedDemoCatalogue(db.kysely, 'postgres', new DatabaseMediaStore(db.kysely))),
      );
      const seeded = results.filter((r) => r.products > 0);
      expect(seeded).toHaveLength(1);
      const products = Number(
        (await admin.query(`select count(*) from ${schema}.products`)).rows[0]?.count ?? 0,
      );
      expect(products).toBe(seeded[0]?.products);
      expect(Number((await admin.query(`select count(*) from ${schema}.categories`)).rows[0]?.count)).toBe(
        Object.keys(CATEGORIES).length,
      );
      // One set of pictures, in the store they share: two variants per product, none drawn twice.
      expect(Number((await admin.query(`select count(*) from ${schema}.media_files`)).rows[0]?.count)).toBe(
        products * 2,
      );
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});
