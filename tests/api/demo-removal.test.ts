/**
 * "Make it yours" on SQLite and PostgreSQL: the go-live checklist moving as the owner saves the
 * profile and settings, an older database's demo rows recognised by the migration's rule, and the
 * one-step removal of the demo catalogue: it keeps the owner's product, a demo product the owner
 * edited through the admin API, a demo category the owner renamed and every order (an order of a
 * demo product still reads with its lines, its picture still served), removes the rest (a feed
 * delta carries the deletions to phones), ends the SAVE200 coupon an order used and clears the
 * offer naming it; a second removal removes nothing. Admin only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDemoRows } from '../../api/db/migrations/20261128_1800_demo_rows.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedDemoSlots } from '../../api/slots/slot.seed.js';
import type { CatalogueDelta, Product } from '../../domain/catalogue.js';
import { DEMO_COUPON, type DemoRemoved, type GoLive, goLiveMessages } from '../../domain/go-live.js';
import { CATEGORIES } from '../../domain/shop.js';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`making the demo shop your own on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let admin: Auth;
    let shopper: Auth;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'golive-'));
      t = await makeTestApp(dialect, { dataDir });
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      await seedDemoSlots(t.app.db, t.app.dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const goLive = async (): Promise<GoLive> => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/go-live', headers: admin });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const done = async () => Object.fromEntries((await goLive()).items.map((i) => [i.id, i.done]));
    const remove = (auth: Auth | null = admin) =>
      t.app.inject({ method: 'POST', url: '/api/admin/demo/remove', headers: auth ?? {} });
    const saveSettings = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin, payload });
    const version = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('catalogue_state')
            .select('version')
            .where('id', '=', 1)
            .executeTakeFirstOrThrow()
        ).version,
      );
    const product = (id: number) => t.app.inject({ method: 'GET', url: `/api/GetProductById/${id}` });

    it('is for admins only: 401 logged out, 403 for a shopper, nothing removed', async () => {
      for (const call of [
        (auth: Auth | null) =>
          t.app.inject({ method: 'GET', url: '/api/admin/go-live', headers: auth ?? {} }),
        remove,
      ]) {
        expect((await call(null)).statusCode).toBe(401);
        expect((await call(shopper)).statusCode).toBe(403);
      }
      expect((await goLive()).demo).toEqual({ products: 86, categories: 14, images: 86, coupon: true });
    });

    it('recognises the demo rows of a database seeded before the flag: unchanged ones only', async () => {
      await t.app.db.updateTable('products').set({ demo: 0 }).execute();
      await t.app.db.updateTable('categories').set({ demo: 0 }).execute();
      // An edit made before the flag existed: the rule must not count it as the demo's.
      await t.app.db
        .updateTable('products')
        .set((eb) => ({ updated_at: eb('updated_at', '+', 1000) }))
        .where('id', '=', 5)
        .execute();
      await markDemoRows(t.app.db);
      const flags = await t.app.db.selectFrom('products').select(['id', 'demo']).orderBy('id').execute();
      expect(flags.filter((r) => Number(r.demo) === 1).map((r) => r.id)).toEqual(
        Array.from({ length: 86 }, (_, i) => i + 1).filter((id) => id !== 5),
      );
      await t.app.db.updateTable('products').set({ demo: 1 }).where('id', '=', 5).execute();
      expect((await goLive()).demo.categories).toBe(14);
    });

    it('ticks the profile when the owner saves their own, and payments and policies by their settings', async () => {
      expect(await done()).toMatchObject({ profile: false, payments: false, policies: false, areas: false });
      const own = {
        ...DEMO_PROFILE,
        name: 'Rose & Rye Bakers',
        care: { ...DEMO_PROFILE.care, phone: '+91 91234 56780', email: 'hello@roseandrye.in' },
      };
      // The demo's phone kept: still not the owner's.
      const half = await saveSettings({ profile: { ...own, care: DEMO_PROFILE.care } });
      expect(half.statusCode).toBe(200);
      expect((await done()).profile).toBe(false);
      expect((await saveSettings({ profile: own })).statusCode).toBe(200);
      expect(await done()).toMatchObject({ profile: true, fssai: false, grievance: false });

      // A bad value is refused by field, nothing saved.
      const bad = await saveSettings({ codOnlyConfirmed: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data.field).toBe('codOnlyConfirmed');
      expect((await done()).payments).toBe(false);

      expect((await saveSettings({ codOnlyConfirmed: true, policiesReviewed: true })).statusCode).toBe(200);
      expect(await done()).toMatchObject({ payments: true, policies: true });
      const answer = await goLive();
      expect(answer.ready).toBe(false);
      expect(answer.items.find((i) => i.id === 'areas')?.path).toBe('/delivery-areas');
    });

    it("removes the demo and keeps the owner's products, edited demo rows and every order", async () => {
      // The owner's own product, in a demo category (the category stays for it).
      const own = await insertProduct(t.app, { title: `Owner Cake ${dialect}` });
      await t.app.db
        .insertInto('product_categories')
        .values({ product_id: own.id, category_id: CATEGORIES.plants.categoryID })
        .execute();
      // A demo product the owner edited through the admin API: it is theirs now.
      const edited = (await product(2)).json().data as Product;
      const update = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { ...edited, price: edited.price + 50 },
      });
      expect(update.statusCode).toBe(200);
      // A demo product whose pictures the owner rearranged (here: kept only its first).
      const pictured = (await product(3)).json().data as Product;
      const boundary = 'golive-boundary';
      const order = JSON.stringify([{ src: pictured.images[0]?.src }]);
      const images = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/products/3/images',
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="order"\r\n\r\n${order}\r\n--${boundary}--\r\n`,
      });
      expect(images.statusCode, images.body).toBe(200);
      // A demo category the owner renamed.
      const renamed = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/categories/${CATEGORIES.gifts.categoryID}`,
        headers: admin,
        payload: { CategoryName: 'Gift Hampers' },
      });
      expect(renamed.statusCode).toBe(200);

      // A shopper's first order: a demo product with the demo coupon.
      const first = (await product(1)).json().data as Product;
      const line: FixtureProduct = {
        id: first.productID,
        title: first.title,
        price: first.price,
        variations: [],
      };
      const body = orderRequest([{ product: line }], {
        CouponCode: DEMO_COUPON,
        TotalAmount: first.price + 150 - 200,
      });
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper, 'idempotency-key': newKey() },
        payload: body,
      });
      expect(placed.statusCode, placed.body).toBe(200);
      const orderId = placed.json().data.orderID as number;
      const before = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${orderId}`,
        headers: admin,
      });
      const picture = before.json().data.items[0].productImage as string;
      expect(picture).toMatch(/^\/media\/demo-1-/);

      const left = (await goLive()).demo;
      // Edited products 2 and 3 keep Chocolate Cakes and All Cakes; Plants holds the owner's cake; Gifts was renamed.
      expect(left).toEqual({ products: 84, categories: 10, images: 84, coupon: true });
      const otherPicture = (await product(4)).json().data.images[0].src as string;
      const cursor = await version();

      const res = await remove();
      expect(res.statusCode).toBe(200);
      const removed: DemoRemoved = res.json().data;
      expect(removed).toEqual({
        products: 84,
        categories: 10,
        images: 84,
        coupon: 'ended',
        offerCleared: true,
      });
      expect(res.json().sys_message).toBe(goLiveMessages.removed(removed));
      expect(await version()).toBeGreaterThan(cursor);

      // Kept: the owner's product, the edited demo product, the categories they are in, the renamed one.
      expect((await product(own.id)).statusCode).toBe(200);
      expect((await product(2)).statusCode).toBe(200);
      expect((await product(3)).statusCode).toBe(200);
      expect((await product(1)).statusCode).toBe(404);
      expect((await product(86)).statusCode).toBe(404);
      const cats = (await t.app.inject({ method: 'GET', url: '/api/GetCategories' })).json().data as {
        categoryID: number;
        categoryName: string;
      }[];
      expect(cats.map((c) => c.categoryName).sort()).toEqual(
        ['All Cakes', 'Chocolate Cakes', 'Gift Hampers', 'Plants'].sort(),
      );

      // The order reads with its line, for the admin, on the slip and for the shopper; its picture is kept.
      const after = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${orderId}`,
        headers: admin,
      });
      expect(after.statusCode).toBe(200);
      expect(after.json().data.items).toEqual(before.json().data.items);
      const slip = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${orderId}/packing-slip`,
        headers: admin,
      });
      expect(slip.statusCode).toBe(200);
      expect(JSON.stringify(slip.json().data)).toContain(first.title);
      const mine = await t.app.inject({ method: 'GET', url: `/api/my-orders/${orderId}`, headers: shopper });
      expect(mine.statusCode).toBe(200);
      expect(JSON.stringify(mine.json().data)).toContain(first.title);
      const list = await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin });
      expect(list.json().data.items.map((o: { orderID: number }) => o.orderID)).toContain(orderId);
      expect((await t.app.inject({ method: 'GET', url: picture })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: otherPicture })).statusCode).toBe(404);

      // A phone synced before the removal learns of it in a delta.
      const delta = (await t.app.inject({ method: 'GET', url: `/api/sync/catalogue?since=${cursor}` })).json()
        .data as CatalogueDelta;
      expect(delta.full).toBe(false);
      expect(delta.deletedProductIds).toContain(1);
      expect(delta.deletedProductIds).toHaveLength(84);
      expect(delta.deletedProductIds).not.toContain(2);
      expect(delta.deletedProductIds).not.toContain(3);
      expect(delta.deletedCategoryIds).toContain(CATEGORIES.allFlowers.categoryID);
      // Phones no longer know the demo coupon's terms either.
      expect(delta.settings).toMatchObject({ offer: null, coupons: [] });

      // The coupon an order used is ended, not deleted; no banner names it.
      const coupon = await t.app.db
        .selectFrom('coupons')
        .select('active')
        .where('code', '=', DEMO_COUPON)
        .executeTakeFirstOrThrow();
      expect(Number(coupon.active)).toBe(0);
      const settings = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
      expect(settings.json().data.offer).toBeNull();
      expect((await goLive()).demo).toEqual({ products: 0, categories: 0, images: 0, coupon: false });

      // A second removal (another admin's, say) removes nothing and says so.
      const settled = await version();
      const again = await remove();
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual({
        products: 0,
        categories: 0,
        images: 0,
        coupon: 'none',
        offerCleared: false,
      });
      expect(again.json().sys_message).toBe(goLiveMessages.nothingLeft);
      expect(await version()).toBe(settled);
      expect((await product(2)).statusCode).toBe(200);
    });

    it('removes an unused demo coupon outright, once, when two admins press at once', async () => {
      await t.app.db
        .insertInto('coupons')
        .values({
          code: `${DEMO_COUPON}X`,
          discount_amount: 1,
          first_order_only: 0,
          active: 1,
          expires_at: null,
          created_at: Date.now(),
        })
        .execute();
      await t.app.db.updateTable('coupons').set({ active: 1 }).where('code', '=', DEMO_COUPON).execute();
      await t.app.db.deleteFrom('coupon_redemptions').where('coupon_code', '=', DEMO_COUPON).execute();
      await t.app.db
        .updateTable('orders')
        .set({ coupon_code: null })
        .where('coupon_code', '=', DEMO_COUPON)
        .execute();
      const [a, b] = await Promise.all([remove(), remove()]);
      const coupons = [a, b].map((r) => (r.json().data as DemoRemoved).coupon).sort();
      expect(coupons).toEqual(['deleted', 'none']);
      const rows = await t.app.db.selectFrom('coupons').select('code').execute();
      expect(rows.map((r) => r.code)).toEqual([`${DEMO_COUPON}X`]);
    });
  });
}
