/**
 * The product pages' offer on SQLite and PostgreSQL: the owner advertises one of the live coupons
 * or none (admin only), a code that is not a live coupon is a 400 naming `code` with nothing
 * saved, the choice reaches phones in the feed, and a coupon that is withdrawn takes the banner
 * with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawOfferFor } from '../../api/coupons/offer.service.js';
import { offerMessages } from '../../domain/shop-offer.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

type Auth = { authorization: string };
const SAVE200 = {
  code: 'SAVE200',
  amount: 200,
  firstOrderOnly: true,
  endsAt: null,
  off: { kind: 'flat' as const, amount: 200 },
  minItems: 0,
  startsAt: null,
};

for (const dialect of DIALECTS) {
  describe(`the advertised offer on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: Auth;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
      const now = Date.now();
      await t.app.db
        .insertInto('coupons')
        .values([
          {
            code: 'DIWALI150',
            discount_amount: 150,
            first_order_only: 0,
            active: 1,
            expires_at: now + 86_400_000,
            created_at: now,
          },
          {
            code: 'OLD50',
            discount_amount: 50,
            first_order_only: 0,
            active: 1,
            expires_at: now - 1000,
            created_at: now,
          },
          {
            code: 'OFF75',
            discount_amount: 75,
            first_order_only: 0,
            active: 0,
            expires_at: null,
            created_at: now,
          },
        ])
        .execute();
    });
    afterAll(async () => t.close());

    const get = (auth: Auth | null = admin) =>
      t.app.inject({ method: 'GET', url: '/api/admin/offer', headers: auth ?? {} });
    const choose = (payload: unknown, auth: Auth | null = admin) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/offer',
        headers: auth ?? {},
        payload: payload as object,
      });
    const feedOffer = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/sync/catalogue' });
      return res.json().data.settings.offer;
    };

    it('lists only the live coupons, and advertises none until the owner picks one', async () => {
      const res = await get();
      expect(res.statusCode).toBe(200);
      expect(res.json().data.offer).toBeNull();
      expect(res.json().data.coupons.map((c: { code: string }) => c.code)).toEqual(['DIWALI150', 'SAVE200']);
      expect(await feedOffer()).toBeNull();
    });

    it('advertises a live coupon as it is, and phones get it in the feed', async () => {
      const res = await choose({ code: ' save200 ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        isSuccess: true,
        data: { offer: SAVE200 },
        sys_message: offerMessages.saved(SAVE200),
      });
      expect(await feedOffer()).toEqual(SAVE200);
    });

    it('refuses an ended, inactive, unknown or malformed code, naming the field, and keeps the offer', async () => {
      for (const code of ['OLD50', 'OFF75', 'NOPE99']) {
        const res = await choose({ code });
        expect(res.statusCode, code).toBe(400);
        expect(res.json()).toMatchObject({
          isSuccess: false,
          data: { field: 'code' },
          sys_message: offerMessages.notLive(code),
        });
      }
      for (const payload of [{ code: 'bad code!' }, { code: 7 }, {}, { code: 'SAVE200', extra: 1 }]) {
        const res = await choose(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect((await get()).json().data.offer).toEqual(SAVE200);
    });

    it('is the admin’s alone', async () => {
      expect((await get(null)).statusCode).toBe(401);
      expect((await get(shopper)).statusCode).toBe(403);
      expect((await choose({ code: null }, null)).statusCode).toBe(401);
      expect((await choose({ code: null }, shopper)).statusCode).toBe(403);
      expect((await get()).json().data.offer).toEqual(SAVE200);
    });

    it('goes when its coupon is withdrawn, and when the owner picks none', async () => {
      await withdrawOfferFor(t.app.db, 'DIWALI150');
      expect(await feedOffer()).toEqual(SAVE200);
      await withdrawOfferFor(t.app.db, 'SAVE200');
      expect(await feedOffer()).toBeNull();
      expect((await choose({ code: 'DIWALI150' })).statusCode).toBe(200);
      const none = await choose({ code: null });
      expect(none.json()).toMatchObject({ data: { offer: null }, sys_message: offerMessages.saved(null) });
      expect(await feedOffer()).toBeNull();
    });
  });
}
