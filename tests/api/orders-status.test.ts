import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`order statuses on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { price: 800 });
    });
    afterAll(async () => t.close());

    const move = (id: unknown, status: unknown, auth: Auth = admin) =>
      t.app.inject({ method: 'PUT', url: `/api/orders/${id}/status`, headers: auth, payload: { status } });
    async function placeOrder(auth: Auth, extra: object = {}): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: { ...orderRequest([{ product: cake }]), ...extra },
      });
      expect(res.statusCode).toBe(200);
      return res.json().data.orderID;
    }

    it('moves an order through confirmed, out for delivery and delivered, shown in the history', async () => {
      const user = await createUserWithToken(t.app);
      const id = await placeOrder(user.auth);
      for (const status of ['confirmed', 'out for delivery', 'delivered']) {
        const res = await move(id, status);
        expect(res.statusCode, status).toBe(200);
        expect(res.json().data).toEqual({ orderID: id, status });
      }
      const history = await t.app.inject({
        method: 'GET',
        url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(user.email)}`,
        headers: user.auth,
      });
      expect(history.json().data[0].status).toBe('delivered');
    });

    it('refuses moves the statuses do not allow, unknown orders and bad input', async () => {
      const user = await createUserWithToken(t.app);
      const id = await placeOrder(user.auth);
      expect((await move(id, 'delivered')).statusCode).toBe(409);
      expect((await move(id, 'paid')).statusCode).toBe(409);
      expect((await move(id, 'shipped')).statusCode).toBe(400);
      expect((await move('abc', 'confirmed')).statusCode).toBe(400);
      expect((await move(999_999, 'confirmed')).statusCode).toBe(404);
      expect((await move(id, 'cancelled')).statusCode).toBe(200);
      const again = await move(id, 'confirmed');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ isSuccess: false, data: { status: 'cancelled' } });
    });

    it('is for admins only', async () => {
      const user = await createUserWithToken(t.app);
      const id = await placeOrder(user.auth);
      expect((await move(id, 'confirmed', user.auth)).statusCode).toBe(403);
      expect((await move(id, 'confirmed', { authorization: '' })).statusCode).toBe(401);
    });

    it('gives the coupon back when the order is cancelled', async () => {
      const user = await createUserWithToken(t.app);
      const id = await placeOrder(user.auth, { CouponCode: 'SAVE200', TotalAmount: 800 + 150 - 200 });
      const used = await t.app.inject({
        method: 'POST',
        url: '/api/VerifyCoupon',
        headers: user.auth,
        payload: { code: 'SAVE200' },
      });
      expect(used.statusCode).toBe(409);
      expect((await move(id, 'cancelled')).statusCode).toBe(200);
      const free = await t.app.inject({
        method: 'POST',
        url: '/api/VerifyCoupon',
        headers: user.auth,
        payload: { code: 'SAVE200' },
      });
      expect(free.statusCode).toBe(200);
      expect(free.json().discountAmount).toBe(200);
    });
  });
}
