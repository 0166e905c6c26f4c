import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSlots } from '../../api/slots/slot.seed.js';
import { addDays, indiaClock } from '../../domain/india-time.js';
import type { SlotAvailability } from '../../domain/slots.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * One account cannot hoard a capped slot (a burst of Cash on Delivery orders took all 10 Midnight
 * places of a date): at most `MAX_UNPAID_PER_SLOT` (2) unpaid orders per account, slot and date,
 * counted under the slot's lock; paid orders go beyond it. `place-order` is rate-limited per
 * account and per address (replays of a key are free), and the admin cancels an account's unpaid
 * open orders in one step, which gives the places back. Both databases.
 */
type Auth = { authorization: string };
const MIDNIGHT = 6;
const MIDNIGHT_CHARGE = 250;

for (const dialect of DIALECTS) {
  describe(`slot hoarding on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;
    const today = indiaClock(new Date()).date;
    const d = (n: number) => addDays(today, n);
    /** Each test's requests come from an address of their own, so the per-address budget is theirs. */
    let address = 0;
    const nextAddress = () => `10.36.4.${++address}`;

    beforeAll(async () => {
      t = await makeTestApp(dialect, { testPayments: true });
      await seedDemoSlots(t.app.db, t.app.dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { title: `Hoard Cake ${dialect}`, price: 700 });
    });
    afterAll(async () => t.close());

    const place = (body: object, auth: Auth, from: string, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
        remoteAddress: from,
      });
    const midnight = (date: string, extra: object = {}) =>
      orderRequest([{ product: cake }], {
        DeliveryDate: date,
        DeliverySlotID: MIDNIGHT,
        TotalAmount: 700 + 150 + MIDNIGHT_CHARGE,
        ...extra,
      });
    const standard = (date: string) => orderRequest([{ product: cake }], { DeliveryDate: date });
    const midnightLeft = async (date: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/delivery-slots?date=${date}` });
      return (res.json().data.slots as SlotAvailability[]).find((s) => s.slotID === MIDNIGHT)?.left;
    };
    /** Pays through the local test provider, then places the order (the online way). */
    const placePaid = async (body: object, auth: Auth, from: string) => {
      const key = newKey();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
        remoteAddress: from,
      });
      expect(created.statusCode).toBe(200);
      const pay = await t.app.inject({
        method: 'POST',
        url: '/api/payments/test/pay',
        headers: auth,
        payload: { razorpay_order_id: created.json().data.razorpayOrderId },
      });
      const proof = pay.json().data;
      return place(
        {
          ...body,
          RazorpayPaymentId: proof.razorpay_payment_id,
          RazorpayOrderId: proof.razorpay_order_id,
          RazorpaySignature: proof.razorpay_signature,
        },
        auth,
        from,
        key,
      );
    };

    it('gives a burst of 12 Cash on Delivery orders from one account 2 Midnight places; a paid one still goes', async () => {
      const day = d(5);
      const from = nextAddress();
      const hoarder = await createUserWithToken(t.app);
      expect(await midnightLeft(day)).toBe(10);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => place(midnight(day), hoarder.auth, from)),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 200, ...Array(10).fill(409)]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) {
        const body = refused.json();
        expect(body.isSuccess).toBe(false);
        expect(body.sys_message).toMatch(/already have 2 unpaid orders in the Midnight slot/);
        expect(body.data).toMatchObject({
          reason: 'slot',
          problem: 'account-limit',
          date: day,
          slotID: MIDNIGHT,
        });
        // The refused slot is not offered back to this account for that date.
        expect(
          body.data.next.some(
            (o: { date: string; slotID: number }) => o.date === day && o.slotID === MIDNIGHT,
          ),
        ).toBe(false);
      }
      expect(await midnightLeft(day)).toBe(8);

      // Another shopper still gets a place, and the hoarder can pay online for a third (a gift).
      const other = await createUserWithToken(t.app);
      expect((await place(midnight(day), other.auth, nextAddress())).statusCode).toBe(200);
      const paid = await placePaid(midnight(day, { PaymentMethod: 'Razorpay' }), hoarder.auth, from);
      expect(paid.statusCode).toBe(200);
      expect(paid.json().data.status).toBe('paid');
      expect(await midnightLeft(day)).toBe(6);
      // Another date, or an uncapped slot, is not held against the account.
      expect((await place(midnight(d(6)), hoarder.auth, from)).statusCode).toBe(200);
      expect((await place(standard(day), hoarder.auth, from)).statusCode).toBe(200);
    });

    it('limits place-order to 20 a minute per account (429 with Retry-After); replays of a key are not counted', async () => {
      const from = nextAddress();
      const shopper = await createUserWithToken(t.app);
      const keys = Array.from({ length: 20 }, () => newKey());
      for (const key of keys)
        expect((await place(standard(d(3)), shopper.auth, from, key)).statusCode).toBe(200);
      // A phone resending its queued order after a lost answer: the stored answer, every time.
      for (let i = 0; i < 5; i++) {
        const replay = await place(standard(d(3)), shopper.auth, from, keys[0]);
        expect(replay.statusCode).toBe(200);
        expect(replay.headers['idempotent-replayed']).toBe('true');
      }
      const refused = await place(standard(d(3)), shopper.auth, from);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({ isSuccess: false, data: null });
      expect(refused.json().sys_message).toMatch(/Too many orders/);
      // Another account on another address is not held up by it.
      expect(
        (await place(standard(d(3)), (await createUserWithToken(t.app)).auth, nextAddress())).statusCode,
      ).toBe(200);
      const placed = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', shopper.id)
        .execute();
      expect(placed).toHaveLength(20);
    });

    it('limits place-order to 60 a minute per address, whatever the account', async () => {
      const from = nextAddress();
      const accounts = await Promise.all(Array.from({ length: 3 }, () => createUserWithToken(t.app)));
      const fourth = await createUserWithToken(t.app);
      let accepted = 0;
      for (const account of accounts)
        for (let i = 0; i < 20; i++)
          if ((await place(standard(d(4)), account.auth, from)).statusCode === 200) accepted++;
      expect(accepted).toBe(60);
      const refused = await place(standard(d(4)), fourth.auth, from);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // The same account from another address goes.
      expect((await place(standard(d(4)), fourth.auth, nextAddress())).statusCode).toBe(200);
    });

    it("cancels an account's unpaid open orders in one step: places back, paid ones kept, admin only", async () => {
      const day = d(7);
      const from = nextAddress();
      const hoarder = await createUserWithToken(t.app);
      const first = await place(midnight(day), hoarder.auth, from);
      expect(first.statusCode).toBe(200);
      expect((await place(midnight(day), hoarder.auth, from)).statusCode).toBe(200);
      expect((await place(standard(day), hoarder.auth, from)).statusCode).toBe(200);
      const paid = await placePaid(midnight(day, { PaymentMethod: 'Razorpay' }), hoarder.auth, from);
      expect(paid.statusCode).toBe(200);
      expect(await midnightLeft(day)).toBe(7);

      const orderID = first.json().data.orderID;
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${orderID}`,
        headers: admin,
      });
      // Three unpaid orders, all for one date: the hoarding the one-step cancel is for.
      expect(detail.json().data).toMatchObject({
        userID: hoarder.id,
        accountUnpaidOpen: 3,
        accountUnpaidOnOneDate: 3,
      });
      // The orders list searched by the account's exact email names the account and its count; a
      // part of the email, an order id or a stranger's email names none.
      const search = async (q: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/admin/orders?q=${encodeURIComponent(q)}`,
            headers: admin,
          })
        ).json().data;
      const listed = await search(` ${hoarder.email.toUpperCase()} `);
      expect(listed.total).toBe(4);
      expect(listed.account).toEqual({
        userID: hoarder.id,
        email: hoarder.email,
        unpaidOpen: 3,
        unpaidOnOneDate: 3,
      });
      expect((await search(hoarder.email.slice(0, 8))).account).toBeNull();
      expect((await search(String(orderID))).account).toBeNull();
      expect((await search('nobody@example.test')).account).toBeNull();

      const cancel = (payload: unknown, headers: Record<string, string> = admin) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/orders/cancel-unpaid',
          headers,
          payload: payload as object,
        });
      expect((await cancel({ userID: hoarder.id }, hoarder.auth)).statusCode).toBe(403);
      expect((await cancel({ userID: hoarder.id }, {})).statusCode).toBe(401);
      const bad = await cancel({ userID: 'everyone' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().sys_message).toMatch(/positive whole number/);
      expect((await cancel({})).statusCode).toBe(400);
      expect((await cancel({ userID: hoarder.id, note: 'x'.repeat(501) })).statusCode).toBe(400);
      const unknown = await cancel({ userID: 999_999 });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().sys_message).toBe('Account 999999 was not found.');

      const done = await cancel({ userID: hoarder.id, note: 'Held Midnight places without paying' });
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toMatchObject({ userID: hoarder.id, cancelled: 3 });
      expect(done.json().sys_message).toBe('3 orders cancelled.');
      // The places are back; the paid order keeps its own.
      expect(await midnightLeft(day)).toBe(9);
      const rows = await t.app.db
        .selectFrom('orders')
        .select(['id', 'status'])
        .where('user_id', '=', hoarder.id)
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'paid']);
      // Each went through the single cancel's move: its timeline row, with the admin's note.
      const history = await t.app.db
        .selectFrom('order_status_history')
        .select(['order_id', 'to_status', 'note'])
        .where('order_id', 'in', done.json().data.orderIDs)
        .execute();
      expect(history).toHaveLength(3);
      expect(
        history.every((h) => h.to_status === 'cancelled' && h.note === 'Held Midnight places without paying'),
      ).toBe(true);
      // Nothing left to cancel: a second call cancels none, and the account may book again.
      const again = await cancel({ userID: hoarder.id });
      expect(again.json().data.cancelled).toBe(0);
      expect((await search(hoarder.email)).account).toMatchObject({ unpaidOpen: 0, unpaidOnOneDate: 0 });
      expect((await place(midnight(day), hoarder.auth, from)).statusCode).toBe(200);
    });
  });
}
