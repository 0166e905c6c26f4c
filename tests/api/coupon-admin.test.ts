/**
 * Coupons the owner runs, on SQLite and PostgreSQL: the Coupons screen's endpoints (admin only,
 * bad input named with nothing saved), every refusal's words through VerifyCoupon and place-order,
 * a percentage with its cap, the last use raced from two processes, a cancel giving the use back,
 * and the phones' list of terms in the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponKey } from '../../domain/coupon-terms.js';
import { couponFormMessages, couponMessages } from '../../domain/coupons.js';
import { indiaInstant } from '../../domain/india-time.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };
const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`the owner's coupons on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { price: 600 });
    });
    afterAll(async () => t.close());

    const create = (body: object, auth: Auth = admin) =>
      t.app.inject({ method: 'POST', url: '/api/admin/coupons', headers: auth, payload: body });
    const list = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/coupons', headers: admin })).json().data as {
        code: string;
        uses: number;
        discountGiven: number;
        state: string;
      }[];
    const verify = (code: string, auth: Auth, subtotal?: number) =>
      t.app.inject({ method: 'POST', url: '/api/VerifyCoupon', headers: auth, payload: { code, subtotal } });
    const place = (body: object, auth: Auth, app = t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: body,
      });
    const coupon = (code: string, more: object = {}) => ({
      code,
      off: { kind: 'flat', amount: 100 },
      minItems: 0,
      firstOrderOnly: false,
      maxUses: null,
      perAccount: 1,
      startsAt: null,
      endsAt: null,
      ...more,
    });
    /** The edit form's body: a coupon's terms without its code. */
    const terms = (more: object = {}) => {
      const { code: _code, ...rest } = coupon('X', more);
      return rest;
    };

    it('keeps the admin endpoints for admins (a shopper gets 403, nobody signed in 401)', async () => {
      const shopper = (await createUserWithToken(t.app)).auth;
      expect((await create(coupon('MINE1'), shopper)).statusCode).toBe(403);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/admin/coupons', headers: shopper })).statusCode,
      ).toBe(403);
      const end = await t.app.inject({
        method: 'POST',
        url: '/api/admin/coupons/SAVE200/end',
        headers: shopper,
      });
      expect(end.statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/coupons' })).statusCode).toBe(401);
      expect((await list()).map((c) => c.code)).not.toContain('MINE1');
    });

    it('refuses bad input with a 400 naming the field, and saves nothing', async () => {
      expect((await create(coupon('dupe1'))).statusCode).toBe(200);
      const before = await list();
      const cases: [object, string, string][] = [
        [coupon('DUPE1'), 'code', couponFormMessages.duplicate('DUPE1')],
        [coupon('BAD-CODE'), 'code', couponFormMessages.code],
        [
          coupon('PCT1', { off: { kind: 'percent', percent: 101, cap: 100 } }),
          'off.percent',
          couponFormMessages.percent,
        ],
        [coupon('NEG1', { off: { kind: 'flat', amount: -5 } }), 'off.amount', couponFormMessages.amount],
        [coupon('MIN1', { minItems: -1 }), 'minItems', couponFormMessages.minItems],
        [
          coupon('WHEN1', { startsAt: Date.now() + DAY, endsAt: Date.now() }),
          'endsAt',
          couponFormMessages.endsAt,
        ],
        [coupon('PER1', { perAccount: 0 }), 'perAccount', couponFormMessages.perAccount],
      ];
      for (const [body, field, message] of cases) {
        const res = await create(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message, data: { field } });
      }
      expect(await list()).toEqual(before);
      const missing = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/coupons/NOSUCH',
        headers: admin,
        payload: terms(),
      });
      expect(missing.statusCode).toBe(404);
    });

    it('words every refusal by its condition, through VerifyCoupon and place-order', async () => {
      const ended = Date.UTC(2026, 10, 2, 18, 30); // midnight starting 3 Nov in India: "ended on 2 Nov"
      expect(
        (await create(coupon('MIN999', { minItems: 999, off: { kind: 'flat', amount: 200 } }))).statusCode,
      ).toBe(200);
      await create(coupon('DIWALI10', { startsAt: ended - 10 * DAY, endsAt: ended }));
      await create(coupon('LATER5', { startsAt: indiaInstant('2030-10-20', 10 * 60) }));
      await create(coupon('FIRST50', { firstOrderOnly: true, off: { kind: 'flat', amount: 50 } }));
      await create(coupon('TWOUSES', { maxUses: 2, perAccount: 5 }));
      const user = await createUserWithToken(t.app);

      const under = await verify('MIN999', user.auth, 998);
      expect(under.statusCode).toBe(422);
      expect(under.json()).toMatchObject({
        isSuccess: false,
        discountAmount: 0,
        sys_message: 'MIN999 needs items of at least ₹999',
      });
      const at = await verify('min999', user.auth, 999);
      expect(at.json()).toMatchObject({
        isSuccess: true,
        discountAmount: 200,
        sys_message: 'Coupon applied: ₹200 off!',
      });

      const over = await verify('DIWALI10', user.auth, 1000);
      expect([over.statusCode, over.json().sys_message]).toEqual([400, 'DIWALI10 ended on 2 Nov']);
      const early = await verify('LATER5', user.auth);
      expect([early.statusCode, early.json().sys_message]).toEqual([
        400,
        'LATER5 starts on 20 Oct 2030, 10:00 am',
      ]);

      // A basket under the minimum is refused at the order too, with the new total to confirm.
      const small = orderRequest([{ product: cake }], { CouponCode: 'MIN999', TotalAmount: 600 + 150 - 200 });
      const refused = await place(small, user.auth);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        sys_message: couponMessages.minimum('MIN999', 999),
        data: { reason: 'repriced', discount: 0, coupon: { code: 'MIN999', applied: false } },
      });
      const big = orderRequest([{ product: cake, quantity: 2 }], {
        CouponCode: 'MIN999',
        TotalAmount: 1200 + 150 - 200,
      });
      expect((await place(big, user.auth)).json().data).toMatchObject({
        discount: 200,
        couponCode: 'MIN999',
      });

      expect((await verify('MIN999', user.auth, 1200)).json().sys_message).toBe(
        'You have used MIN999 already',
      );
      expect((await verify('FIRST50', user.auth)).json().sys_message).toBe(
        'FIRST50 is for a first order only',
      );

      for (const u of [await createUserWithToken(t.app), await createUserWithToken(t.app)]) {
        const body = orderRequest([{ product: cake }], { CouponCode: 'TWOUSES', TotalAmount: 650 });
        expect((await place(body, u.auth)).statusCode).toBe(200);
      }
      const third = await verify('TWOUSES', (await createUserWithToken(t.app)).auth);
      expect([third.statusCode, third.json().sys_message]).toEqual([409, 'TWOUSES has been used up']);
    });

    it('takes a percentage of the items up to its cap, never off delivery; the dashboard and the orders list show it', async () => {
      await create(coupon('PCT10', { off: { kind: 'percent', percent: 10, cap: 150 } }));
      const a = await createUserWithToken(t.app);
      const small = await verify('PCT10', a.auth, 1234);
      expect(small.json()).toMatchObject({
        discountAmount: 123,
        data: { off: { kind: 'percent', percent: 10, cap: 150 } },
        sys_message: 'Coupon applied: 10% off, ₹123!',
      });
      expect((await verify('PCT10', a.auth, 5000)).json().discountAmount).toBe(150);
      const body = orderRequest([{ product: cake, quantity: 3 }], {
        CouponCode: 'PCT10',
        TotalAmount: 1800 + 150 - 150,
      });
      const money = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin })).json().data
          .money;
      const before = await money();
      const placed = await place(body, a.auth);
      expect(await money()).toMatchObject({
        couponOrders30: before.couponOrders30 + 1,
        discount30: before.discount30 + 150,
      });
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders?q=${encodeURIComponent(a.email)}`,
        headers: admin,
      });
      expect(listed.json().data.items[0]).toMatchObject({ couponCode: 'PCT10', discount: 150 });
      expect(placed.json().data).toMatchObject({
        subtotal: 1800,
        deliveryCharge: 150,
        discount: 150,
        totalAmount: 1800,
      });
      const row = (await list()).find((c) => c.code === 'PCT10');
      expect(row).toMatchObject({ uses: 1, discountGiven: 150, state: 'live' });
    });

    it('makes one redemption and one clear refusal when two processes race for the last use', async () => {
      await create(coupon('LAST1', { maxUses: 1 }));
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        const [u1, u2] = [await createUserWithToken(t.app), await createUserWithToken(t.app)];
        const body = orderRequest([{ product: cake }], { CouponCode: 'LAST1', TotalAmount: 650 });
        const answers = await Promise.all([place(body, u1.auth, t.app), place(body, u2.auth, second)]);
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        const loser = answers.find((r) => r.statusCode === 409);
        expect(loser?.json().sys_message).toBe('LAST1 has been used up');
        expect((await list()).find((c) => c.code === 'LAST1')).toMatchObject({ uses: 1, discountGiven: 100 });
      } finally {
        await second.close();
      }
    });

    it('gives the use back when the order is cancelled, and ends a coupon without deleting it', async () => {
      await create(coupon('BACK1', { maxUses: 1 }));
      const user = await createUserWithToken(t.app);
      const body = orderRequest([{ product: cake }], { CouponCode: 'BACK1', TotalAmount: 650 });
      const placed = (await place(body, user.auth)).json().data;
      const cancel = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${placed.orderID}/status`,
        headers: admin,
        payload: { status: 'cancelled' },
      });
      expect(cancel.statusCode).toBe(200);
      expect((await list()).find((c) => c.code === 'BACK1')).toMatchObject({ uses: 0, discountGiven: 0 });
      expect((await verify('BACK1', (await createUserWithToken(t.app)).auth)).statusCode).toBe(200);

      const end = await t.app.inject({ method: 'POST', url: '/api/admin/coupons/back1/end', headers: admin });
      expect(end.json()).toMatchObject({
        data: { code: 'BACK1', state: 'ended' },
        sys_message: couponFormMessages.ended('BACK1'),
      });
      const refused = await verify('BACK1', user.auth);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().sys_message).toMatch(/^BACK1 ended on \d+ [A-Z][a-z]{2}$/);
      // The order still names it.
      const order = await t.app.db
        .selectFrom('orders')
        .select('coupon_code')
        .where('id', '=', placed.orderID)
        .executeTakeFirst();
      expect(order?.coupon_code).toBe('BACK1');
    });

    it("sends phones the coupons' terms by a hash of the code, and the advertised offer as the coupon now is", async () => {
      await create(coupon('PHONE15', { off: { kind: 'percent', percent: 15, cap: 300 }, minItems: 800 }));
      const offer = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/offer',
        headers: admin,
        payload: { code: 'PHONE15' },
      });
      expect(offer.statusCode).toBe(200);
      const feed = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/sync/catalogue' })).json().data;
      const key = await couponKey('PHONE15');
      const phones = (await feed()).settings.coupons as { key: string }[];
      expect(phones.find((c) => c.key === key)).toEqual({
        key,
        off: { kind: 'percent', percent: 15, cap: 300 },
        minItems: 800,
        firstOrderOnly: false,
        startsAt: null,
        endsAt: null,
      });
      expect(JSON.stringify(phones)).not.toContain('PHONE15');
      // The seeded coupon is there from the migration, under the same key the app makes.
      const save200 = await couponKey('SAVE200');
      expect(phones.some((c) => c.key === save200)).toBe(true);

      const edited = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/coupons/PHONE15',
        headers: admin,
        payload: terms({ off: { kind: 'percent', percent: 20, cap: 300 }, minItems: 800 }),
      });
      expect(edited.statusCode).toBe(200);
      expect((await feed()).settings.offer).toMatchObject({
        code: 'PHONE15',
        off: { percent: 20 },
        minItems: 800,
      });
      await t.app.inject({ method: 'POST', url: '/api/admin/coupons/PHONE15/end', headers: admin });
      const after = await feed();
      expect(after.settings.offer).toBeNull();
      expect((after.settings.coupons as { key: string }[]).some((c) => c.key === key)).toBe(false);
    });
  });
}
