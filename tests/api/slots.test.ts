import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoSlots } from '../../api/slots/slot.seed.js';
import { addDays, indiaClock, indiaInstant } from '../../domain/india-time.js';
import type { SlotAvailability } from '../../domain/slots.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * Delivery slots on the server (issue 25), on SQLite and PostgreSQL: the public
 * look at a date, the price of a slot, each cut-off with the clock frozen a
 * minute before and at it (India time, whatever the zone), closed dates, full
 * slots, the race for the last place, and the admin's endpoints. Only `Date`
 * is frozen: the database drivers' timers run as usual.
 */
type Auth = { authorization: string };
const hm = (h: number, m = 0) => h * 60 + m;
const MIDNIGHT = 6;
const EVENING = 4;

for (const dialect of DIALECTS) {
  describe(`delivery slots on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;
    const today = indiaClock(new Date()).date;
    const d = (n: number) => addDays(today, n);

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      await seedDemoSlots(t.app.db, t.app.dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { title: `Slot Cake ${dialect}`, price: 700 });
    });
    afterAll(async () => t.close());
    afterEach(() => vi.useRealTimers());

    /** Freezes the clock at `minute` (India) of `date`. */
    const freeze = (date: string, minute: number) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(indiaInstant(date, minute));
    };
    const slotsOf = async (date: string): Promise<SlotAvailability[]> => {
      const res = await t.app.inject({ method: 'GET', url: `/api/delivery-slots?date=${date}` });
      expect(res.statusCode).toBe(200);
      return res.json().data.slots;
    };
    const stateOf = async (date: string, name: string) => (await slotsOf(date)).find((s) => s.name === name);
    const shopper = async () => (await createUserWithToken(t.app)).auth;
    const place = (body: object, auth: Auth) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: body,
      });
    /** A Mohali order (₹150 delivery) for `date` in `slot` at `surcharge`, priced as the shopper saw it. */
    const order = (date: string, slot: number | null, surcharge: number) =>
      orderRequest([{ product: cake }], {
        DeliveryDate: date,
        ...(slot ? { DeliverySlotID: slot } : {}),
        TotalAmount: 700 + 150 + surcharge,
      });

    it("answers a date's slots with times, surcharges and places left, to anyone", async () => {
      const slots = await slotsOf(d(2));
      expect(slots.map((s) => [s.name, s.start, s.end, s.surcharge, s.state, s.left])).toEqual([
        ['Standard', hm(10), hm(21), 0, 'open', null],
        ['Morning', hm(9), hm(12), 100, 'open', 15],
        ['Afternoon', hm(12), hm(15), 100, 'open', 15],
        ['Evening', hm(15), hm(18), 100, 'open', 15],
        ['Night', hm(18), hm(21), 100, 'open', 15],
        ['Midnight', hm(23), hm(24), 250, 'open', 10],
      ]);
      const bad = await t.app.inject({ method: 'GET', url: '/api/delivery-slots?date=2026-02-30' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        isSuccess: false,
        sys_message: expect.stringMatching(/YYYY-MM-DD/),
      });
    });

    it('closes each slot at its cut-off, India time: 6 PM Standard, 9 PM Midnight, 3 hours before each window', async () => {
      const day = d(1);
      const table: [string, number][] = [
        ['Standard', hm(18)],
        ['Morning', hm(6)],
        ['Afternoon', hm(9)],
        ['Evening', hm(12)],
        ['Night', hm(15)],
        ['Midnight', hm(21)],
      ];
      for (const [name, cutoff] of table) {
        freeze(day, cutoff - 1);
        expect((await stateOf(day, name))?.state, `${name} a minute before`).toBe('open');
        freeze(day, cutoff);
        expect((await stateOf(day, name))?.state, `${name} at its cut-off`).toBe('past');
      }
    });

    it('takes a Standard order (no slot named) at 17:59 and refuses it at 18:00, offering Midnight that night', async () => {
      const day = d(1);
      freeze(day, hm(17, 59));
      const before = await place(order(day, null, 0), await shopper());
      expect(before.statusCode).toBe(200);
      expect(before.json().data).toMatchObject({
        deliverySlot: { name: 'Standard', start: hm(10), end: hm(21) },
        slotCharge: 0,
        totalAmount: 850,
      });
      freeze(day, hm(18));
      const after = await place(order(day, null, 0), await shopper());
      expect(after.statusCode).toBe(409);
      const data = after.json().data;
      expect(data).toMatchObject({ reason: 'slot', problem: 'past', date: day, slotID: 1 });
      expect(data.next[0]).toMatchObject({ date: day, name: 'Midnight', surcharge: 250 });
      expect(after.json().sys_message).toMatch(/Standard slot on .* can no longer be booked/);
    });

    it('prices Midnight at ₹250 from the database, and takes it until 20:59, not at 21:00', async () => {
      const day = d(1);
      freeze(day, hm(20, 59));
      const unpriced = await place(order(day, MIDNIGHT, 0), await shopper());
      expect(unpriced.statusCode).toBe(409);
      expect(unpriced.json().data).toMatchObject({
        reason: 'repriced',
        slotCharge: 250,
        total: { old: 850, new: 1100 },
      });
      const placed = await place(order(day, MIDNIGHT, 250), await shopper());
      expect(placed.statusCode).toBe(200);
      expect(placed.json().data).toMatchObject({
        deliverySlot: { slotID: MIDNIGHT, name: 'Midnight', start: hm(23), end: hm(24) },
        slotCharge: 250,
        deliveryCharge: 150,
        totalAmount: 1100,
      });
      freeze(day, hm(21));
      const late = await place(order(day, MIDNIGHT, 250), await shopper());
      expect(late.statusCode).toBe(409);
      expect(late.json().data).toMatchObject({ reason: 'slot', problem: 'past' });
      expect(late.json().data.next[0]).toMatchObject({ date: d(2), name: 'Standard' });
    });

    it('takes a window until 3 hours before it starts', async () => {
      const day = d(1);
      freeze(day, hm(11, 59));
      expect((await place(order(day, EVENING, 100), await shopper())).statusCode).toBe(200);
      freeze(day, hm(12));
      const late = await place(order(day, EVENING, 100), await shopper());
      expect(late.statusCode).toBe(409);
      expect(late.json().data.problem).toBe('past');
    });

    it('refuses a closed date with its message, and takes orders again once reopened', async () => {
      const day = d(3);
      const close = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/closed-dates/${day}`,
        headers: admin,
        payload: { message: 'Closed for Diwali' },
      });
      expect(close.statusCode).toBe(200);
      expect((await slotsOf(day)).every((s) => s.state === 'closed')).toBe(true);
      const refused = await place(order(day, null, 0), await shopper());
      expect(refused.statusCode).toBe(409);
      expect(refused.json().sys_message).toMatch(/closed on .*: Closed for Diwali/);
      expect(refused.json().data).toMatchObject({ reason: 'slot', problem: 'closed' });
      expect(refused.json().data.next.every((o: { date: string }) => o.date !== day)).toBe(true);
      const open = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/closed-dates/${day}`,
        headers: admin,
      });
      expect(open.statusCode).toBe(200);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/closed-dates/${day}`,
        headers: admin,
      });
      expect(again.statusCode).toBe(404);
      expect((await place(order(day, null, 0), await shopper())).statusCode).toBe(200);
    });

    it('refuses a full slot with the slots as they now stand, and the next free ones', async () => {
      const day = d(4);
      const slots = (
        await t.app.inject({ method: 'GET', url: '/api/admin/delivery-slots', headers: admin })
      ).json().data.slots;
      const evening = slots.find((s: { slotID: number }) => s.slotID === EVENING);
      const { slotID: _id, isDefault: _d, retired: _r, ...input } = evening;
      const edit = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/delivery-slots/${EVENING}`,
        headers: admin,
        payload: { ...input, capacity: 1 },
      });
      expect(edit.statusCode).toBe(200);
      expect((await place(order(day, EVENING, 100), await shopper())).statusCode).toBe(200);
      const full = await place(order(day, EVENING, 100), await shopper());
      expect(full.statusCode).toBe(409);
      expect(full.json().sys_message).toMatch(/Evening slot on .* is full/);
      const data = full.json().data;
      expect(data.slots.find((s: SlotAvailability) => s.slotID === EVENING)).toMatchObject({
        state: 'full',
        left: 0,
      });
      expect(
        data.next.some((o: { date: string; slotID: number }) => o.date === day && o.slotID === EVENING),
      ).toBe(false);
      expect((await stateOf(day, 'Evening'))?.left).toBe(0);
      await t.app.inject({
        method: 'PUT',
        url: `/api/admin/delivery-slots/${EVENING}`,
        headers: admin,
        payload: { ...input, capacity: 15 },
      });
    });

    it('gives the last midnight place to exactly one of 8 shoppers at once; the others get 409 and the slots as they stand', async () => {
      const day = d(5);
      const slots = (
        await t.app.inject({ method: 'GET', url: '/api/admin/delivery-slots', headers: admin })
      ).json().data.slots;
      const {
        slotID: _id,
        isDefault: _d,
        retired: _r,
        ...input
      } = slots.find((s: { slotID: number }) => s.slotID === MIDNIGHT);
      await t.app.inject({
        method: 'PUT',
        url: `/api/admin/delivery-slots/${MIDNIGHT}`,
        headers: admin,
        payload: { ...input, capacity: 1 },
      });
      const shoppers = await Promise.all(Array.from({ length: 8 }, () => shopper()));
      const answers = await Promise.all(shoppers.map((auth) => place(order(day, MIDNIGHT, 250), auth)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) {
        const data = refused.json().data;
        expect(data).toMatchObject({ reason: 'slot', problem: 'full', date: day, slotID: MIDNIGHT });
        expect(data.slots.find((s: SlotAvailability) => s.slotID === MIDNIGHT)).toMatchObject({
          state: 'full',
          left: 0,
        });
      }
      const booked = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('delivery_date', '=', day)
        .where('slot_id', '=', MIDNIGHT)
        .execute();
      expect(booked).toHaveLength(1);
      await t.app.inject({
        method: 'PUT',
        url: `/api/admin/delivery-slots/${MIDNIGHT}`,
        headers: admin,
        payload: { ...input, capacity: 10 },
      });
    });

    it('refuses an unknown slot (400) and a retired one (409); Standard cannot be retired', async () => {
      const unknown = await place(order(d(2), 999, 0), await shopper());
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ data: { reason: 'slot', problem: 'unknown' } });
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/admin/delivery-slots',
        headers: admin,
        payload: {
          name: 'Early bird',
          start: hm(7),
          end: hm(9),
          surcharge: 150,
          cutoff: -hm(2),
          capacity: 5,
          weekdays: [1, 2, 3, 4, 5, 3],
        },
      });
      expect(added.statusCode).toBe(201);
      const slot = added.json().data;
      expect(slot).toMatchObject({
        name: 'Early bird',
        weekdays: [1, 2, 3, 4, 5],
        retired: false,
        isDefault: false,
      });
      const retired = await t.app.inject({
        method: 'POST',
        url: `/api/admin/delivery-slots/${slot.slotID}/retire`,
        headers: admin,
      });
      expect(retired.json().data.retired).toBe(true);
      expect((await slotsOf(d(2))).some((s) => s.slotID === slot.slotID)).toBe(false);
      const refused = await place(order(d(2), slot.slotID, 150), await shopper());
      expect(refused.statusCode).toBe(409);
      expect(refused.json().data.problem).toBe('retired');
      const standard = await t.app.inject({
        method: 'POST',
        url: '/api/admin/delivery-slots/1/retire',
        headers: admin,
      });
      expect(standard.statusCode).toBe(409);
      expect(standard.json().sys_message).toMatch(/cannot be retired/);
      const restore = await t.app.inject({
        method: 'POST',
        url: `/api/admin/delivery-slots/${slot.slotID}/restore`,
        headers: admin,
      });
      expect(restore.json().data.retired).toBe(false);
      await t.app.inject({
        method: 'POST',
        url: `/api/admin/delivery-slots/${slot.slotID}/retire`,
        headers: admin,
      });
    });

    it("refuses bad slot input with the field's message, shoppers with 403, no token with 401", async () => {
      const base = {
        name: 'X',
        start: hm(10),
        end: hm(12),
        surcharge: 0,
        cutoff: hm(8),
        capacity: null,
        weekdays: [0],
      };
      const cases: [object, RegExp][] = [
        [{ end: hm(9) }, /end must be after the start/],
        [{ name: ' ' }, /slot name/],
        [{ surcharge: -1 }, /surcharge must be 0 or more/],
        [{ weekdays: [] }, /at least one weekday/],
        [{ start: 1440 }, /start must be between/],
        [{ cutoff: -20_000 }, /7 days before/],
      ];
      for (const [override, message] of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/delivery-slots',
          headers: admin,
          payload: { ...base, ...override },
        });
        expect(res.statusCode, String(message)).toBe(400);
        expect(res.json().sys_message).toMatch(message);
      }
      const asShopper = await t.app.inject({
        method: 'POST',
        url: '/api/admin/delivery-slots',
        headers: await shopper(),
        payload: base,
      });
      expect(asShopper.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/delivery-slots' });
      expect(anonymous.statusCode).toBe(401);
      const missing = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/delivery-slots/9999',
        headers: admin,
        payload: base,
      });
      expect(missing.statusCode).toBe(404);
      const noMessage = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/closed-dates/${d(9)}`,
        headers: admin,
        payload: { message: '' },
      });
      expect(noMessage.statusCode).toBe(400);
    });

    it('sends the slots and closed dates with the catalogue feed, and a slot change moves its ETag', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/api/sync/catalogue' });
      expect(first.json().data.slots.map((s: { name: string }) => s.name)).toContain('Midnight');
      expect(Array.isArray(first.json().data.closedDates)).toBe(true);
      const etag = String(first.headers.etag);
      await t.app.inject({
        method: 'PUT',
        url: `/api/admin/closed-dates/${d(20)}`,
        headers: admin,
        payload: { message: 'Closed for Holi' },
      });
      const next = await t.app.inject({
        method: 'GET',
        url: '/api/sync/catalogue',
        headers: { 'if-none-match': etag },
      });
      expect(next.statusCode).toBe(200);
      expect(next.json().data.closedDates).toContainEqual({ date: d(20), message: 'Closed for Holi' });
    });

    it("filters the admin's orders by delivery date and slot, sorts them for packing, and counts the dashboard's deliveries", async () => {
      const day = d(1);
      freeze(today, hm(8));
      const ids: number[] = [];
      for (const [slot, surcharge] of [
        [MIDNIGHT, 250],
        [2, 100],
        [null, 0],
      ] as const) {
        const res = await place(order(day, slot, surcharge), await shopper());
        expect(res.statusCode).toBe(200);
        ids.push(res.json().data.orderID);
      }
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders?deliveryDate=${day}&sort=slot&pageSize=100`,
        headers: admin,
      });
      const names = list
        .json()
        .data.items.map((o: { deliverySlot: { name: string } }) => o.deliverySlot.name);
      // Slot order: by the window's start (Morning 9, Standard 10, ... Midnight 23).
      expect(names.indexOf('Morning')).toBeLessThan(names.indexOf('Standard'));
      expect(names.indexOf('Standard')).toBeLessThan(names.indexOf('Midnight'));
      const midnight = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders?deliveryDate=${day}&slotId=${MIDNIGHT}`,
        headers: admin,
      });
      const items = midnight.json().data.items;
      expect(items.length).toBeGreaterThan(0);
      expect(
        items.every(
          (o: { deliverySlot: { slotID: number }; slotCharge: number }) =>
            o.deliverySlot.slotID === MIDNIGHT && o.slotCharge === 250,
        ),
      ).toBe(true);
      const dash = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin })).json()
        .data;
      const tomorrow = dash.deliveries.find((x: { date: string }) => x.date === day);
      const counted = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('delivery_date', '=', day)
        .where('slot_id', '=', MIDNIGHT)
        .where('status', '!=', 'cancelled')
        .execute();
      expect(tomorrow.slots.find((s: { slotID: number }) => s.slotID === MIDNIGHT)).toMatchObject({
        booked: counted.length,
        capacity: 10,
      });
      expect(dash.deliveries.map((x: { date: string }) => x.date)).toEqual([today, day]);
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${ids[0]}`,
        headers: admin,
      });
      expect(detail.json().data).toMatchObject({ deliverySlot: { name: 'Midnight' }, slotCharge: 250 });
      const badFilter = await t.app.inject({
        method: 'GET',
        url: '/api/admin/orders?sort=price',
        headers: admin,
      });
      expect(badFilter.statusCode).toBe(400);
    });
  });
}
