/**
 * Delivery areas by pincode and the shop's settings on the server, on SQLite and PostgreSQL: the
 * spec's pincodes as the migration gives them, the admin's add, edit, remove and paste (admin
 * only, bad input refused with nothing written), place-order refusing a pincode outside the areas
 * or of another city and pricing the area's charge, slots and same-day delivery per pincode, the
 * feed carrying the areas and settings (a one-pincode change as a one-row delta, a removal as one
 * removed pincode), and settings saved through one process read by another at once.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoSlots } from '../../api/slots/slot.seed.js';
import type { CatalogueDelta } from '../../domain/catalogue.js';
import { areaMessages, type DeliveryArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { addDays, indiaClock, indiaInstant } from '../../domain/india-time.js';
import { DEFAULT_SETTINGS, settingMessages } from '../../domain/settings.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { freshDeviceSettings, freshSettings } from '../support/fresh-settings.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };
const MIDNIGHT = 6;
const byPincode = (a: { pincode: string }, b: { pincode: string }) => a.pincode.localeCompare(b.pincode);

for (const dialect of DIALECTS) {
  describe(`delivery areas on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      await seedDemoSlots(t.app.db, t.app.dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
      cake = await insertProduct(t.app, { title: `Area Cake ${dialect}`, price: 700 });
    });
    afterAll(async () => t.close());
    afterEach(() => vi.useRealTimers());

    const areas = async (app: FastifyInstance = t.app): Promise<DeliveryArea[]> => {
      const res = await app.inject({ method: 'GET', url: '/api/delivery-areas' });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const put = (pincode: string, payload: object, auth: Auth | null = admin) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/delivery-areas/${pincode}`,
        headers: auth ?? {},
        payload,
      });
    const remove = (pincode: string, auth: Auth | null = admin) =>
      t.app.inject({ method: 'DELETE', url: `/api/admin/delivery-areas/${pincode}`, headers: auth ?? {} });
    const paste = (lines: string, auth: Auth | null = admin) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/delivery-areas/import',
        headers: auth ?? {},
        payload: { lines },
      });
    const version = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('catalogue_state')
            .select('version')
            .where('id', '=', 1)
            .executeTakeFirstOrThrow()
        ).version,
      );
    const place = (body: object, auth: Auth = shopper) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: body,
      });
    const feed = async (since: string | null): Promise<CatalogueDelta> => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/sync/catalogue${since === null ? '' : `?since=${since}`}`,
      });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    /** A pincode's area as the migration gave it. */
    const seeded = (pincode: string): DeliveryArea => {
      const area = SEED_AREAS.find((a) => a.pincode === pincode);
      if (!area) throw new Error(`${pincode} is not in SEED_AREAS`);
      return area;
    };
    const mohaliArea: DeliveryArea = {
      pincode: '160062',
      city: 'Mohali',
      state: 'Punjab',
      charge: 150,
      slotIDs: null,
      sameDay: true,
    };

    it("lists the spec's pincodes, with their cities and charges, to anyone, by pincode", async () => {
      const list = await areas();
      expect(list).toEqual([...SEED_AREAS].sort(byPincode));
      expect(list).toHaveLength(39);
      expect(list.find((a) => a.pincode === '160062')).toEqual(mohaliArea);
      expect(list.find((a) => a.pincode === '134101')).toMatchObject({ city: 'Panchkula', charge: 300 });
    });

    it('lets only an admin change the areas or the settings: 401 logged out, 403 for a shopper', async () => {
      const body = { city: 'Delhi', state: 'Delhi', charge: 400 };
      const calls: [string, (auth: Auth | null) => Promise<{ statusCode: number; json(): unknown }>][] = [
        ['put', (auth) => put('110001', body, auth)],
        ['remove', (auth) => remove('160062', auth)],
        ['paste', (auth) => paste('110001,Delhi,Delhi,400', auth)],
        [
          'get settings',
          (auth) => t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: auth ?? {} }),
        ],
        [
          'change settings',
          (auth) =>
            t.app.inject({
              method: 'PUT',
              url: '/api/admin/settings',
              headers: auth ?? {},
              payload: { photoCakeNoticeDays: 3 },
            }),
        ],
      ];
      const before = await version();
      for (const [name, call] of calls) {
        expect((await call(null)).statusCode, `${name} logged out`).toBe(401);
        const refused = await call(shopper);
        expect(refused.statusCode, `${name} as a shopper`).toBe(403);
        expect(refused.json()).toMatchObject({ isSuccess: false });
      }
      expect(await areas()).toEqual([...SEED_AREAS].sort(byPincode));
      expect(await version()).toBe(before);
    });

    it('adds a pincode, edits its slots and same-day delivery, removes it, and adds it back', async () => {
      const added = await put('110001', { city: ' New Delhi ', state: 'Delhi', charge: 400 });
      expect(added.statusCode).toBe(200);
      const delhi = {
        pincode: '110001',
        city: 'New Delhi',
        state: 'Delhi',
        charge: 400,
        slotIDs: null,
        sameDay: true,
      };
      expect(added.json()).toEqual({
        isSuccess: true,
        data: delhi,
        sys_message: areaMessages.saved('110001'),
      });
      expect((await areas()).find((a) => a.pincode === '110001')).toEqual(delhi);

      const edited = await put('110001', {
        city: 'New Delhi',
        state: 'Delhi',
        charge: 450,
        slotIDs: [MIDNIGHT, 1, MIDNIGHT],
        sameDay: false,
      });
      expect(edited.statusCode).toBe(200);
      const delhiEdited = { ...delhi, charge: 450, slotIDs: [1, MIDNIGHT], sameDay: false };
      expect(edited.json().data).toEqual(delhiEdited);
      expect((await areas()).find((a) => a.pincode === '110001')).toEqual(delhiEdited);

      const removed = await remove('110001');
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({
        isSuccess: true,
        data: delhiEdited,
        sys_message: areaMessages.removed('110001'),
      });
      expect((await areas()).some((a) => a.pincode === '110001')).toBe(false);
      const again = await remove('110001');
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ isSuccess: false, data: null, sys_message: areaMessages.notFound });

      expect((await put('110001', { city: 'New Delhi', state: 'Delhi', charge: 400 })).statusCode).toBe(200);
      expect((await areas()).find((a) => a.pincode === '110001')).toEqual(delhi);
      expect((await remove('110001')).statusCode).toBe(200);
    });

    it('refuses bad input with a clear message and writes nothing', async () => {
      const before = await version();
      const good = { city: 'Delhi', state: 'Delhi', charge: 400 };
      const cases: [string, object, number, string][] = [
        ['012345', good, 400, areaMessages.pincodeInvalid],
        ['16006', good, 400, areaMessages.pincodeInvalid],
        ['16006a', good, 400, areaMessages.pincodeInvalid],
        ['110001', { ...good, charge: -1 }, 400, areaMessages.chargeInvalid],
        ['110001', { ...good, charge: 150.5 }, 400, areaMessages.chargeInvalid],
        ['110001', { ...good, charge: '150' }, 400, areaMessages.chargeInvalid],
        ['110001', { ...good, charge: 10_001 }, 400, areaMessages.chargeInvalid],
        ['110001', { ...good, city: '  ' }, 400, areaMessages.cityRequired],
        ['110001', { ...good, state: '' }, 400, areaMessages.stateRequired],
        ['110001', { ...good, slotIDs: [1, 999] }, 422, areaMessages.slotUnknown],
        ['110001', { ...good, slotIDs: [] }, 422, areaMessages.slotsNone],
      ];
      for (const [pincode, body, status, message] of cases) {
        const res = await put(pincode, body);
        expect(res.statusCode, `${pincode} ${JSON.stringify(body)}`).toBe(status);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
      }
      const absent = await remove('999999');
      expect(absent.statusCode).toBe(404);
      expect(absent.json().sys_message).toBe(areaMessages.notFound);
      expect((await remove('099999')).statusCode).toBe(400);
      expect(await areas()).toEqual([...SEED_AREAS].sort(byPincode));
      expect(await version()).toBe(before);
    });

    it('refuses a paste with a bad line, naming each, and saves none of its good lines', async () => {
      const before = await version();
      const res = await paste(
        [
          'pincode,city,state,charge',
          '110001,New Delhi,Delhi,400',
          '11000X,New Delhi,Delhi,400',
          '',
          '110003,New Delhi,Delhi,lots',
          '160062,Mohali,Punjab,175',
        ].join('\n'),
      );
      expect(res.statusCode).toBe(400);
      const errors = [
        areaMessages.pasteLine(3, areaMessages.pincodeInvalid),
        areaMessages.pasteLine(5, areaMessages.chargeInvalid),
      ];
      expect(res.json()).toEqual({
        isSuccess: false,
        data: { field: 'lines', errors },
        sys_message: areaMessages.pasteRefused(errors),
      });
      expect(res.json().sys_message).toMatch(/Line 3/);
      expect(await areas()).toEqual([...SEED_AREAS].sort(byPincode));
      expect(await version()).toBe(before);
      expect((await paste('   \n  ')).statusCode).toBe(400);
    });

    it('pastes new pincodes with every slot and same-day, and keeps the slots of ones it changes', async () => {
      expect(
        (await put('160071', { ...seeded('160071'), slotIDs: [MIDNIGHT], sameDay: false })).statusCode,
      ).toBe(200);
      const res = await paste(
        '110001, New Delhi, Delhi, ₹400\n160071,Mohali,Punjab,175\n160062,Mohali,Punjab,150',
      );
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(res.json().sys_message).toBe(areaMessages.pasted(1, 1));
      expect([data.added, data.changed]).toEqual([1, 1]);
      const list = await areas();
      expect(data.areas).toEqual(list);
      expect(list.find((a) => a.pincode === '110001')).toEqual({
        pincode: '110001',
        city: 'New Delhi',
        state: 'Delhi',
        charge: 400,
        slotIDs: null,
        sameDay: true,
      });
      expect(list.find((a) => a.pincode === '160071')).toEqual({
        ...seeded('160071'),
        charge: 175,
        slotIDs: [MIDNIGHT],
        sameDay: false,
      });
      expect((await remove('110001')).statusCode).toBe(200);
      expect((await put('160071', seeded('160071'))).statusCode).toBe(200);
      expect(await areas()).toEqual([...SEED_AREAS].sort(byPincode));
    });

    it("refuses an order to a pincode outside the areas or of another city, with the area's names", async () => {
      const outside = await place(
        orderRequest([{ product: cake }], { State: 'Delhi', City: 'New Delhi', CustomerPincode: '110001' }),
      );
      expect(outside.statusCode).toBe(422);
      expect(outside.json()).toEqual({
        isSuccess: false,
        data: { reason: 'undeliverable', pincode: '110001' },
        sys_message: "We don't deliver to 110001 yet.",
      });
      // Panchkula's pincode with Mohali's city and state.
      const elsewhere = await place(orderRequest([{ product: cake }], { CustomerPincode: '134101' }));
      expect(elsewhere.statusCode).toBe(422);
      expect(elsewhere.json()).toEqual({
        isSuccess: false,
        data: { reason: 'pincode-mismatch', pincode: '134101', city: 'Panchkula', state: 'Haryana' },
        sys_message:
          'Pincode 134101 is in Panchkula, Haryana. Check the pincode, or change the city to Panchkula.',
      });
      // A pincode the admin removed is refused from then on, in the same words.
      expect((await remove('140308')).statusCode).toBe(200);
      const gone = await place(orderRequest([{ product: cake }], { CustomerPincode: '140308' }));
      expect(gone.statusCode).toBe(422);
      expect(gone.json().sys_message).toBe(areaMessages.outside('140308'));
      expect((await put('140308', seeded('140308'))).statusCode).toBe(200);
      expect((await place(orderRequest([{ product: cake }], { CustomerPincode: '140308' }))).statusCode).toBe(
        200,
      );
    });

    it("charges the area's delivery charge, and the new one once the admin changes it", async () => {
      const first = await place(orderRequest([{ product: cake }]));
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ deliveryCharge: 150, totalAmount: 850 });
      try {
        expect((await put('160062', { ...mohaliArea, charge: 180 })).statusCode).toBe(200);
        const stale = await place(orderRequest([{ product: cake }]));
        expect(stale.statusCode).toBe(409);
        expect(stale.json().data).toMatchObject({
          reason: 'repriced',
          deliveryCharge: 180,
          total: { old: 850, new: 880 },
        });
        const fresh = await place(orderRequest([{ product: cake }], { TotalAmount: 880 }));
        expect(fresh.statusCode).toBe(200);
        expect(fresh.json().data).toMatchObject({ deliveryCharge: 180, totalAmount: 880 });
        // Another pincode of the same city keeps its own charge.
        const other = await place(orderRequest([{ product: cake }], { CustomerPincode: '160055' }));
        expect(other.json().data).toMatchObject({ deliveryCharge: 150 });
      } finally {
        await put('160062', mohaliArea);
      }
    });

    it('offers a pincode only its slots, and today only where it has same-day delivery', async () => {
      const today = indiaClock(new Date()).date;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(indiaInstant(today, 10 * 60));
      try {
        expect(
          (await put('160059', { ...seeded('160059'), slotIDs: [MIDNIGHT], sameDay: false })).statusCode,
        ).toBe(200);
        const day = addDays(today, 2);
        const standard = await place(
          orderRequest([{ product: cake }], { CustomerPincode: '160059', DeliveryDate: day }),
        );
        expect(standard.statusCode).toBe(422);
        expect(standard.json()).toEqual({
          isSuccess: false,
          data: { reason: 'slot-not-here', pincode: '160059', slotID: 1 },
          sys_message: areaMessages.slotNotHere('Standard', '160059'),
        });
        const midnight = (DeliveryDate: string) =>
          orderRequest([{ product: cake }], {
            CustomerPincode: '160059',
            DeliveryDate,
            DeliverySlotID: MIDNIGHT,
            TotalAmount: 700 + 150 + 250,
          });
        expect((await place(midnight(day))).statusCode).toBe(200);
        // Today is open at 10 AM for Midnight, but not at this pincode.
        const todays = await place(midnight(today));
        expect(todays.statusCode).toBe(422);
        expect(todays.json()).toMatchObject({
          isSuccess: false,
          data: { reason: 'delivery-date', earliestDeliveryDate: addDays(today, 1) },
          sys_message: areaMessages.noSameDay('160059'),
        });
        // Elsewhere, the same order for today goes.
        const nearby = await place({ ...midnight(today), CustomerPincode: '160055' });
        expect(nearby.statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
        await put('160059', seeded('160059'));
      }
    });

    it('sends the areas and settings whole on a full snapshot, then only the pincode or setting that changed', async () => {
      const full = await feed(null);
      expect(full.full).toBe(true);
      expect(full.areas).toEqual([...SEED_AREAS].sort(byPincode));
      const deviceDefaults = await freshDeviceSettings();
      expect(full.settings).toEqual(deviceDefaults);
      expect(full.deletedPincodes).toBeUndefined();
      const cursor = full.cursor;

      const changed = { ...seeded('160055'), charge: 160 };
      expect((await put('160055', changed)).statusCode).toBe(200);
      const one = await feed(cursor);
      expect(one.full).toBe(false);
      expect(one.areas).toEqual([changed]);
      expect(one.products).toEqual([]);
      expect(one.categories).toEqual([]);
      expect(one).not.toHaveProperty('deletedPincodes');
      expect(one).not.toHaveProperty('settings');
      expect(one).not.toHaveProperty('slots');

      expect((await remove('160055')).statusCode).toBe(200);
      const removal = await feed(one.cursor);
      expect(removal.deletedPincodes).toEqual(['160055']);
      expect(removal).not.toHaveProperty('areas');
      expect(removal.products).toEqual([]);
      // A device that missed both gets the removal only.
      const both = await feed(cursor);
      expect(both.deletedPincodes).toEqual(['160055']);
      expect(both).not.toHaveProperty('areas');

      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin,
        payload: { photoCakeNoticeDays: 2 },
      });
      expect(saved.statusCode).toBe(200);
      const setting = await feed(removal.cursor);
      expect(setting.settings).toEqual({ photoCakeNoticeDays: 2 });
      expect(setting).not.toHaveProperty('areas');
      expect(setting).not.toHaveProperty('deletedPincodes');
      expect(setting.products).toEqual([]);
      const again = await feed(null);
      expect(again.settings).toEqual({ ...deviceDefaults, photoCakeNoticeDays: 2 });
      expect(again.areas?.some((a) => a.pincode === '160055')).toBe(false);
      expect(again.deletedPincodes).toBeUndefined();

      // Nothing changed since: the delta carries none of them.
      const quiet = await feed(setting.cursor);
      expect(quiet).not.toHaveProperty('areas');
      expect(quiet).not.toHaveProperty('settings');

      expect((await put('160055', seeded('160055'))).statusCode).toBe(200);
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin,
        payload: { photoCakeNoticeDays: DEFAULT_SETTINGS.photoCakeNoticeDays },
      });
    });

    it('saves settings through one process that a second one on the same database reads at once', async () => {
      const fresh = await freshSettings();
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        const read = async (app: FastifyInstance) => {
          const res = await app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
          expect(res.statusCode).toBe(200);
          return res.json().data;
        };
        const change = (app: FastifyInstance, payload: unknown) =>
          app.inject({
            method: 'PUT',
            url: '/api/admin/settings',
            headers: admin,
            payload: payload as object,
          });
        expect(await read(second)).toEqual(fresh);

        const saved = await change(t.app, { photoCakeNoticeDays: 3 });
        expect(saved.json()).toEqual({
          isSuccess: true,
          data: { ...fresh, photoCakeNoticeDays: 3 },
          sys_message: settingMessages.saved,
        });
        expect(await read(second)).toEqual({ ...fresh, photoCakeNoticeDays: 3 });
        expect((await change(second, { photoCakeNoticeDays: 0 })).statusCode).toBe(200);
        expect(await read(t.app)).toEqual({ ...fresh, photoCakeNoticeDays: 0 });
        // An area changed by one process is priced by the other on its next order.
        expect((await put('160061', { ...seeded('160061'), charge: 155 })).statusCode).toBe(200);
        const order = await second.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...shopper, 'idempotency-key': newKey() },
          payload: orderRequest([{ product: cake }], { CustomerPincode: '160061', TotalAmount: 855 }),
        });
        expect(order.statusCode).toBe(200);
        expect(order.json().data.deliveryCharge).toBe(155);

        const bad: [unknown, string][] = [
          [{ photoCakeNoticeDays: 8 }, settingMessages.photoCakeNoticeDays],
          [{ photoCakeNoticeDays: 1.5 }, settingMessages.photoCakeNoticeDays],
          [{ photoCakeNoticeDays: '2' }, settingMessages.photoCakeNoticeDays],
          [{}, settingMessages.empty],
        ];
        for (const [payload, message] of bad) {
          const res = await change(t.app, payload);
          expect(res.statusCode, JSON.stringify(payload)).toBe(400);
          expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
        }
        const unknown = await change(t.app, { photoCakeNoticeDays: 1, openOnSundays: true });
        expect(unknown.statusCode).toBe(400);
        expect(await read(second)).toEqual({ ...fresh, photoCakeNoticeDays: 0 });
      } finally {
        await second.close();
        await put('160061', seeded('160061'));
        await t.app.inject({
          method: 'PUT',
          url: '/api/admin/settings',
          headers: admin,
          payload: { photoCakeNoticeDays: DEFAULT_SETTINGS.photoCakeNoticeDays },
        });
      }
    });

    it('describes the new endpoints in /api/docs', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      const paths = Object.keys(res.json().paths);
      expect(paths).toEqual(
        expect.arrayContaining([
          '/api/delivery-areas',
          '/api/admin/delivery-areas/{pincode}',
          '/api/admin/delivery-areas/import',
          '/api/admin/settings',
        ]),
      );
      const ops = res.json().paths['/api/admin/delivery-areas/{pincode}'];
      expect(Object.keys(ops).sort()).toEqual(['delete', 'put']);
      expect(Object.keys(ops.put.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '422']),
      );
    });
  });
}
