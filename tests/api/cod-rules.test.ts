import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codMessages } from '../../domain/cod-rules.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { DEFAULT_SETTINGS } from '../../domain/settings.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * The owner's Cash on Delivery rules on SQLite and PostgreSQL (domain/cod-rules.ts, api/orders/cod.ts):
 * a Cash on Delivery order over the limit, with a personalised cake the owner keeps to online
 * payment, or while Cash on Delivery is off, is a 422 `cod` that leaves nothing behind; the same
 * order paid online goes; a shop with no online payment takes every order as before.
 */
type Auth = { authorization: string };
const DELIVERY = 150; // Mohali 160062, the fixtures' pincode.

for (const dialect of DIALECTS) {
  describe(`Cash on Delivery rules on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: Auth;
    let atLimit: FixtureProduct;
    let overLimit: FixtureProduct;
    let cake: FixtureProduct;

    const settings = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin, payload });
    const place = (body: OrderRequestInput | object, key = newKey(), auth = shopper) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
      });
    const orderCount = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('orders')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const withMessage = (body: OrderRequestInput): OrderRequestInput => ({
      ...body,
      OrderItems: body.OrderItems.map((i) => ({ ...i, CakeMessage: 'Happy 60th Dadi' })),
    });

    beforeAll(async () => {
      t = await makeTestApp(dialect, { testPayments: true });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
      atLimit = await insertProduct(t.app, {
        title: `Tiered Wedding Cake ${dialect}`,
        price: 10_000 - DELIVERY,
      });
      overLimit = await insertProduct(t.app, {
        title: `Tiered Wedding Cake XL ${dialect}`,
        price: 10_001 - DELIVERY,
      });
      cake = await insertProduct(t.app, { title: `Message Cake ${dialect}`, price: 700 });
      await t.app.db.updateTable('products').set({ takes_message: 1 }).where('id', '=', cake.id).execute();
    });
    afterAll(async () => t.close());

    it('places a Cash on Delivery order at the limit and refuses one a rupee over, with the message and the rule', async () => {
      expect((await place(orderRequest([{ product: atLimit }]))).statusCode).toBe(200);
      const before = await orderCount();
      const key = newKey();
      const over = await place(orderRequest([{ product: overLimit }]), key);
      expect(over.statusCode).toBe(422);
      expect(over.json()).toMatchObject({
        isSuccess: false,
        sys_message: codMessages.limit(10_000),
        data: { reason: 'cod', rule: 'limit', limit: 10_000 },
      });
      expect(over.json().sys_message).toBe('Cash on Delivery is available up to ₹10,000. Please pay online.');
      // Stale figures too: the order cannot go as it is, so no new figures are offered for it.
      const stale = await place(orderRequest([{ product: overLimit }], { TotalAmount: 9_000 }));
      expect(stale.statusCode).toBe(422);
      expect(stale.json().data).toMatchObject({ reason: 'cod', rule: 'limit' });
      // Nothing behind: no order, and the key is free for the same order paid online.
      expect(await orderCount()).toBe(before);
      const online = orderRequest([{ product: overLimit }], { PaymentMethod: 'Razorpay' });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...shopper, 'idempotency-key': key },
        payload: online,
      });
      expect(created.statusCode, created.body).toBe(200);
      const proof = (
        await t.app.inject({
          method: 'POST',
          url: '/api/payments/test/pay',
          headers: shopper,
          payload: { razorpay_order_id: created.json().data.razorpayOrderId },
        })
      ).json().data;
      const paid = await place(
        {
          ...online,
          RazorpayPaymentId: proof.razorpay_payment_id,
          RazorpayOrderId: proof.razorpay_order_id,
          RazorpaySignature: proof.razorpay_signature,
        },
        key,
      );
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().data).toMatchObject({ status: 'paid', totalAmount: 10_001 });
    });

    it('follows the limit the owner sets, 0 being none', async () => {
      try {
        expect((await settings({ codLimit: 5_000 })).statusCode).toBe(200);
        const refused = await place(orderRequest([{ product: atLimit }]));
        expect(refused.json()).toMatchObject({ data: { reason: 'cod', rule: 'limit', limit: 5_000 } });
        expect((await settings({ codLimit: 0 })).statusCode).toBe(200);
        expect((await place(orderRequest([{ product: overLimit }]))).statusCode).toBe(200);
      } finally {
        await settings({ codLimit: DEFAULT_SETTINGS.codLimit });
      }
    });

    it('keeps a cake with a message to online payment only when the owner chose so', async () => {
      const body = withMessage(orderRequest([{ product: cake }]));
      expect((await place(body)).statusCode).toBe(200);
      try {
        expect((await settings({ codPersonalised: 'online' })).statusCode).toBe(200);
        const refused = await place(body);
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({
          sys_message: codMessages.personalised,
          data: { reason: 'cod', rule: 'personalised' },
        });
        // The same cake without a message is any order.
        expect((await place(orderRequest([{ product: cake }]))).statusCode).toBe(200);
      } finally {
        await settings({ codPersonalised: 'any' });
      }
    });

    it('refuses Cash on Delivery while the owner has it off, and the methods leave it out', async () => {
      try {
        expect((await settings({ codEnabled: false })).statusCode).toBe(200);
        const refused = await place(orderRequest([{ product: cake }]));
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({
          sys_message: codMessages.off,
          data: { reason: 'cod', rule: 'off' },
        });
        const methods = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
        expect(methods.json().data).toMatchObject({ methods: ['Razorpay'], provider: 'test' });
      } finally {
        await settings({ codEnabled: true });
      }
      const methods = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
      expect(methods.json().data.methods).toEqual(['Cash on Delivery', 'Razorpay']);
    });

    it('refuses a bad value of each rule with a 400 naming it, and saves nothing', async () => {
      const read = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin })).json().data;
      const saved = await read();
      const bad: [string, unknown][] = [
        ['codLimit', -1],
        ['codLimit', 1.5],
        ['codLimit', '5000'],
        ['codLimit', 1_000_001],
        ['codEnabled', 'yes'],
        ['codPersonalised', 'sometimes'],
      ];
      for (const [key, value] of bad) {
        const res = await settings({ [key]: value, photoCakeNoticeDays: 3 });
        expect(res.statusCode, `${key}=${JSON.stringify(value)}`).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, data: { field: key } });
      }
      expect(await read()).toEqual(saved);
    });

    it('judges nothing in a shop without online payment', async () => {
      const plain = await makeTestApp(dialect);
      try {
        const owner = (await createUserWithToken(plain.app, { role: '1' })).auth;
        const buyer = (await createUserWithToken(plain.app)).auth;
        const big = await insertProduct(plain.app, { title: `Big Cake ${dialect}`, price: 20_000 });
        const change = await plain.app.inject({
          method: 'PUT',
          url: '/api/admin/settings',
          headers: owner,
          payload: { codEnabled: false, codLimit: 1_000, codPersonalised: 'online' },
        });
        expect(change.statusCode).toBe(200);
        const placed = await plain.app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...buyer, 'idempotency-key': newKey() },
          payload: orderRequest([{ product: big }]),
        });
        expect(placed.statusCode, placed.body).toBe(200);
        const methods = await plain.app.inject({ method: 'GET', url: '/api/payments/methods' });
        expect(methods.json().data).toMatchObject({ methods: ['Cash on Delivery'], provider: null });
      } finally {
        await plain.close();
      }
    });
  });
}
