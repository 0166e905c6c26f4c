import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCoupon } from '../../api/coupons/coupon.repository.js';
import { COUPON_RULES } from '../../api/coupons/coupon.routes.js';
import { couponMessages } from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`coupons on ${dialect}`, () => {
    let t: TestApp;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      cake = await insertProduct(t.app, { price: 900 });
    });
    afterAll(async () => t.close());

    const verify = (code: unknown, auth: Auth) =>
      t.app.inject({ method: 'POST', url: '/api/VerifyCoupon', headers: auth, payload: { code } });
    const place = (body: unknown, auth: Auth, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body as object,
      });
    const redemptions = async (code: string) =>
      t.app.db.selectFrom('coupon_redemptions').selectAll().where('coupon_code', '=', code).execute();

    const verifyFrom = (code: string, auth: Auth, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/VerifyCoupon',
        headers: auth,
        payload: { code },
        remoteAddress,
      });
    const expectLimited = (res: Awaited<ReturnType<typeof verify>>) => {
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({
        isSuccess: false,
        discountAmount: 0,
        sys_message: messages.tooManyAttempts,
      });
    };

    it('refuses guessing past the budget of an account, even with the right code next', async () => {
      const user = await createUserWithToken(t.app);
      const ip = `10.7.${dialect === 'sqlite' ? 1 : 2}.1`;
      for (let i = 0; i < COUPON_RULES.account.limit; i++) {
        expect((await verifyFrom(`GUESS${i}`, user.auth, ip)).statusCode).toBe(400);
      }
      expectLimited(await verifyFrom('SAVE200', user.auth, ip));
      // Another account on another address still checks its coupon.
      const other = await createUserWithToken(t.app);
      expect(
        (await verifyFrom('SAVE200', other.auth, `10.7.${dialect === 'sqlite' ? 3 : 4}.1`)).statusCode,
      ).toBe(200);
    });

    it('refuses guessing past the budget of an address, spread over many accounts', async () => {
      const ip = `10.8.${dialect === 'sqlite' ? 1 : 2}.1`;
      const perAccount = COUPON_RULES.account.limit;
      let sent = 0;
      while (sent < COUPON_RULES.ip.limit) {
        const user = await createUserWithToken(t.app);
        for (let i = 0; i < perAccount && sent < COUPON_RULES.ip.limit; i++, sent++) {
          expect((await verifyFrom(`GUESS${sent}`, user.auth, ip)).statusCode).toBe(400);
        }
      }
      const fresh = await createUserWithToken(t.app);
      expectLimited(await verifyFrom('SAVE200', fresh.auth, ip));
    });

    it('gives SAVE200 to a new account, with discountAmount at the top level and in data', async () => {
      const user = await createUserWithToken(t.app);
      const res = await verify(' save200 ', user.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        isSuccess: true,
        discountAmount: 200,
        data: { code: 'SAVE200', discountAmount: 200, off: { kind: 'flat', amount: 200 }, minItems: 0 },
        sys_message: messages.couponApplied('₹200'),
      });
    });

    it('refuses unknown, empty and expired codes with discountAmount 0', async () => {
      const user = await createUserWithToken(t.app);
      await insertCoupon(t.app.db, { code: `OLD${dialect}`, amount: 50, endsAt: Date.now() - 1000 });
      const unknown = await verify('NOPE', user.auth);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({
        isSuccess: false,
        discountAmount: 0,
        sys_message: messages.couponInvalid,
      });
      const expired = await verify(`OLD${dialect}`, user.auth);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().sys_message).toMatch(
        new RegExp(`^OLD${dialect.toUpperCase()} ended on \\d+ [A-Z][a-z]{2}$`),
      );
      for (const code of ['', 42, null]) {
        const res = await verify(code, user.auth);
        expect(res.statusCode).toBe(400);
        expect(res.json().isSuccess).toBe(false);
      }
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/VerifyCoupon',
        payload: { code: 'SAVE200' },
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('takes SAVE200 off the first order only', async () => {
      const user = await createUserWithToken(t.app);
      const body = orderRequest([{ product: cake }], { CouponCode: 'SAVE200' });
      const first = await place({ ...body, TotalAmount: 900 + 150 - 200 }, user.auth);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ discount: 200, totalAmount: 850, couponCode: 'SAVE200' });
      const after = await verify('SAVE200', user.auth);
      expect(after.statusCode).toBe(409);
      expect(after.json()).toMatchObject({ isSuccess: false, discountAmount: 0 });
      // A second order still counting the discount is shown the new figures and the reason.
      const second = await place({ ...body, TotalAmount: 850 }, user.auth);
      expect(second.statusCode).toBe(409);
      expect(second.json().sys_message).toBe(couponMessages.firstOrder('SAVE200'));
      expect(second.json().data).toMatchObject({ discount: 0, total: { old: 850, new: 1050 } });
    });

    it('does not give SAVE200 to an account that already ordered', async () => {
      const user = await createUserWithToken(t.app);
      expect((await place(orderRequest([{ product: cake }]), user.auth)).statusCode).toBe(200);
      const res = await verify('SAVE200', user.auth);
      expect(res.statusCode).toBe(409);
      expect(res.json().sys_message).toBe(couponMessages.firstOrder('SAVE200'));
    });

    it('redeems a single-use coupon once when 20 orders race for it', async () => {
      const code = `GIFT${dialect.toUpperCase()}`;
      await insertCoupon(t.app.db, { code, amount: 300, maxUses: 1 });
      const users = await Promise.all(Array.from({ length: 20 }, () => createUserWithToken(t.app)));
      const body = {
        ...orderRequest([{ product: cake }], { CouponCode: code }),
        TotalAmount: 900 + 150 - 300,
      };
      const answers = await Promise.all(users.map((u) => place(body, u.auth)));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      for (const r of answers.filter((a) => a.statusCode === 409)) {
        expect(r.json().sys_message).toBe(couponMessages.usedUp(code));
      }
      expect(await redemptions(code)).toHaveLength(1);
      const discounted = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('coupon_code', '=', code)
        .execute();
      expect(discounted).toHaveLength(1);
    });

    it('redeems SAVE200 once when one account races 20 first orders', async () => {
      const user = await createUserWithToken(t.app);
      const body = { ...orderRequest([{ product: cake }], { CouponCode: 'SAVE200' }), TotalAmount: 850 };
      const answers = await Promise.all(Array.from({ length: 20 }, () => place(body, user.auth)));
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(19);
      const mine = (await redemptions('SAVE200')).filter((r) => r.user_id === user.id);
      expect(mine).toHaveLength(1);
    });
  });
}
