import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * The shopper's own order page (issue 19): `GET /api/my-orders/{id}` answers the lines, delivery,
 * address, figures and the timeline of statuses with their times; never the admin's notes or
 * who moved it; another account's order is a 404. Open screens poll it and the history with
 * ETags: an unchanged order is a 304, a moved one is not. On SQLite and PostgreSQL.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`the shopper's order and its timeline on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1', email: `boss-${Date.now()}@example.test` }))
        .auth;
      cake = await insertProduct(t.app, { price: 800, variations: [{ value: '1 Kg', price: 1200 }] });
    });
    afterAll(async () => t.close());

    async function placeOrder(auth: Auth): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake, quantity: 2, variationIndex: 0 }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }
    const moveWithNote = (id: number, status: string, note: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: admin,
        payload: { status, note },
      });
    const get = (id: unknown, auth: Auth, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/my-orders/${id}`, headers: { ...auth, ...headers } });

    it("answers the shopper's order with lines, delivery, address, figures and the timeline, without notes", async () => {
      const shopper = await createUserWithToken(t.app);
      const id = await placeOrder(shopper.auth);
      expect((await moveWithNote(id, 'confirmed', 'Customer is rude, call twice')).statusCode).toBe(200);
      expect((await moveWithNote(id, 'out for delivery', 'Rider: Ravi 98xxxx')).statusCode).toBe(200);

      const res = await get(id, shopper.auth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toContain('no-store');
      const order = res.json().data;
      expect(order).toMatchObject({
        orderID: id,
        status: 'out for delivery',
        customerName: 'Asha Verma',
        customerAddress: 'House 12, Sector 70',
        city: 'Mohali',
        state: 'Punjab',
        pincode: '160062',
        paymentMethod: 'Cash on Delivery',
        subtotal: 2400,
        deliveryCharge: 150,
        totalAmount: 2550,
      });
      expect(order.lines).toEqual([
        expect.objectContaining({
          productID: cake.id,
          productName: cake.title,
          variationName: 'Weight',
          variationValue: '1 Kg',
          unitPrice: 1200,
          quantity: 2,
          lineTotal: 2400,
        }),
      ]);
      expect(order.timeline.map((s: { status: string }) => s.status)).toEqual([
        'placed',
        'confirmed',
        'out for delivery',
      ]);
      for (const step of order.timeline) expect(Number.isNaN(Date.parse(step.at))).toBe(false);
      expect(Date.parse(order.timeline[2].at)).toBeGreaterThanOrEqual(Date.parse(order.timeline[0].at));
      // The shop's notes and its admins' addresses never reach the shopper.
      expect(res.body).not.toContain('rude');
      expect(res.body).not.toContain('Ravi');
      expect(res.body).not.toContain('boss-');
      for (const step of order.timeline) expect(Object.keys(step).sort()).toEqual(['at', 'status']);
    });

    it("answers 404 for another account's order and a missing one, 401 without a token, 400 for a bad id", async () => {
      const owner = await createUserWithToken(t.app);
      const other = await createUserWithToken(t.app);
      const id = await placeOrder(owner.auth);
      const theirs = await get(id, other.auth);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toMatchObject({ isSuccess: false, data: null });
      expect(theirs.json().sys_message).toBeTruthy();
      expect(theirs.body).not.toContain('Asha');
      // An admin's shopper view is their own orders too: the admin has /admin/orders/{id}.
      expect((await get(id, admin)).statusCode).toBe(404);
      expect((await get(999_999, owner.auth)).statusCode).toBe(404);
      expect((await get(id, { authorization: '' })).statusCode).toBe(401);
      const bad = await get('abc', owner.auth);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ isSuccess: false });
    });

    it('revalidates with its ETag: 304 while unchanged, the new status once an admin moves it', async () => {
      const shopper = await createUserWithToken(t.app);
      const id = await placeOrder(shopper.auth);
      const first = await get(id, shopper.auth);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const same = await get(id, shopper.auth, { 'if-none-match': etag });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      // Another account sending the owner's ETag learns nothing: still a 404.
      const other = await createUserWithToken(t.app);
      expect((await get(id, other.auth, { 'if-none-match': etag })).statusCode).toBe(404);

      await new Promise((r) => setTimeout(r, 5));
      expect((await moveWithNote(id, 'confirmed', '')).statusCode).toBe(200);
      const moved = await get(id, shopper.auth, { 'if-none-match': etag });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data.status).toBe('confirmed');
      expect(moved.headers.etag).not.toBe(etag);
    });

    it("revalidates the shopper's history with its ETag: a move or a new order changes it", async () => {
      const shopper = await createUserWithToken(t.app);
      const history = (headers: Record<string, string> = {}) =>
        t.app.inject({
          method: 'GET',
          url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(shopper.email)}`,
          headers: { ...shopper.auth, ...headers },
        });
      const id = await placeOrder(shopper.auth);
      const first = await history();
      const etag = first.headers.etag as string;
      expect(first.statusCode).toBe(200);
      expect((await history({ 'if-none-match': etag })).statusCode).toBe(304);
      await new Promise((r) => setTimeout(r, 5));
      await moveWithNote(id, 'confirmed', '');
      const moved = await history({ 'if-none-match': etag });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data[0].status).toBe('confirmed');
      const etag2 = moved.headers.etag as string;
      await placeOrder(shopper.auth);
      expect((await history({ 'if-none-match': etag2 })).statusCode).toBe(200);
    });
  });
}
