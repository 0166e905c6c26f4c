import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_MAX_CHANGES, type OrderChange } from '../../domain/admin-live.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { newOrderPush } from '../../domain/push.js';
import { windowLabel } from '../../domain/slots.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { type PushServiceDouble, startPushService } from '../support/push-service.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';

/**
 * The owner hears a new order (api/admin/README.md, "Live orders"; api/push/README.md, "New
 * orders on the admins' devices"): the open admin screens' question "what changed since" (a new
 * order, another admin's move, a payment's move; 304 while nothing changed), and each admin's
 * devices that asked told of every new order, the page's and the server's own paid one, queued
 * in the order's transaction and sent through `web-push` to the push service double, which
 * checks VAPID and decrypts what arrives. On SQLite and PostgreSQL, with the Razorpay double.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`the owner hears a new order on ${dialect}`, () => {
    let t: TestApp;
    let service: PushServiceDouble;
    let rzp: RazorpayDouble;
    let cake: FixtureProduct;
    let owner: Awaited<ReturnType<typeof createUserWithToken>>;
    let baker: Awaited<ReturnType<typeof createUserWithToken>>;

    beforeAll(async () => {
      service = await startPushService();
      rzp = await startRazorpayDouble();
      const seam = service.appSettings();
      t = await makeTestApp(
        dialect,
        {
          ...seam.config,
          // The `more` test places more orders in a minute than a shopper may.
          placeOrderLimits: { account: 500, address: 500 },
          razorpay: rzp.settings,
        },
        { push: seam.push },
      );
      owner = await createUserWithToken(t.app, { role: '1' });
      baker = await createUserWithToken(t.app, { role: '1' });
      cake = await insertProduct(t.app, { price: 800 });
    });
    afterAll(async () => {
      await t?.close();
      await service.close();
      await rzp.close();
    });

    const changes = (auth: Auth | Record<string, never>, query = '', etag?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/admin/order-changes${query}`,
        headers: { ...auth, ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const move = (auth: Auth, id: number, status: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: auth,
        payload: { status },
      });
    const subscribe = (auth: Auth, subscription: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: auth,
        payload: subscription as object,
      });
    /** The admin's switch on a device: on, with the subscription's keys as the page sends them. */
    const alerts = (auth: Auth, endpoint: string, on: boolean, keys?: { p256dh: string; auth: string }) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/new-order-alerts',
        headers: auth,
        payload: { endpoint, on, ...(keys ? { keys } : {}) },
      });
    async function placeOrder(auth: Auth, overrides: object = {}): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake }], overrides),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }
    const order = (id: number) =>
      t.app.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const queuedFor = (orderId: number) =>
      t.app.db
        .selectFrom('push_queue')
        .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
        .select(['push_subscriptions.endpoint', 'push_queue.status'])
        .where('push_queue.order_id', '=', orderId)
        .execute();
    /** What the device received of this order's new-order notice, once the sender has sent what is due. */
    async function heard(device: string, orderId: number) {
      await t.app.push.deliverDue();
      const tag = `new-order-${orderId}`;
      await expect
        .poll(async () => {
          await t.app.push.deliverDue();
          return (await queuedFor(orderId)).filter((q) => q.status === 'new-order').length;
        })
        .toBe(0);
      return service.received
        .filter((r) => r.device === device && (r.payload as { tag?: string }).tag === tag)
        .map((r) => r.payload);
    }

    it('says what changed since: a new order, another admin’s move, a payment’s; the asker’s own move as theirs; 304 when nothing did', async () => {
      const shopper = await createUserWithToken(t.app);
      const first = await changes(owner.auth);
      expect(first.statusCode, first.body).toBe(200);
      const start = first.json().data as { now: number; changes: OrderChange[]; more: boolean };
      expect(start.more).toBe(false);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"c[\w-]+"$/);
      // Nothing changed: the same question is a 304 with no body, however often it is asked.
      for (let i = 0; i < 2; i++) {
        const same = await changes(owner.auth, '', etag);
        expect(same.statusCode).toBe(304);
        expect(same.body).toBe('');
      }

      const id = await placeOrder(shopper.auth);
      const placed = await changes(owner.auth, `?since=${start.now - 1}`, etag);
      expect(placed.statusCode).toBe(200);
      const row = await order(id);
      expect(placed.json().data.changes).toEqual([
        {
          orderID: id,
          status: 'placed',
          createdAt: Number(row.created_at),
          updatedAt: Number(row.updated_at),
          byYou: false,
        },
      ]);
      const placedTag = String(placed.headers.etag);
      expect(placedTag).not.toBe(etag);

      // The baker moves it: the owner sees the move as another's, the baker as their own.
      expect((await move(baker.auth, id, 'confirmed')).statusCode).toBe(200);
      const moved = await changes(owner.auth, `?since=${start.now - 1}`, placedTag);
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data.changes).toMatchObject([{ orderID: id, status: 'confirmed', byYou: false }]);
      expect((await changes(baker.auth, `?since=${start.now - 1}`)).json().data.changes).toMatchObject([
        { orderID: id, status: 'confirmed', byYou: true },
      ]);
      // A change older than `since` is not asked about.
      const after = (await order(id)).updated_at;
      expect((await changes(owner.auth, `?since=${after}`)).json().data.changes).toEqual([]);

      // A payment moves an order as the payments' code does (no admin, no timeline row): another's move.
      const cod = await placeOrder(shopper.auth);
      const paidAt = Date.now() + 5;
      await t.app.db
        .updateTable('orders')
        .set({ status: 'paid', updated_at: paidAt })
        .where('id', '=', cod)
        .execute();
      expect((await changes(owner.auth, `?since=${paidAt - 1}`)).json().data.changes).toEqual([
        {
          orderID: cod,
          status: 'paid',
          createdAt: Number((await order(cod)).created_at),
          updatedAt: paidAt,
          byYou: false,
        },
      ]);
    });

    it('names at most the newest 50 changes and says more changed', async () => {
      const shopper = await createUserWithToken(t.app);
      const since = Date.now() - 1;
      const ids: number[] = [];
      for (let i = 0; i <= LIVE_MAX_CHANGES; i++) ids.push(await placeOrder(shopper.auth));
      const answer = (await changes(owner.auth, `?since=${since}`)).json().data;
      expect(answer.more).toBe(true);
      expect(answer.changes).toHaveLength(LIVE_MAX_CHANGES);
      // The latest first: the first order placed is the one left out.
      expect(answer.changes.map((c: OrderChange) => c.orderID)).not.toContain(ids[0]);
      expect(answer.changes[0].orderID).toBe(ids.at(-1));
    });

    it('keeps the device as a shopper’s subscribe does: known push services only (422), sound keys (400), 10 new devices an hour (429)', async () => {
      const admin = await createUserWithToken(t.app, { role: '1' });
      const device = service.device().subscription;
      const elsewhere = await alerts(admin.auth, 'https://push.example.com/send/1', true, device.keys);
      expect(elsewhere.statusCode).toBe(422);
      expect(elsewhere.json().sys_message).toMatch(/push service/i);
      const badKeys = await alerts(admin.auth, device.endpoint, true, { ...device.keys, p256dh: 'abc' });
      expect(badKeys.statusCode).toBe(400);
      expect(badKeys.json().sys_message).toMatch(/p256dh/);
      expect(
        await t.app.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', '=', admin.id)
          .execute(),
      ).toEqual([]);
      // The same hourly count as the shopper's subscribe: the eleventh new device is refused.
      const answers: number[] = [];
      let last = '';
      for (let i = 0; i < 11; i++) {
        const d = service.device().subscription;
        const res = await alerts(admin.auth, d.endpoint, true, d.keys);
        answers.push(res.statusCode);
        if (res.statusCode === 200) last = d.endpoint;
      }
      expect(answers).toEqual([...Array(10).fill(200), 429]);
      // One device per session: the last one kept is the only one; off again for the tests below.
      expect((await alerts(admin.auth, last, false)).json().data).toEqual({ on: false, devices: 0 });
    });

    it('is the admins’ own: a shopper is refused (403), no session 401, a bad since 400', async () => {
      const shopper = await createUserWithToken(t.app);
      expect((await changes(shopper.auth)).statusCode).toBe(403);
      expect((await changes({})).statusCode).toBe(401);
      const bad = await changes(owner.auth, '?since=yesterday');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().sys_message).toMatch(/since/);
      expect((await alerts(shopper.auth, 'https://fcm.googleapis.com/fcm/send/x', true)).statusCode).toBe(
        403,
      );
    });

    it('tells each admin device that asked of every new order: its number, slot and total; a tap opens the order', async () => {
      const laptop = service.device();
      const bakersPhone = service.device();
      const shopper = await createUserWithToken(t.app);
      const shoppersPhone = service.device();
      // What the page subscribes against: the shop's VAPID key.
      const state = await t.app.inject({
        method: 'GET',
        url: '/api/admin/new-order-alerts',
        headers: owner.auth,
      });
      const key = (await t.app.inject({ method: 'GET', url: '/api/push/key' })).json().data.publicKey;
      expect(state.json().data).toEqual({ publicKey: key, devices: 0 });
      // A device the server does not hold cannot be turned on by its endpoint alone.
      expect((await alerts(owner.auth, laptop.subscription.endpoint, true)).statusCode).toBe(404);
      const on = await alerts(owner.auth, laptop.subscription.endpoint, true, laptop.subscription.keys);
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json().data).toEqual({ on: true, devices: 1 });
      expect(
        (
          await t.app.inject({ method: 'GET', url: '/api/admin/new-order-alerts', headers: owner.auth })
        ).json().data.devices,
      ).toBe(1);
      // The baker's phone takes pushes but never asked for new orders; the shopper's is a shopper's.
      expect((await subscribe(baker.auth, bakersPhone.subscription)).statusCode).toBe(201);
      expect((await subscribe(shopper.auth, shoppersPhone.subscription)).statusCode).toBe(201);
      // Another admin cannot turn on a device that is not theirs.
      expect((await alerts(baker.auth, laptop.subscription.endpoint, true)).statusCode).toBe(404);

      const id = await placeOrder(shopper.auth);
      expect((await queuedFor(id)).map((q) => q.endpoint)).toEqual([laptop.subscription.endpoint]);
      const row = await order(id);
      const slot = { name: String(row.slot_name), start: Number(row.slot_start), end: Number(row.slot_end) };
      const expected = {
        title: `New order #${id}`,
        body: `${formatRupees(Number(row.total))}, Cash on Delivery. For ${formatCalendarDay(row.delivery_date)}, ${slot.name} (${windowLabel(slot)}).`,
        tag: `new-order-${id}`,
        url: `/admin-orders/${id}`,
        // No shopper's order on this device to refresh: the worker only shows it, and a tap opens `url`.
        orderID: 0,
        status: 'placed',
      };
      expect(
        newOrderPush({
          orderID: id,
          status: 'placed',
          total: Number(row.total),
          paymentMethod: 'Cash on Delivery',
          deliveryDate: row.delivery_date,
          slot,
        }),
      ).toEqual(expected);
      expect(await heard(laptop.id, id)).toEqual([expected]);
      expect(
        service.received.filter((r) => r.device === bakersPhone.id || r.device === shoppersPhone.id),
      ).toEqual([]);
      expect(service.refused).toEqual([]);
    });

    it('tells of an order the server placed from a payment, in the same transaction as the order', async () => {
      const desk = service.device();
      // A device already signed up for its admin's own orders' updates is turned on by its endpoint.
      expect((await subscribe(owner.auth, desk.subscription)).statusCode).toBe(201);
      expect((await alerts(owner.auth, desk.subscription.endpoint, true)).json().data.on).toBe(true);
      const shopper = await createUserWithToken(t.app);
      const key = newKey();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...shopper.auth, 'idempotency-key': key },
        payload: orderRequest([{ product: cake }], { PaymentMethod: 'Razorpay' }),
      });
      expect(created.statusCode, created.body).toBe(200);
      const providerOrderId: string = created.json().data.razorpayOrderId;
      const proof = rzp.checkout(providerOrderId);
      const payment = rzp.payments.get(proof.razorpay_payment_id);
      if (!payment) throw new Error('the double made no payment');
      // The page died in the payment window: only the provider's webhook comes.
      const sent = rzp.webhook('payment.captured', { payment });
      const hook = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        headers: sent.headers,
        payload: sent.body,
      });
      expect(hook.statusCode, hook.body).toBe(200);
      const placed = await t.app.db
        .selectFrom('orders')
        .select(['id', 'total', 'status'])
        .where('user_id', '=', shopper.id)
        .executeTakeFirstOrThrow();
      expect(placed.status).toBe('paid');
      const got = await heard(desk.id, placed.id);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({
        title: `New order #${placed.id}`,
        body: expect.stringMatching(
          new RegExp(`^${formatRupees(Number(placed.total))}, Paid online\\. For `),
        ),
        url: `/admin-orders/${placed.id}`,
        status: 'paid',
      });

      // An order refused (its total changed) writes nothing: no notice either.
      const before = await t.app.db.selectFrom('push_queue').select('id').execute();
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake }], { TotalAmount: 1 }),
      });
      expect(refused.statusCode).toBe(409);
      expect(await t.app.db.selectFrom('push_queue').select('id').execute()).toHaveLength(before.length);
    });

    it('stops when the admin turns it off, the session ends, the device moves to another account, or the admin is no longer one', async () => {
      const shopper = await createUserWithToken(t.app);
      const tablet = service.device();
      const { token } = await t.app.sessions.issue({ id: baker.id, email: baker.email, role: '1' });
      const bakerHere = { authorization: `Bearer ${token}` };
      expect(
        (await alerts(bakerHere, tablet.subscription.endpoint, true, tablet.subscription.keys)).json().data
          .on,
      ).toBe(true);
      const heardNow = async () => {
        const id = await placeOrder(shopper.auth);
        return (await queuedFor(id)).some((q) => q.endpoint === tablet.subscription.endpoint);
      };
      expect(await heardNow()).toBe(true);

      // Off: nothing more, and what was queued is dropped.
      const queued = await placeOrder(shopper.auth);
      const off = await alerts(bakerHere, tablet.subscription.endpoint, false);
      expect(off.json().data).toEqual({ on: false, devices: 0 });
      expect((await queuedFor(queued)).filter((q) => q.endpoint === tablet.subscription.endpoint)).toEqual(
        [],
      );
      expect(await heardNow()).toBe(false);

      // On again, then the admin loses the role: nothing.
      await alerts(bakerHere, tablet.subscription.endpoint, true);
      await t.app.db.updateTable('users').set({ role: '0' }).where('id', '=', baker.id).execute();
      expect(await heardNow()).toBe(false);
      await t.app.db.updateTable('users').set({ role: '1' }).where('id', '=', baker.id).execute();
      expect(await heardNow()).toBe(true);

      // The device signs up for another account (a shopper on a shared tablet): it hears no new orders.
      expect((await subscribe(shopper.auth, tablet.subscription)).statusCode).toBe(201);
      expect(await heardNow()).toBe(false);
      // Back to the baker: off until the baker turns it on again.
      expect((await subscribe(bakerHere, tablet.subscription)).statusCode).toBe(201);
      expect(await heardNow()).toBe(false);
      await alerts(bakerHere, tablet.subscription.endpoint, true);
      expect(await heardNow()).toBe(true);

      // Logout there forgets the device.
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/Logout', headers: bakerHere, payload: {} }))
          .statusCode,
      ).toBe(200);
      expect(await heardNow()).toBe(false);
    });
  });
}
