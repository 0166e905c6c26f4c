import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredKeys, KEY_RETENTION_MS } from '../../api/orders/idempotency.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { areaMessages } from '../../domain/delivery-areas.js';
import { addDays, indiaClock } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
// Every answer checked against its endpoint's contract, as in makeTestApp.
import { buildTestApp as buildApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS, TEST_DATABASE_URL } from '../support/databases.js';
import {
  type FixtureProduct,
  insertProduct,
  newKey,
  orderRequest,
  setPrice,
} from '../support/order-fixtures.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`orders on ${dialect}`, () => {
    let t: TestApp;
    let shopper: Awaited<ReturnType<typeof createUserWithToken>>;
    let cake: FixtureProduct;
    let flowers: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      shopper = await createUserWithToken(t.app, { email: `shopper-${dialect}@example.test` });
      cake = await insertProduct(t.app, {
        title: `Chocolate Truffle ${dialect}`,
        price: 600,
        variations: [
          { value: '1 kg', price: 1100 },
          { value: '2 kg', price: 2000 },
        ],
      });
      flowers = await insertProduct(t.app, { title: `Red Roses ${dialect}`, price: 450 });
    });
    afterAll(async () => t.close());

    const place = (body: unknown, auth: Auth, key?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, ...(key ? { 'idempotency-key': key } : {}) },
        payload: body as object,
      });
    const countOrders = async (userId: number) =>
      (await t.app.db.selectFrom('orders').select('id').where('user_id', '=', userId).execute()).length;

    it("keeps the product's own picture on each line, never the ProductImage of the request", async () => {
      const pictured = await insertProduct(t.app, { price: 300 });
      await t.app.db
        .insertInto('product_images')
        .values([
          {
            product_id: pictured.id,
            file_stem: 'p-own-first',
            widths: '320,640',
            width: 640,
            height: 640,
            position: 0,
          },
          {
            product_id: pictured.id,
            file_stem: 'p-own-second',
            widths: '320',
            width: 320,
            height: 320,
            position: 1,
          },
        ])
        .execute();
      const user = await createUserWithToken(t.app);
      // A tracking pixel the admin's order page would load, and a path of this shop's own media.
      const body = orderRequest([{ product: pictured }, { product: flowers }]);
      body.OrderItems = body.OrderItems.map((item, i) => ({
        ...item,
        ProductImage:
          i === 0 ? 'https://tracker.example/pixel.gif?who=admin' : '/media/someone-elses-640.webp',
      }));
      const res = await place(body, user.auth, newKey());
      expect(res.statusCode).toBe(200);
      const lines = await t.app.db
        .selectFrom('order_items')
        .select(['product_name', 'product_image'])
        .where('order_id', '=', res.json().data.orderID)
        .orderBy('id')
        .execute();
      expect(lines).toEqual([
        { product_name: pictured.title, product_image: '/media/p-own-first-640.webp' },
        { product_name: flowers.title, product_image: '' },
      ]);
    });

    it('places an order priced by the server, with the delivery charge', async () => {
      const body = orderRequest([{ product: cake, quantity: 2 }, { product: flowers }]);
      const res = await place(body, shopper.auth, newKey());
      expect(res.statusCode).toBe(200);
      const json = res.json();
      expect(json.isSuccess).toBe(true);
      expect(json.sys_message).toBe(messages.orderPlaced);
      expect(json.data).toMatchObject({
        status: 'placed',
        paymentMethod: 'Cash on Delivery',
        subtotal: 1650,
        deliveryCharge: 150,
        discount: 0,
        totalAmount: 1800,
      });
      const items = await t.app.db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', '=', json.data.orderID)
        .orderBy('position')
        .execute();
      expect(items.map((i) => [i.product_id, i.unit_price, i.quantity, i.line_total])).toEqual([
        [cake.id, 600, 2, 1200],
        [flowers.id, 450, 1, 450],
      ]);
    });

    it("accepts the spec's client: no key, items by exact name, a variation known only by its price", async () => {
      const body = orderRequest([{ product: cake, variationIndex: 1 }]);
      const items = body.OrderItems.map(({ ProductID: _p, VariationID: _v, ...rest }) => rest);
      const res = await place({ ...body, OrderItems: items }, shopper.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.items[0]).toMatchObject({
        productID: cake.id,
        variationID: cake.variations[1]?.id,
        unitPrice: 2000,
      });
    });

    it('needs a session', async () => {
      const res = await place(orderRequest([{ product: cake }]), { authorization: 'Bearer nope' });
      expect(res.statusCode).toBe(401);
      expect(res.json().isSuccess).toBe(false);
    });

    describe('tampering', () => {
      it('refuses a tampered total with the new figures', async () => {
        const body = orderRequest([{ product: cake }], { TotalAmount: 1 });
        const res = await place(body, shopper.auth, newKey());
        expect(res.statusCode).toBe(409);
        const json = res.json();
        expect(json.isSuccess).toBe(false);
        expect(json.sys_message).toBe(messages.pricesChanged);
        expect(json.data.total).toEqual({ old: 1, new: 750 });
        expect(json.data.reason).toBe('repriced');
        expect(json.data.deliveryCharge).toBe(150);
      });

      it('refuses a tampered line price even with a matching total', async () => {
        const body = orderRequest([{ product: cake }]);
        const [item] = body.OrderItems;
        const res = await place({ ...body, OrderItems: [{ ...item, Price: 1 }] }, shopper.auth, newKey());
        expect(res.statusCode).toBe(409);
        expect(res.json().data.lines[0]).toMatchObject({ old: { price: 1 }, new: { price: 600 } });
      });

      it('refuses a quantity raised without paying for it', async () => {
        const body = orderRequest([{ product: cake, quantity: 1 }]);
        const [item] = body.OrderItems;
        const res = await place({ ...body, OrderItems: [{ ...item, Quantity: 5 }] }, shopper.auth, newKey());
        expect(res.statusCode).toBe(409);
        expect(res.json().data.total).toEqual({ old: 750, new: 3150 });
      });

      it('refuses quantities that are not positive whole numbers', async () => {
        for (const Quantity of [0, -2, 1.5, 100, '3']) {
          const body = orderRequest([{ product: cake }]);
          const [item] = body.OrderItems;
          const res = await place({ ...body, OrderItems: [{ ...item, Quantity }] }, shopper.auth, newKey());
          expect(res.statusCode, String(Quantity)).toBe(400);
          expect(res.json().sys_message).toBe(messages.quantityInvalid(99));
        }
      });

      it('shows old and new prices when the shop changed a price after the cart was filled', async () => {
        const product = await insertProduct(t.app, { price: 300 });
        const body = orderRequest([{ product, quantity: 2 }]);
        await setPrice(t.app, product.id, 350);
        const res = await place(body, shopper.auth, newKey());
        expect(res.statusCode).toBe(409);
        expect(res.json().data.lines[0]).toEqual({
          productID: product.id,
          variationID: null,
          productName: product.title,
          quantity: 2,
          old: { price: 300, lineTotal: 600 },
          new: { price: 350, lineTotal: 700 },
        });
      });
    });

    describe('refusals', () => {
      it('refuses unknown and deleted products and options', async () => {
        const gone = await insertProduct(t.app, { deleted: true });
        const cases: [unknown, number][] = [
          [orderRequest([{ product: { ...cake, id: 999_999 } }]), 404],
          [orderRequest([{ product: gone }]), 404],
          [
            {
              ...orderRequest([{ product: cake }]),
              OrderItems: [{ ProductName: 'No Such Cake', Price: 1, Quantity: 1 }],
            },
            404,
          ],
          [
            {
              ...orderRequest([{ product: cake }]),
              OrderItems: [{ ProductID: cake.id, VariationID: 999_999, Price: 600, Quantity: 1 }],
            },
            404,
          ],
        ];
        for (const [body, status] of cases) {
          const res = await place(body, shopper.auth, newKey());
          expect(res.statusCode).toBe(status);
          expect(res.json().isSuccess).toBe(false);
          expect(res.json().sys_message).toMatch(/no longer available/);
          expect(res.json().data.reason).toBe('product-gone');
        }
      });

      it('sends the new earliest date with a refused date, for the queued order to offer', async () => {
        // The day before today in India: today after 6 PM is Standard's cut-off, a slot refusal (409).
        const yesterday = addDays(indiaClock(new Date()).date, -1);
        const res = await place(
          orderRequest([{ product: cake }], { DeliveryDate: yesterday }),
          shopper.auth,
          newKey(),
        );
        expect(res.statusCode).toBe(400);
        expect(res.json().data).toEqual({
          reason: 'delivery-date',
          earliestDeliveryDate: earliestDeliveryDate(new Date()),
          latestDeliveryDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        });
      });

      it('refuses, with a 422, a pincode outside the delivery areas and an address not its pincode', async () => {
        const base = orderRequest([{ product: cake }]);
        const mohali = { city: 'Mohali', state: 'Punjab' };
        const cases: [object, string, object][] = [
          [
            { State: 'Kerala', City: 'Kochi', CustomerPincode: '682001' },
            areaMessages.outside('682001'),
            { reason: 'undeliverable', pincode: '682001' },
          ],
          [
            { City: 'Panchkula' },
            areaMessages.mismatch('160062', mohali),
            { reason: 'pincode-mismatch', pincode: '160062', ...mohali },
          ],
          [
            { State: 'Kerala', City: 'Kochi' },
            areaMessages.mismatch('160062', mohali),
            { reason: 'pincode-mismatch', pincode: '160062', ...mohali },
          ],
        ];
        for (const [override, message, data] of cases) {
          const res = await place({ ...base, ...override }, shopper.auth, newKey());
          expect(res.statusCode, message).toBe(422);
          expect(res.json()).toEqual({ isSuccess: false, sys_message: message, data });
        }
        // Names match whatever their case, and the order keeps them as the area writes them.
        const someone = await createUserWithToken(t.app);
        const loose = await place({ ...base, State: 'punjab', City: 'MOHALI' }, someone.auth, newKey());
        expect(loose.statusCode).toBe(200);
        const row = await t.app.db
          .selectFrom('orders')
          .select(['state', 'city'])
          .where('id', '=', loose.json().data.orderID)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ state: 'Punjab', city: 'Mohali' });
      });

      it('refuses dates and fields the shop cannot take', async () => {
        const base = orderRequest([{ product: cake }]);
        // The day before today in India: today after 6 PM is Standard's cut-off, a slot refusal (409).
        const yesterday = addDays(indiaClock(new Date()).date, -1);
        const cases: [object, string][] = [
          [{ DeliveryDate: yesterday }, messages.deliveryDateTooEarly(earliestDeliveryDate(new Date()))],
          [{ DeliveryDate: '2026-02-30' }, messages.deliveryDateInvalid],
          [{ CustomerPincode: '1600' }, messages.pincodeInvalid],
          [{ CustomerPincode: '' }, messages.pincodeRequired],
          [{ CustomerName: ' ' }, messages.fullNameRequired],
          [{ PaymentMethod: 'Cheque' }, messages.paymentMethodRequired],
          [{ OrderItems: [] }, messages.orderItemsRequired],
        ];
        for (const [override, message] of cases) {
          const res = await place({ ...base, ...override }, shopper.auth, newKey());
          expect(res.statusCode, message).toBe(400);
          expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
          expect(res.json()).toHaveProperty('data');
        }
      });

      it('refuses bodies that are not an order', async () => {
        for (const payload of ['not json', '[]', 'null', '{"OrderItems": 5}']) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/place-order',
            headers: { ...shopper.auth, 'content-type': 'application/json' },
            payload,
          });
          expect(res.statusCode, payload).toBe(400);
          expect(res.json().isSuccess).toBe(false);
        }
      });
    });

    describe('idempotency', () => {
      it('refuses a malformed key', async () => {
        const res = await place(orderRequest([{ product: cake }]), shopper.auth, 'not-a-uuid');
        expect(res.statusCode).toBe(400);
        expect(res.json().sys_message).toBe(messages.idempotencyKeyInvalid);
      });

      it('makes exactly one order of 10 identical requests fired at once', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product: flowers, quantity: 3 }]);
        const answers = await Promise.all(Array.from({ length: 10 }, () => place(body, user.auth, key)));
        const ok = answers.filter((r) => r.statusCode === 200);
        const busy = answers.filter((r) => r.statusCode === 409);
        expect(ok.length + busy.length).toBe(10);
        expect(ok.length).toBeGreaterThanOrEqual(1);
        expect(new Set(ok.map((r) => r.json().data.orderID)).size).toBe(1);
        for (const r of busy) {
          expect(r.json()).toMatchObject({
            sys_message: messages.orderInProgress,
            data: { reason: 'in-progress' },
          });
          expect(r.headers['retry-after']).toBe('1');
        }
        expect(await countOrders(user.id)).toBe(1);
        // Once the first is done, a replay gets the stored answer.
        const again = await place(body, user.auth, key);
        expect(again.statusCode).toBe(200);
        expect(again.json().data.orderID).toBe(ok[0]?.json().data.orderID);
      });

      it('makes exactly one order when two API processes on one database get the same key', async () => {
        // A second app on the same database stands for a second process: its in-memory guard is
        // empty, so only the database (advisory lock, primary key on the key) can stop a duplicate.
        const second = await buildApp({ config: t.config, db: t.db });
        await second.ready();
        try {
          const user = await createUserWithToken(t.app);
          const key = newKey();
          const body = orderRequest([{ product: cake, quantity: 2 }]);
          const fire = (app: typeof second) =>
            app.inject({
              method: 'POST',
              url: '/api/place-order',
              headers: { ...user.auth, 'idempotency-key': key },
              payload: body,
            });
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) => fire(i % 2 ? second : t.app)),
          );
          const ok = answers.filter((r) => r.statusCode === 200);
          expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
          expect(new Set(ok.map((r) => r.json().data.orderID)).size).toBe(1);
          expect(await countOrders(user.id)).toBe(1);
        } finally {
          await second.close();
        }
      });

      it.runIf(dialect === 'postgres')(
        'answers 409 in-progress while another process holds the key (PostgreSQL advisory lock)',
        async () => {
          const user = await createUserWithToken(t.app);
          const key = newKey();
          // Another process placing this order holds the transaction lock on (user, key).
          const other = new pg.Client({ connectionString: TEST_DATABASE_URL ?? '' });
          await other.connect();
          try {
            const k2 = createHash('sha256').update(key).digest().readInt32BE(0);
            await other.query('begin');
            await other.query('select pg_advisory_xact_lock($1::int, $2::int)', [user.id, k2]);
            const busy = await place(orderRequest([{ product: cake }]), user.auth, key);
            expect(busy.statusCode).toBe(409);
            expect(busy.json()).toMatchObject({
              sys_message: messages.orderInProgress,
              data: { reason: 'in-progress' },
            });
            expect(await countOrders(user.id)).toBe(0);
            await other.query('commit');
          } finally {
            await other.end();
          }
          expect((await place(orderRequest([{ product: cake }]), user.auth, key)).statusCode).toBe(200);
        },
      );

      it('returns the stored answer when the first answer was lost', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product: cake }]);
        const first = await place(body, user.auth, key);
        expect(first.statusCode).toBe(200);
        // The price changes meanwhile: the replay still answers what was agreed and stored.
        const product = await insertProduct(t.app);
        await setPrice(t.app, product.id, 1);
        const replay = await place(body, user.auth, key);
        expect(replay.statusCode).toBe(200);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toBe(first.body);
        expect(await countOrders(user.id)).toBe(1);
      });

      it('answers every one of many simultaneous replays of a finished key from the store', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product: cake }]);
        const first = await place(body, user.auth, key);
        const replays = await Promise.all(Array.from({ length: 10 }, () => place(body, user.auth, key)));
        for (const r of replays) {
          expect(r.statusCode).toBe(200);
          expect(r.body).toBe(first.body);
        }
        expect(await countOrders(user.id)).toBe(1);
      });

      it('knows a replay by its content, not by how the JSON was written', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product: cake }]);
        const first = await place(body, user.auth, key);
        const reordered = Object.fromEntries(Object.entries(body).reverse());
        const replay = await place(
          { ...reordered, CustomerName: `  ${body.CustomerName}  ` },
          user.auth,
          key,
        );
        expect(replay.statusCode).toBe(200);
        expect(replay.body).toBe(first.body);
      });

      it('refuses the same key with another body (422)', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        expect((await place(orderRequest([{ product: cake }]), user.auth, key)).statusCode).toBe(200);
        const other = await place(orderRequest([{ product: flowers }]), user.auth, key);
        expect(other.statusCode).toBe(422);
        expect(other.json()).toMatchObject({ isSuccess: false, sys_message: messages.idempotencyKeyReused });
        expect(await countOrders(user.id)).toBe(1);
      });

      it("keeps each user's keys apart", async () => {
        const a = await createUserWithToken(t.app);
        const b = await createUserWithToken(t.app);
        const key = newKey();
        const first = await place(orderRequest([{ product: cake }]), a.auth, key);
        const second = await place(orderRequest([{ product: flowers }]), b.auth, key);
        expect(first.statusCode).toBe(200);
        expect(second.statusCode).toBe(200);
        expect(second.headers['idempotent-replayed']).toBeUndefined();
        expect(second.json().data.orderID).not.toBe(first.json().data.orderID);
        expect(second.json().data.items[0].productID).toBe(flowers.id);
      });

      it('leaves the key free after a refusal, so the confirmed order can go under it', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product: cake }]);
        expect((await place({ ...body, TotalAmount: 10 }, user.auth, key)).statusCode).toBe(409);
        const confirmed = await place(body, user.auth, key);
        expect(confirmed.statusCode).toBe(200);
        expect(await countOrders(user.id)).toBe(1);
      });

      it('accepts requests without a key, without replay protection', async () => {
        const user = await createUserWithToken(t.app);
        const body = orderRequest([{ product: cake }]);
        expect((await place(body, user.auth)).statusCode).toBe(200);
        expect((await place(body, user.auth)).statusCode).toBe(200);
        expect(await countOrders(user.id)).toBe(2);
      });

      it('keeps keys 30 days and sweeps older ones', async () => {
        const user = await createUserWithToken(t.app);
        const key = newKey();
        expect((await place(orderRequest([{ product: cake }]), user.auth, key)).statusCode).toBe(200);
        const now = Date.now();
        const keyAt = async () =>
          t.app.db
            .selectFrom('idempotency_keys')
            .select('created_at')
            .where('user_id', '=', user.id)
            .where('key', '=', key)
            .executeTakeFirst();
        await deleteExpiredKeys(t.app.db, now + KEY_RETENTION_MS - 60_000);
        expect(await keyAt()).toBeDefined();
        await deleteExpiredKeys(t.app.db, now + KEY_RETENTION_MS + 60_000);
        expect(await keyAt()).toBeUndefined();
      });
    });

    describe('history', () => {
      it("shows a shopper their own orders, newest first, in the spec's row shape", async () => {
        const user = await createUserWithToken(t.app);
        await place(orderRequest([{ product: cake }]), user.auth, newKey());
        await place(orderRequest([{ product: flowers, quantity: 2 }]), user.auth, newKey());
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(user.email.toUpperCase())}`,
          headers: user.auth,
        });
        expect(res.statusCode).toBe(200);
        const rows = res.json().data;
        expect(rows).toHaveLength(2);
        expect(rows[0]).toEqual({
          orderID: expect.any(Number),
          productName: flowers.title,
          // The line as it was chosen: a product with no size has no option to name.
          productTitle: flowers.title,
          variationName: null,
          variationValue: '',
          unitPrice: 450,
          // The fixture product has no picture; the request's ProductImage is never kept.
          productImage: '',
          quantity: 2,
          totalAmount: 1050,
          orderDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          status: 'placed',
          deliveryDate: expect.any(String),
          paymentMethod: 'Cash on Delivery',
          deliverySlot: { slotID: 1, name: 'Standard', start: 600, end: 1260 },
          slotCharge: 0,
          // Gifts (issue 26): an order without them says so.
          cakeMessage: null,
          photoID: null,
          recipient: null,
          hidePrice: false,
          hideSender: false,
          card: null,
          // Where it goes: the shopper's own name, phone and address (no gift).
          deliverTo: {
            name: 'Asha Verma',
            phone: '9876543210',
            address: 'House 12, Sector 70',
            city: 'Mohali',
            state: 'Punjab',
            pincode: '160062',
            gift: false,
          },
        });
        expect(rows[0].orderID).toBeGreaterThan(rows[1].orderID);
      });

      it("refuses another shopper's email, lets an admin ask for anyone's", async () => {
        const other = await createUserWithToken(t.app);
        const admin = await createUserWithToken(t.app, { role: '1' });
        await place(orderRequest([{ product: cake }]), other.auth, newKey());
        const url = `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(other.email)}`;
        const refused = await t.app.inject({ method: 'GET', url, headers: shopper.auth });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({
          isSuccess: false,
          data: null,
          sys_message: messages.ordersForbidden,
        });
        const allowed = await t.app.inject({ method: 'GET', url, headers: admin.auth });
        expect(allowed.statusCode).toBe(200);
        expect(allowed.json().data).toHaveLength(1);
        const bad = await t.app.inject({
          method: 'GET',
          url: '/api/GetOrderHistoryByEmail?email=nope',
          headers: admin.auth,
        });
        expect(bad.statusCode).toBe(400);
      });

      it('lists every order for an admin only', async () => {
        const admin = await createUserWithToken(t.app, { role: '1' });
        const refused = await t.app.inject({
          method: 'GET',
          url: '/api/GetAllUsersOrderHistory',
          headers: shopper.auth,
        });
        expect(refused.statusCode).toBe(403);
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/GetAllUsersOrderHistory',
          headers: admin.auth,
        });
        expect(res.statusCode).toBe(200);
        const rows = res.json().data;
        expect(rows.length).toBeGreaterThan(5);
        expect(rows[0]).toMatchObject({
          userEmail: expect.any(String),
          customerEmail: 'asha@example.com',
          customerPhone: '9876543210',
          customerAddress: 'House 12, Sector 70',
          status: 'placed',
        });
      });
    });
  });
}
