import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/india-time.js';
import { kitchenLine } from '../../domain/order-lines.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import {
  deliveryDate,
  type FixtureProduct,
  insertProduct,
  newKey,
  orderRequest,
} from '../support/order-fixtures.js';

/**
 * The day's packing slips in one request, selected by the orders list's filters and in the
 * packing order, each the same as the one order's slip; and the list's orders carry what the
 * owner's CSV and the list need (city, state, PIN and every charge). On SQLite and PostgreSQL.
 */
type Auth = { authorization: string };
type Slip = {
  orderID: number;
  deliverTo: { name: string; phone: string };
  lines: {
    productName: string;
    variationName: string | null;
    variationValue: string | null;
    quantity: number;
  }[];
  paymentMethod: string;
};

for (const dialect of DIALECTS) {
  describe(`packing slips and order summaries on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let buyer: { email: string; auth: Auth };
    let truffle: FixtureProduct;
    let roses: FixtureProduct;
    const ids: { plain: number; gift: number; later: number; noPrice: number } = {
      plain: 0,
      gift: 0,
      later: 0,
      noPrice: 0,
    };
    const day = deliveryDate();
    const nextDay = addDays(day, 1);

    const get = (url: string, auth: Auth = admin) => t.app.inject({ method: 'GET', url, headers: auth });
    const place = async (body: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...buyer.auth, 'idempotency-key': newKey() },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID as number;
    };

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      buyer = await createUserWithToken(t.app, { email: `slips-${dialect}-${Date.now()}@example.test` });
      truffle = await insertProduct(t.app, {
        title: `Chocolate Truffle Delight ${dialect}`,
        price: 649,
        sizeOrWeight: '0.5 kg',
        variations: [{ value: '1 kg', price: 1199 }],
      });
      roses = await insertProduct(t.app, { title: `Red Roses ${dialect}`, price: 450 });
      // Placed out of the packing order: the later delivery first.
      ids.later = await place(orderRequest([{ product: roses }], { DeliveryDate: nextDay }));
      ids.plain = await place(
        orderRequest([
          { product: truffle, variationIndex: 0 },
          { product: roses, quantity: 2 },
        ]),
      );
      ids.gift = await place(
        orderRequest([{ product: truffle }], {
          Recipient: { Name: 'Dadi Kaur', Phone: '9812345678' },
          Card: { Occasion: 'Birthday', Message: 'Happy birthday, Dadi!' },
        }),
      );
      ids.noPrice = await place(orderRequest([{ product: roses }], { HidePrice: true }));
    });
    afterAll(async () => t.close());

    it('answers the slips the filters select in the packing order, each as the single slip answers it', async () => {
      const q = encodeURIComponent(buyer.email);
      const res = await get(`/api/admin/packing-slips?q=${q}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().data as { items: Slip[]; total: number; page: number; pageSize: number };
      expect(page.total).toBe(4);
      expect(page.items.map((s) => s.orderID)).toEqual([ids.plain, ids.gift, ids.noPrice, ids.later]);
      for (const slip of page.items) {
        const one = await get(`/api/admin/orders/${slip.orderID}/packing-slip`);
        expect(slip).toEqual(one.json().data);
      }
      const [plain, gift, noPrice] = page.items as [Slip, Slip, Slip, Slip];
      expect(plain.lines.map(kitchenLine)).toEqual([`1 x ${truffle.title}, 1 kg`, `2 x ${roses.title}`]);
      expect(plain).toMatchObject({ paymentMethod: 'Cash on Delivery', total: 1199 + 900 + 150 });
      // A gift goes to its recipient: the buyer's phone is not where the driver looks.
      expect(gift.deliverTo).toEqual({ name: 'Dadi Kaur', phone: '9812345678' });
      expect(gift.lines.map(kitchenLine)).toEqual([`1 x ${truffle.title}, 0.5 kg`]);
      expect(gift).toMatchObject({ card: { occasion: 'Birthday', from: 'Asha Verma' } });
      // No price in the box: not a price anywhere in the answer.
      expect(JSON.stringify(noPrice)).not.toMatch(/"(unitPrice|lineTotal|total)"/);
      expect(noPrice).toMatchObject({ hidePrice: true, deliverTo: { name: 'Asha Verma' } });

      // The list's filters: a delivery date, and pages.
      const tomorrow = await get(`/api/admin/packing-slips?q=${q}&deliveryDate=${nextDay}`);
      expect(tomorrow.json().data.items.map((s: Slip) => s.orderID)).toEqual([ids.later]);
      const second = await get(`/api/admin/packing-slips?q=${q}&page=2&pageSize=3`);
      expect(second.json().data).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(second.json().data.items.map((s: Slip) => s.orderID)).toEqual([ids.later]);
      const none = await get(`/api/admin/packing-slips?q=${q}&status=delivered`);
      expect(none.json()).toMatchObject({ isSuccess: true, data: { items: [], total: 0 } });
    });

    it('is for admins only and refuses bad filters with the envelope', async () => {
      expect((await get('/api/admin/packing-slips', buyer.auth)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/packing-slips' })).statusCode).toBe(401);
      for (const bad of [
        'from=2026-11-05&to=2026-11-01',
        'pageSize=501',
        'deliveryDate=2026-02-30',
        'status=lost',
      ]) {
        const res = await get(`/api/admin/packing-slips?${bad}`);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: expect.any(String) });
      }
    });

    it("gives the list's orders their city, state, PIN and every charge", async () => {
      const res = await get(`/api/admin/orders?q=${encodeURIComponent(buyer.email)}&sort=slot`);
      const plain = res.json().data.items.find((o: { orderID: number }) => o.orderID === ids.plain);
      expect(plain).toMatchObject({
        customerAddress: 'House 12, Sector 70',
        city: 'Mohali',
        state: 'Punjab',
        pincode: '160062',
        subtotal: 1199 + 900,
        deliveryCharge: 150,
        slotCharge: 0,
        discount: 0,
        totalAmount: 1199 + 900 + 150,
      });
      const latest = (await get('/api/admin/dashboard')).json().data.latest[0];
      expect(latest).toMatchObject({ city: 'Mohali', pincode: '160062', deliveryCharge: 150 });
    });

    it("never prints a cancelled order in the day's slips, whatever the status filter; its own slip says cancelled", async () => {
      const q = encodeURIComponent(buyer.email);
      // The account holds three unpaid orders for one date: the one-step cancel is offered.
      const before = (await get(`/api/admin/orders?q=${q}`)).json().data;
      expect(before).toMatchObject({ total: 4, slips: 4, account: { unpaidOpen: 4, unpaidOnOneDate: 3 } });

      const cancel = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${ids.gift}/status`,
        headers: admin,
        payload: { status: 'cancelled', note: 'The shopper called' },
      });
      expect(cancel.statusCode, cancel.body).toBe(200);

      const slips = async (filters: string) => {
        const res = await get(`/api/admin/packing-slips?q=${q}${filters}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as { items: Slip[]; total: number };
      };
      const all = await slips('');
      expect(all.items.map((s) => s.orderID)).toEqual([ids.plain, ids.noPrice, ids.later]);
      expect(all.total).toBe(3);
      const theDay = await slips(`&deliveryDate=${day}`);
      expect(theDay.items.map((s) => s.orderID)).toEqual([ids.plain, ids.noPrice]);
      // Asking for the cancelled ones prints nothing: a refunded cake is never baked.
      expect(await slips('&status=cancelled')).toMatchObject({ items: [], total: 0 });
      expect((await slips('&status=placed')).items.map((s) => s.orderID)).toEqual([
        ids.plain,
        ids.noPrice,
        ids.later,
      ]);

      // The list still shows the cancelled order, and says how many slips its filters print.
      const list = (await get(`/api/admin/orders?q=${q}&deliveryDate=${day}`)).json().data;
      expect(list).toMatchObject({ total: 3, slips: 2, account: { unpaidOpen: 3, unpaidOnOneDate: 2 } });
      expect((await get(`/api/admin/orders?q=${q}&status=cancelled`)).json().data).toMatchObject({
        total: 1,
        slips: 0,
      });

      // The order's own slip is still there for the record, and says it is cancelled.
      const own = await get(`/api/admin/orders/${ids.gift}/packing-slip`);
      expect(own.json().data).toMatchObject({ orderID: ids.gift, status: 'cancelled' });
      const detail = (await get(`/api/admin/orders/${ids.gift}`)).json().data;
      expect(detail).toMatchObject({ accountUnpaidOpen: 3, accountUnpaidOnOneDate: 2 });
    });
  });
}
