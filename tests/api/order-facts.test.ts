/**
 * An order's catalogue facts kept per catalogue version (`api/orders/order-facts.ts`), on SQLite and
 * PostgreSQL: one process places orders (its facts kept), another changes the shop through the
 * admin's endpoints, and the first process's next order sees every change at once: a new price, a
 * new delivery charge, a closed date, a deleted product.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`an order's facts kept per catalogue version on ${dialect}`, () => {
    let t: TestApp;
    let owner: FastifyInstance;
    let admin: Auth;
    let shopper: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      // The owner's process: another app on the same database, with caches of its own.
      owner = await buildTestApp({ config: t.config, db: t.db });
      await owner.ready();
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
      cake = await insertProduct(t.app, { price: 600 });
    });
    afterAll(async () => {
      await owner.close();
      await t.close();
    });

    const place = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper, 'idempotency-key': newKey() },
        payload: body,
      });
    const asOwner = (method: 'PUT' | 'DELETE', url: string, payload?: object) =>
      owner.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

    it('prices the next order at a price another process just wrote', async () => {
      expect((await place(orderRequest([{ product: cake }]))).statusCode).toBe(200);
      const edit = await asOwner('PUT', '/api/UpdateProductDetails', {
        ProductID: cake.id,
        Title: cake.title,
        Description: '<p>A cake.</p>',
        Price: 700,
      });
      expect(edit.statusCode).toBe(200);
      const stale = await place(orderRequest([{ product: cake }]));
      expect(stale.statusCode).toBe(409);
      expect(stale.json().data).toMatchObject({ reason: 'repriced' });
      const dearer = orderRequest([{ product: { ...cake, price: 700 } }]);
      expect((await place(dearer)).statusCode).toBe(200);
      cake = { ...cake, price: 700 };
    });

    it("charges the area's new delivery charge, and refuses a date closed since", async () => {
      const body = orderRequest([{ product: cake }]);
      expect((await place(body)).statusCode).toBe(200);
      const area = await asOwner('PUT', '/api/admin/delivery-areas/160062', {
        city: 'Mohali',
        state: 'Punjab',
        charge: 200,
      });
      expect(area.statusCode).toBe(200);
      const stale = await place(body);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().data).toMatchObject({ reason: 'repriced' });
      const charged = await place({ ...body, TotalAmount: body.TotalAmount + 50 });
      expect(charged.statusCode).toBe(200);

      const closed = await asOwner('PUT', `/api/admin/closed-dates/${body.DeliveryDate}`, {
        message: 'Closed for Diwali',
      });
      expect(closed.statusCode).toBe(200);
      const refused = await place({ ...body, TotalAmount: body.TotalAmount + 50 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().data).toMatchObject({ reason: 'slot', problem: 'closed' });
      expect((await asOwner('DELETE', `/api/admin/closed-dates/${body.DeliveryDate}`)).statusCode).toBe(200);
      expect((await place({ ...body, TotalAmount: body.TotalAmount + 50 })).statusCode).toBe(200);
    });

    it('refuses a product another process deleted', async () => {
      const roses = await insertProduct(t.app, { price: 450 });
      // Mohali's charge is ₹200 since the test above.
      const base = orderRequest([{ product: roses }]);
      const body = { ...base, TotalAmount: base.TotalAmount + 50 };
      expect((await place(body)).statusCode).toBe(200);
      expect((await asOwner('DELETE', `/api/DeleteProduct?productId=${roses.id}`)).statusCode).toBe(200);
      const gone = await place(body);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().data).toMatchObject({ reason: 'product-gone', productID: roses.id });
    });
  });
}
