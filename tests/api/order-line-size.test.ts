import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverLineSizes } from '../../api/db/migrations/20261127_1000_order_line_size.js';
import { kitchenLine, SIZE_NOT_RECORDED } from '../../domain/order-lines.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * An order line keeps the option chosen ("Weight: 1 kg"), not only its name: every answer that
 * shows a placed order says the size, and old lines get theirs back only where it is certain.
 */
type Auth = { authorization: string };
type Line = {
  productName: string;
  variationName: string | null;
  variationValue: string | null;
  quantity: number;
};

for (const dialect of DIALECTS) {
  describe(`order line sizes on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let truffle: FixtureProduct;
    let roses: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      truffle = await insertProduct(t.app, {
        title: `Chocolate Truffle Delight ${dialect}`,
        price: 649,
        sizeOrWeight: '0.5 kg',
        variations: [
          { value: '1 kg', price: 1199 },
          { value: '2 kg', price: 2299 },
        ],
      });
      roses = await insertProduct(t.app, { title: `Red Roses ${dialect}`, price: 450 });
    });
    afterAll(async () => t.close());

    const placeThree = async () => {
      const user = await createUserWithToken(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...user.auth, 'idempotency-key': newKey() },
        payload: orderRequest([
          { product: truffle, variationIndex: 0 },
          { product: truffle, quantity: 2 },
          { product: roses },
        ]),
      });
      expect(res.statusCode).toBe(200);
      return { user, placed: res.json().data as { orderID: number; items: Line[] } };
    };

    it('keeps the value chosen on the placed answer, the order page, My Orders, the admin and the slip', async () => {
      const { user, placed } = await placeThree();
      const t1 = truffle.title;
      expect(placed.items.map((l) => [l.variationName, l.variationValue])).toEqual([
        ['Weight', '1 kg'],
        [null, '0.5 kg'],
        [null, ''],
      ]);
      expect(placed.items.map(kitchenLine)).toEqual([
        `1 x ${t1}, 1 kg`,
        `2 x ${t1}, 0.5 kg`,
        `1 x ${roses.title}`,
      ]);

      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/my-orders/${placed.orderID}`,
        headers: user.auth,
      });
      expect(mine.json().data.lines.map((l: Line) => l.variationValue)).toEqual(['1 kg', '0.5 kg', '']);

      const history = await t.app.inject({
        method: 'GET',
        url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(user.email)}`,
        headers: user.auth,
      });
      expect(
        history
          .json()
          .data.map((r: { productName: string; unitPrice: number }) => [r.productName, r.unitPrice]),
      ).toEqual([
        [`${t1} (Weight: 1 kg)`, 1199],
        [`${t1} (0.5 kg)`, 649],
        [roses.title, 450],
      ]);

      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${placed.orderID}`,
        headers: admin,
      });
      expect(detail.statusCode).toBe(200);
      expect(JSON.stringify(detail.json().data)).toContain('"variationValue":"1 kg"');

      const list = await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin });
      const row = list.json().data.items.find((o: { orderID: number }) => o.orderID === placed.orderID);
      expect(
        row.items.map((i: Line & { unitPrice: number }) => [i.productName, i.variationValue, i.unitPrice]),
      ).toEqual([
        [`${t1} (Weight: 1 kg)`, '1 kg', 1199],
        [`${t1} (0.5 kg)`, '0.5 kg', 649],
        [roses.title, '', 450],
      ]);

      const slip = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${placed.orderID}/packing-slip`,
        headers: admin,
      });
      expect(slip.json().data.lines.map(kitchenLine)).toEqual([
        `1 x ${t1}, 1 kg`,
        `2 x ${t1}, 0.5 kg`,
        `1 x ${roses.title}`,
      ]);
    });

    it('gives old lines their size back only where it is certain, and says "size not recorded" otherwise', async () => {
      const { placed } = await placeThree();
      const gone = await insertProduct(t.app, { title: `Gone Cake ${dialect}`, price: 500 });
      const twin = await insertProduct(t.app, {
        title: `Twin Cake ${dialect}`,
        price: 500,
        variations: [
          { value: '1 kg', price: 900 },
          { value: '1.2 kg', price: 900 },
        ],
      });
      const { placed: other } = await (async () => {
        const user = await createUserWithToken(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...user.auth, 'idempotency-key': newKey() },
          payload: orderRequest([{ product: gone }, { product: twin, variationIndex: 0 }]),
        });
        expect(res.statusCode).toBe(200);
        return { placed: res.json().data as { orderID: number } };
      })();
      const db = t.app.db;
      // As the lines were stored before the value was kept; then the catalogue moves on.
      await db
        .updateTable('order_items')
        .set({ variation_value: null })
        .where('order_id', 'in', [placed.orderID, other.orderID])
        .execute();
      const oneKg = truffle.variations[0]?.id ?? 0;
      await db
        .updateTable('order_items')
        .set({ variation_id: null })
        .where('variation_id', '=', oneKg)
        .execute();
      await db.deleteFrom('products').where('id', '=', gone.id).execute();

      await recoverLineSizes(db);

      const lines = await db
        .selectFrom('order_items')
        .select(['order_id', 'product_name', 'variation_value'])
        .where('order_id', 'in', [placed.orderID, other.orderID])
        .orderBy('order_id')
        .orderBy('position')
        .execute();
      expect(lines.map((l) => l.variation_value)).toEqual([
        '1 kg', // no variation id any more, but one variation has its price
        '0.5 kg', // the base price: the product's own size
        '', // a product without a size
        null, // the product is gone: never guessed
        '1 kg', // the variation still exists
      ]);
      // Two sizes at the line's price: not known.
      const twinLine = await db
        .selectFrom('order_items')
        .select('id')
        .where('order_id', '=', other.orderID)
        .where('product_id', '=', twin.id)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('order_items')
        .set({ variation_value: null, variation_id: 999999 })
        .where('id', '=', twinLine.id)
        .execute();
      await recoverLineSizes(db);
      const after = await db
        .selectFrom('order_items')
        .select('variation_value')
        .where('id', '=', twinLine.id)
        .executeTakeFirstOrThrow();
      expect(after.variation_value).toBeNull();

      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${other.orderID}`,
        headers: admin,
      });
      const text = JSON.stringify(detail.json().data);
      expect(text).toContain(`"variationValue":null`);
      const list = await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin });
      const row = list.json().data.items.find((o: { orderID: number }) => o.orderID === other.orderID);
      expect(row.items.map((i: Line) => i.productName)).toEqual([
        `Gone Cake ${dialect} (${SIZE_NOT_RECORDED})`,
        `Twin Cake ${dialect} (Weight: ${SIZE_NOT_RECORDED})`,
      ]);
    });
  });
}
