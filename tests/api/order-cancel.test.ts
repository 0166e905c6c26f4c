/**
 * The shopper's own Cancel (`POST /api/my-orders/{id}/cancel`) on SQLite and PostgreSQL: before
 * the cut-off it cancels through the shop's own move (refund in full once, with the Razorpay double
 * and with the test provider; the coupon back; the slot's place free; the timeline names the
 * shopper); too late, confirmed after the grace or out for delivery is a 409 `cancel-closed` with
 * the shop's phone; another account's order is a 404; the same cancel twice is one move and one
 * refund; a bad id or no Idempotency-Key is a 400.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeSettings } from '../../api/settings/settings.service.js';
import { cancelHoursInvalid } from '../../domain/cancel-hours.js';
import { cancelMessages } from '../../domain/order-cancel.js';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import {
  deliveryDate,
  type FixtureProduct,
  insertProduct,
  newKey,
  orderRequest,
} from '../support/order-fixtures.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';

type Auth = { authorization: string };
type Shopper = { auth: Auth; id: number; email: string };

for (const dialect of DIALECTS) {
  describe(`the shopper's cancel on ${dialect}`, () => {
    let t: TestApp;
    let test: TestApp;
    let rzp: RazorpayDouble;
    let admin: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      rzp = await startRazorpayDouble();
      t = await makeTestApp(dialect, { razorpay: rzp.settings });
      // The same shop's code with the local test provider instead of keys.
      test = await makeTestApp(dialect, { testPayments: true });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { price: 1200 });
      await insertProduct(test.app, { price: 1200 });
    });
    afterAll(async () => {
      await t?.close();
      await test?.close();
      await rzp?.close();
    });

    const place = async (who: Shopper, overrides: object = {}, app: FastifyInstance = t.app) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...who.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake }], overrides),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID as number;
    };
    const cancel = (who: Shopper, id: number | string, key: string | null = newKey(), app = t.app) =>
      app.inject({
        method: 'POST',
        url: `/api/my-orders/${id}/cancel`,
        headers: { ...who.auth, ...(key ? { 'idempotency-key': key } : {}) },
      });
    const move = (id: number, status: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: admin,
        payload: { status },
      });
    /** Moves the order's placing back in time, as if it had been placed `minutes` ago. */
    const placedAgo = (id: number, minutes: number, app = t.app) =>
      app.db
        .updateTable('orders')
        .set({ created_at: Date.now() - minutes * 60_000 })
        .where('id', '=', id)
        .execute();
    const timeline = (id: number, app = t.app) =>
      app.db.selectFrom('order_status_history').selectAll().where('order_id', '=', id).execute();
    const refunds = (id: number, app = t.app) =>
      app.db.selectFrom('refunds').selectAll().where('order_id', '=', id).execute();

    it('before the cut-off: cancelled through the shop’s move, the timeline naming the shopper; twice is once', async () => {
      const asha = await createUserWithToken(t.app);
      const id = await place(asha);
      const key = newKey();
      const first = await cancel(asha, id, key);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({
        isSuccess: true,
        sys_message: cancelMessages.cancelled,
        data: { orderID: id, status: 'cancelled', refunds: [] },
      });
      // The same key again, and a new one: the order as it is, no second move.
      for (const again of [key, newKey()]) {
        const res = await cancel(asha, id, again);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.status).toBe('cancelled');
      }
      const moves = (await timeline(id)).filter((m) => m.to_status === 'cancelled');
      expect(moves).toHaveLength(1);
      expect(moves[0]).toMatchObject({ changed_by_email: asha.email, note: cancelMessages.byShopper });
    });

    it('too late: a 409 cancel-closed with the shop’s phone; within the first 15 minutes always, unless out for delivery', async () => {
      await changeSettings(t.app.db, {
        profile: { ...DEMO_PROFILE, care: { ...DEMO_PROFILE.care, phone: '+91 172 400 1234' } },
        cancelHoursBeforeSlot: 72,
      });
      try {
        const asha = await createUserWithToken(t.app);
        // Its slot is within 72 hours, but it was placed a moment ago: the grace.
        const fresh = await place(asha);
        const confirmedFresh = await place(asha);
        expect((await move(confirmedFresh, 'confirmed')).statusCode).toBe(200);
        expect((await cancel(asha, confirmedFresh)).statusCode).toBe(200);
        // Placed 20 minutes ago: closed.
        await placedAgo(fresh, 20);
        const late = await cancel(asha, fresh);
        expect(late.statusCode).toBe(409);
        expect(late.json()).toMatchObject({
          isSuccess: false,
          sys_message: cancelMessages.closed('+91 172 400 1234'),
          data: { reason: 'cancel-closed', why: 'soon' },
        });
        // Confirmed, past the grace: closed whatever the slot.
        await changeSettings(t.app.db, { cancelHoursBeforeSlot: 6 });
        const confirmed = await place(asha);
        expect((await move(confirmed, 'confirmed')).statusCode).toBe(200);
        await placedAgo(confirmed, 20);
        expect((await cancel(asha, confirmed)).json().data).toEqual({
          reason: 'cancel-closed',
          why: 'confirmed',
        });
        // Out for delivery: never, not even at once.
        const going = await place(asha);
        expect((await move(going, 'confirmed')).statusCode).toBe(200);
        expect((await move(going, 'out for delivery')).statusCode).toBe(200);
        const refused = await cancel(asha, going);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().data).toEqual({ reason: 'cancel-closed', why: 'out for delivery' });
        for (const id of [fresh, confirmed, going])
          expect((await timeline(id)).some((m) => m.to_status === 'cancelled')).toBe(false);
      } finally {
        await changeSettings(t.app.db, { cancelHoursBeforeSlot: 6, profile: DEMO_PROFILE });
      }
    });

    it('the hours setting takes whole hours from 0 to 72: anything else is a 400 naming it, nothing saved', async () => {
      for (const bad of [73, -1, 1.5, '6', null]) {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/admin/settings',
          headers: admin,
          payload: { cancelHoursBeforeSlot: bad },
        });
        expect(res.statusCode, String(bad)).toBe(400);
        expect(res.json().sys_message).toBe(cancelHoursInvalid);
        expect(JSON.stringify(res.json().data)).toContain('cancelHoursBeforeSlot');
      }
      const now = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
      expect(now.json().data.cancelHoursBeforeSlot).toBe(6);
    });

    it('another account’s order is a missing one; a bad id or no key is a 400; nothing changes', async () => {
      const asha = await createUserWithToken(t.app);
      const ravi = await createUserWithToken(t.app);
      const id = await place(asha);
      const theirs = await cancel(ravi, id);
      expect(theirs.statusCode).toBe(404);
      expect((await cancel(ravi, 999_999)).json().sys_message).toBe(theirs.json().sys_message);
      expect((await cancel(asha, 'abc')).statusCode).toBe(400);
      const noKey = await cancel(asha, id, null);
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json().sys_message).toBe(cancelMessages.keyRequired);
      expect((await cancel(asha, id, 'not-a-uuid')).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: `/api/my-orders/${id}/cancel` })).statusCode).toBe(
        401,
      );
      expect((await timeline(id)).some((m) => m.to_status === 'cancelled')).toBe(false);
    });

    it('gives the coupon back and frees the slot’s place', async () => {
      const slots = (
        await t.app.inject({ method: 'GET', url: '/api/admin/delivery-slots', headers: admin })
      ).json().data.slots;
      const standard = slots.find((s: { slotID: number }) => s.slotID === 1);
      const { slotID: _id, isDefault: _d, retired: _r, ...input } = standard;
      const cap = (capacity: number | null) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/delivery-slots/1',
          headers: admin,
          payload: { ...input, capacity },
        });
      const left = async () =>
        (await t.app.inject({ method: 'GET', url: `/api/delivery-slots?date=${deliveryDate()}` }))
          .json()
          .data.slots.find((s: { slotID: number }) => s.slotID === 1)?.left;
      const asha = await createUserWithToken(t.app);
      // One place left on that date's Standard.
      expect((await cap((await bookedOn()) + 1)).statusCode).toBe(200);
      try {
        const id = await place(asha, { CouponCode: 'SAVE200', TotalAmount: 1200 + 150 - 200 });
        expect(await left()).toBe(0);
        expect((await cancel(asha, id)).statusCode).toBe(200);
        expect(await left()).toBe(1);
        const coupon = await t.app.inject({
          method: 'POST',
          url: '/api/VerifyCoupon',
          headers: asha.auth,
          payload: { code: 'SAVE200' },
        });
        expect(coupon.statusCode, coupon.body).toBe(200);
      } finally {
        await cap(null);
      }
    });

    it('a paid order is refunded in full once: with Razorpay (the double) and with the test provider', async () => {
      for (const [app, pay] of [
        [t.app, (id: string) => rzp.checkout(id)],
        [test.app, null],
      ] as const) {
        const asha = await createUserWithToken(app);
        const key = newKey();
        const body = orderRequest([{ product: cake }], { PaymentMethod: 'Razorpay' });
        const created = await app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...asha.auth, 'idempotency-key': key },
          payload: body,
        });
        expect(created.statusCode, created.body).toBe(200);
        const orderId = created.json().data.razorpayOrderId as string;
        const proof = pay
          ? pay(orderId)
          : (
              await app.inject({
                method: 'POST',
                url: '/api/payments/test/pay',
                headers: asha.auth,
                payload: { razorpay_order_id: orderId },
              })
            ).json().data;
        const placed = await app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...asha.auth, 'idempotency-key': key },
          payload: {
            ...body,
            RazorpayPaymentId: proof.razorpay_payment_id,
            RazorpayOrderId: proof.razorpay_order_id,
            RazorpaySignature: proof.razorpay_signature,
          },
        });
        expect(placed.statusCode, placed.body).toBe(200);
        const id = placed.json().data.orderID as number;
        const answers = await Promise.all([cancel(asha, id, newKey(), app), cancel(asha, id, newKey(), app)]);
        expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
        const rows = await refunds(id, app);
        expect(rows).toHaveLength(1);
        expect(Number(rows[0]?.amount_paise)).toBe(135_000);
        const after = await app.inject({ method: 'GET', url: `/api/my-orders/${id}`, headers: asha.auth });
        expect(after.json().data).toMatchObject({ status: 'cancelled', refunds: [{ amount: 1350 }] });
      }
    });

    async function bookedOn(): Promise<number> {
      const rows = await t.app.db
        .selectFrom('orders')
        .select(['id'])
        .where('delivery_date', '=', deliveryDate())
        .where('status', '!=', 'cancelled')
        .execute();
      return rows.length;
    }
  });
}
