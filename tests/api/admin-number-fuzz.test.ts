/**
 * Every number an admin endpoint takes, sent as what breaks arithmetic and storage: 1e21 and 1e308
 * (whole numbers to `Number.isInteger`, far past any column), 2^53 (no longer exact), -1, 1.5, and
 * text ("NaN", "12abc"). Each must answer 400 in the envelope naming the field, on SQLite and
 * PostgreSQL: never a 500, a 422 from deeper in (a slot id of 1e21 is not a missing slot, it is
 * not an id), nor a write. The table lists each endpoint once per number it reads, in the body, the
 * path, the query or a multipart form; a new admin number gets its row here. Coupons have no admin
 * endpoint yet.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSlots } from '../../api/slots/slot.seed.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { freshSettings } from '../support/fresh-settings.js';
import { type FixtureProduct, insertProduct } from '../support/order-fixtures.js';
import { paidOrder } from '../support/paid-order.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';

type Auth = { authorization: string };

/** What breaks a number: too large to store or to be exact, negative, a fraction, text. */
const BAD: readonly unknown[] = [1e21, 2 ** 53, 1e308, -1, 1.5, 'NaN', '12abc'];

/** A form field as multipart sends it: numbers as their text. */
function multipart(fields: Record<string, unknown>): { payload: string; headers: Record<string, string> } {
  const boundary = '----fuzz-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
  );
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

interface Target {
  /** The endpoint and the number, as a failure names them. */
  what: string;
  /** The field the 400 must name (`data.field`, compared case aside; an item's path starts with it). */
  field: string;
  /** Values of `BAD` this number may take (a cut-off of -1 is a minute before its day). */
  allows?: readonly unknown[];
  request(value: unknown, ids: Ids): InjectOptions;
}

interface Ids {
  order: number;
  product: FixtureProduct;
  slot: number;
  post: number;
}

const SLOT = { name: 'Fuzz', start: 600, end: 720, surcharge: 0, cutoff: 540, capacity: 5, weekdays: [1] };
const AREA = { city: 'Mohali', state: 'Punjab', charge: 150 };
const PRODUCT_FORM = {
  CategoryID: 1,
  Title: 'Fuzz cake',
  Description: '<p>A cake.</p>',
  LabelHeading: 'Eggless',
  LabelDescription: 'Made fresh',
  Price: 500,
  SizeOrWeight: '1 kg',
};
const text = (value: unknown) => String(value);
const query = (value: unknown) => encodeURIComponent(String(value));

const TARGETS: Target[] = [
  {
    what: 'POST /admin/orders/{id}/refunds: amount',
    field: 'amount',
    request: (amount, ids) => ({
      method: 'POST',
      url: `/api/admin/orders/${ids.order}/refunds`,
      payload: { amount, reason: 'Fuzz' },
    }),
  },
  {
    what: 'POST /admin/orders/{id}/refunds: id',
    field: 'id',
    request: (id) => ({
      method: 'POST',
      url: `/api/admin/orders/${text(id)}/refunds`,
      payload: { amount: 1, reason: 'Fuzz' },
    }),
  },
  {
    what: 'PUT /admin/settings: photoCakeNoticeDays',
    field: 'photoCakeNoticeDays',
    request: (days) => ({
      method: 'PUT',
      url: '/api/admin/settings',
      payload: { photoCakeNoticeDays: days },
    }),
  },
  {
    what: 'PUT /admin/delivery-areas/{pincode}: charge',
    field: 'charge',
    request: (charge) => ({
      method: 'PUT',
      url: '/api/admin/delivery-areas/160062',
      payload: { ...AREA, charge },
    }),
  },
  {
    what: 'PUT /admin/delivery-areas/{pincode}: slotIDs',
    field: 'slotIDs',
    request: (slot) => ({
      method: 'PUT',
      url: '/api/admin/delivery-areas/160062',
      payload: { ...AREA, slotIDs: [slot] },
    }),
  },
  {
    what: 'PUT /admin/delivery-areas/{pincode}: pincode',
    field: 'pincode',
    request: (pincode) => ({
      method: 'PUT',
      url: `/api/admin/delivery-areas/${text(pincode)}`,
      payload: AREA,
    }),
  },
  {
    what: 'POST /admin/delivery-areas/import: a line’s charge',
    field: 'lines',
    request: (charge) => ({
      method: 'POST',
      url: '/api/admin/delivery-areas/import',
      payload: { lines: `160062,Mohali,Punjab,${text(charge)}` },
    }),
  },
  ...(['start', 'end', 'surcharge', 'cutoff', 'capacity', 'position'] as const).map(
    (key): Target => ({
      what: `POST /admin/delivery-slots: ${key}`,
      field: key,
      ...(key === 'cutoff' ? { allows: [-1] } : {}),
      request: (value) => ({
        method: 'POST',
        url: '/api/admin/delivery-slots',
        payload: { ...SLOT, [key]: value },
      }),
    }),
  ),
  {
    what: 'POST /admin/delivery-slots: weekdays',
    field: 'weekdays',
    request: (day) => ({
      method: 'POST',
      url: '/api/admin/delivery-slots',
      payload: { ...SLOT, weekdays: [day] },
    }),
  },
  {
    what: 'PUT /admin/delivery-slots/{id}: capacity',
    field: 'capacity',
    request: (capacity, ids) => ({
      method: 'PUT',
      url: `/api/admin/delivery-slots/${ids.slot}`,
      payload: { ...SLOT, capacity },
    }),
  },
  ...(['PUT', 'POST /retire', 'POST /restore'] as const).map(
    (how): Target => ({
      what: `${how.split(' ')[0]} /admin/delivery-slots/{id}${how.split(' ')[1] ?? ''}: id`,
      field: 'id',
      request: (id) => ({
        method: how === 'PUT' ? 'PUT' : 'POST',
        url: `/api/admin/delivery-slots/${text(id)}${how.split(' ')[1] ?? ''}`,
        ...(how === 'PUT' ? { payload: SLOT } : {}),
      }),
    }),
  ),
  {
    what: 'PUT /UpdateProductDetails: Price',
    field: 'price',
    request: (price, ids) => ({
      method: 'PUT',
      url: '/api/UpdateProductDetails',
      payload: { ProductID: ids.product.id, Title: 'Fuzz cake', Description: '<p>A cake.</p>', Price: price },
    }),
  },
  {
    what: 'PUT /UpdateProductDetails: a variation’s Price',
    field: 'variations',
    request: (price, ids) => ({
      method: 'PUT',
      url: '/api/UpdateProductDetails',
      payload: {
        ProductID: ids.product.id,
        Title: 'Fuzz cake',
        Description: '<p>A cake.</p>',
        Price: 500,
        Variations: [{ VariationName: 'Weight', VariationType: '1 kg', Price: price }],
      },
    }),
  },
  {
    what: 'PUT /UpdateProductDetails: ProductID',
    field: 'productID',
    request: (id) => ({
      method: 'PUT',
      url: '/api/UpdateProductDetails',
      payload: { ProductID: id, Title: 'Fuzz cake', Description: '<p>A cake.</p>', Price: 500 },
    }),
  },
  {
    what: 'POST /AddProductForDash: Price',
    field: 'price',
    request: (price) => ({
      method: 'POST',
      url: '/api/AddProductForDash',
      ...multipart({ ...PRODUCT_FORM, Price: price }),
    }),
  },
  {
    what: 'POST /AddProductForDash: CategoryID',
    field: 'categoryIDs',
    request: (id) => ({
      method: 'POST',
      url: '/api/AddProductForDash',
      ...multipart({ ...PRODUCT_FORM, CategoryID: id }),
    }),
  },
  {
    what: 'POST /AddProductForDash: a variation’s Price',
    field: 'variations',
    request: (price) => ({
      method: 'POST',
      url: '/api/AddProductForDash',
      ...multipart({
        ...PRODUCT_FORM,
        variationsJson: JSON.stringify([{ VariationName: 'Weight', VariationType: '1 kg', Price: price }]),
      }),
    }),
  },
  {
    what: 'DELETE /DeleteProduct: productId',
    field: 'productID',
    request: (id) => ({ method: 'DELETE', url: `/api/DeleteProduct?productId=${query(id)}` }),
  },
  {
    what: 'DELETE /DeleteCategory: categoryId',
    field: 'categoryID',
    request: (id) => ({ method: 'DELETE', url: `/api/DeleteCategory?categoryId=${query(id)}` }),
  },
  {
    what: 'PUT /admin/categories/{id}: id',
    field: 'id',
    request: (id) => ({
      method: 'PUT',
      url: `/api/admin/categories/${text(id)}`,
      payload: { categoryName: 'Fuzz' },
    }),
  },
  {
    what: 'POST /admin/products/delete: productIDs',
    field: 'productIDs',
    request: (id) => ({ method: 'POST', url: '/api/admin/products/delete', payload: { productIDs: [id] } }),
  },
  {
    what: 'PUT /admin/products/{id}/images: id',
    field: 'id',
    request: (id) => ({
      method: 'PUT',
      url: `/api/admin/products/${text(id)}/images`,
      ...multipart({ order: JSON.stringify([{ src: '/media/a.webp' }]) }),
    }),
  },
  {
    what: 'PUT /admin/products/{id}/images: an upload’s number',
    field: 'order',
    request: (file, ids) => ({
      method: 'PUT',
      url: `/api/admin/products/${ids.product.id}/images`,
      ...multipart({ order: JSON.stringify([{ file }]) }),
    }),
  },
  ...(['/api/orders', '/api/admin/orders'] as const).map(
    (base): Target => ({
      what: `PUT ${base.slice(4)}/{id}/status: id`,
      field: 'id',
      request: (id) => ({
        method: 'PUT',
        url: `${base}/${text(id)}/status`,
        payload: { status: 'confirmed' },
      }),
    }),
  ),
  {
    what: 'GET /admin/orders/{id}: id',
    field: 'id',
    request: (id) => ({ method: 'GET', url: `/api/admin/orders/${text(id)}` }),
  },
  {
    what: 'GET /admin/orders/{id}/packing-slip: id',
    field: 'id',
    request: (id) => ({ method: 'GET', url: `/api/admin/orders/${text(id)}/packing-slip` }),
  },
  {
    what: 'POST /admin/orders/cancel-unpaid: userID',
    field: 'userID',
    request: (id) => ({ method: 'POST', url: '/api/admin/orders/cancel-unpaid', payload: { userID: id } }),
  },
  ...(
    [
      ['/api/admin/orders', 'page'],
      ['/api/admin/orders', 'pageSize'],
      ['/api/admin/orders', 'slotId'],
      ['/api/admin/products', 'page'],
      ['/api/admin/products', 'pageSize'],
      ['/api/admin/products', 'categoryId'],
      ['/api/admin/packing-slips', 'page'],
      ['/api/admin/notifications', 'since'],
    ] as const
  ).map(
    ([path, name]): Target => ({
      what: `GET ${path.slice(4)}: ${name}`,
      field: name,
      request: (value) => ({ method: 'GET', url: `${path}?${name}=${query(value)}` }),
    }),
  ),
  ...(['PUT', 'DELETE'] as const).map(
    (method): Target => ({
      what: `${method} /posts/{id}: id`,
      field: 'id',
      request: (id) => ({
        method,
        url: `/api/posts/${text(id)}`,
        ...(method === 'PUT' ? { payload: { title: 'Fuzz', content: 'Fuzz' } } : {}),
      }),
    }),
  ),
];

for (const dialect of DIALECTS) {
  describe(`admin numbers on ${dialect}`, () => {
    let t: TestApp;
    let rzp: RazorpayDouble;
    let admin: Auth;
    let ids: Ids;

    beforeAll(async () => {
      rzp = await startRazorpayDouble();
      t = await makeTestApp(dialect, {
        razorpay: rzp.settings,
      });
      await seedDemoSlots(t.app.db, t.app.dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      const shopper = (await createUserWithToken(t.app)).auth;
      const product = await insertProduct(t.app, { price: 1200 });
      const order = await paidOrder(t.app, rzp, shopper, product);
      const slot = await t.app.inject({
        method: 'POST',
        url: '/api/admin/delivery-slots',
        headers: admin,
        payload: SLOT,
      });
      expect(slot.statusCode, slot.body).toBe(201);
      ids = { order: order.id, product, slot: slot.json().data.slotID, post: 1 };
    });
    afterAll(async () => {
      await t.close();
      await rzp.close();
    });

    /** What the admin's numbers could change: refunds asked, rows of the areas, slots, settings and products. */
    const state = async () => ({
      refundsAsked: rzp.requests.filter((r) => r.path.endsWith('/refund')).length,
      refunds: (await t.app.db.selectFrom('refunds').select('id').execute()).length,
      areas: await t.app.db.selectFrom('delivery_areas').selectAll().orderBy('pincode').execute(),
      slots: await t.app.db.selectFrom('delivery_slots').selectAll().orderBy('id').execute(),
      settings: (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin })).json()
        .data,
      products: await t.app.db.selectFrom('products').select(['id', 'price']).orderBy('id').execute(),
    });

    it('answers every bad number of every admin endpoint with a 400 naming its field, and changes nothing', async () => {
      const before = await state();
      expect(before.settings).toEqual(await freshSettings());
      const wrong: string[] = [];
      for (const target of TARGETS) {
        for (const value of BAD.filter((b) => !target.allows?.includes(b))) {
          const asked = target.request(value, ids);
          const res = await t.app.inject({ ...asked, headers: { ...admin, ...asked.headers } });
          const body = res.json();
          const field = String(body.data?.field ?? '');
          const named = field.toLowerCase().startsWith(target.field.toLowerCase());

          if (res.statusCode !== 400 || body.isSuccess !== false || !named || !body.sys_message)
            wrong.push(
              `${target.what} = ${JSON.stringify(value)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
        }
      }
      expect(wrong).toEqual([]);
      expect(await state()).toEqual(before);
    });

    it('refuses a refund of 1e21, 2^53 or 1e308 rupees with 400 and the most it may be, not a 500', async () => {
      for (const amount of [1e21, 2 ** 53, 1e308, 20_000_001]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/admin/orders/${ids.order}/refunds`,
          headers: admin,
          payload: { amount, reason: 'Too much' },
        });
        expect(res.statusCode, String(amount)).toBe(400);
        expect(res.json()).toEqual({
          isSuccess: false,
          data: { field: 'amount' },
          sys_message: 'The amount must be at most ₹2,00,00,000.',
        });
      }
      // Within the cap, more than was paid is the service's refusal: what is left, said in rupees.
      const more = await t.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${ids.order}/refunds`,
        headers: admin,
        payload: { amount: 20_000_000, reason: 'Too much' },
      });
      expect(more.statusCode).toBe(422);
      expect(rzp.requests.filter((r) => r.path.endsWith('/refund'))).toHaveLength(0);
    });
  });
}
