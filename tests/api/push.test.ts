import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, MAX_ATTEMPTS } from '../../api/push/push.sender.js';
import { changeSettings } from '../../api/settings/settings.service.js';
import { DEFAULT_PROFILE } from '../../domain/shop-profile.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { type PushServiceDouble, startPushService } from '../support/push-service.js';

/**
 * Order updates pushed to the shopper's devices (issue 19, api/push/README.md), through `web-push`
 * to a local push service double that checks VAPID and decrypts what arrives, as a browser
 * vendor's would. On SQLite and PostgreSQL.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`order updates pushed to devices on ${dialect}`, () => {
    let t: TestApp;
    let service: PushServiceDouble;
    let admin: Auth;
    let cake: FixtureProduct;

    beforeAll(async () => {
      service = await startPushService();
      const seam = service.appSettings();
      t = await makeTestApp(dialect, seam.config, { push: seam.push });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { price: 800 });
    });
    afterAll(async () => {
      await t.close();
      await service.close();
    });

    const subscribe = (auth: Auth | Record<string, never>, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: auth,
        payload: payload as object,
      });
    const move = (id: number, status: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: admin,
        payload: { status },
      });
    const queued = async () =>
      t.app.db
        .selectFrom('push_queue')
        .select(['order_id', 'status', 'attempts', 'next_attempt_at'])
        .execute();
    async function placeOrder(auth: Auth): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }
    /** The same shopper signed in on another device: one device per session. */
    async function signIn(user: { id: number; email: string }): Promise<Auth> {
      const { token } = await t.app.sessions.issue({ id: user.id, email: user.email, role: '0' });
      return { authorization: `Bearer ${token}` };
    }
    /** What the sender would do on its next ticks, now, whatever its timer is doing. */
    const deliver = (at = Date.now()) => t.app.push.deliverDue(at);

    it('gives one VAPID public key, kept: a second app on the database gives the same', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/push/key' });
      expect(res.statusCode).toBe(200);
      const key = res.json().data.publicKey as string;
      expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
      const second = await buildTestApp({ config: t.config, db: t.db });
      try {
        await second.ready();
        expect((await second.inject({ method: 'GET', url: '/api/push/key' })).json().data.publicKey).toBe(
          key,
        );
      } finally {
        await second.close();
      }
    });

    it('sends a move once when two processes work through the queue at the same moment', async () => {
      const second = await buildTestApp({ config: t.config, db: t.db, push: service.appSettings().push });
      try {
        await second.ready();
        const shopper = await createUserWithToken(t.app);
        const phone = service.device();
        await subscribe(shopper.auth, phone.subscription);
        const id = await placeOrder(shopper.auth);
        await move(id, 'confirmed');
        const at = Date.now();
        await Promise.all([t.app.push.deliverDue(at), second.push.deliverDue(at), t.app.push.deliverDue(at)]);
        expect(service.received.filter((r) => r.device === phone.id)).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

    it('refuses a bad subscription with a 400 in the envelope, and a stranger with a 401', async () => {
      const user = await createUserWithToken(t.app);
      const good = service.device().subscription;
      expect((await subscribe({}, good)).statusCode).toBe(401);
      const bad: [unknown, RegExp][] = [
        [{}, /endpoint/i],
        [{ ...good, endpoint: 'http://push.example.com/x' }, /https/],
        [{ ...good, endpoint: 'not a url' }, /endpoint/i],
        [{ endpoint: good.endpoint }, /keys/i],
        [{ ...good, keys: { ...good.keys, p256dh: 'abc' } }, /p256dh/],
        [{ ...good, keys: { ...good.keys, auth: `${good.keys.auth}AAAA` } }, /auth/],
        [{ ...good, keys: { ...good.keys, auth: 'not base64!' } }, /auth/],
      ];
      for (const [payload, message] of bad) {
        const res = await subscribe(user.auth, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().isSuccess).toBe(false);
        expect(res.json().sys_message).toMatch(message);
      }
      expect(
        await t.app.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute(),
      ).toEqual([]);
    });

    it('queues one push per device at a move, and the device receives it decrypted, once', async () => {
      const shopper = await createUserWithToken(t.app);
      const phone = service.device();
      const tablet = service.device();
      expect((await subscribe(shopper.auth, phone.subscription)).json().data).toEqual({ devices: 1 });
      const again = await subscribe(await signIn(shopper), tablet.subscription);
      expect(again.statusCode).toBe(201);
      expect(again.json().data).toEqual({ devices: 2 });
      // Subscribing the same device again keeps one row.
      expect((await subscribe(shopper.auth, phone.subscription)).json().data).toEqual({ devices: 2 });
      // Someone else's order moving sends this shopper nothing.
      const other = await createUserWithToken(t.app);
      await move(await placeOrder(other.auth), 'confirmed');

      // The notification's title is the shop's name as its profile has it when the order moves.
      await changeSettings(t.app.db, { profile: { ...DEFAULT_PROFILE, name: 'Chai & Crumbs' } });
      const id = await placeOrder(shopper.auth);
      expect((await move(id, 'confirmed')).statusCode).toBe(200);
      expect((await move(id, 'out for delivery')).statusCode).toBe(200);
      await deliver();
      // The timer may have sent some before this call, or claimed one that is still on its way (a
      // claimed row is another deliverer's): between them, each device gets each move once.
      const got = () => service.received.filter((r) => [phone.id, tablet.id].includes(r.device));
      await expect.poll(() => got().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
      await deliver();
      expect(
        got()
          .map((r) => r.device)
          .sort(),
      ).toEqual([phone.id, phone.id, tablet.id, tablet.id].sort());
      const texts = {
        confirmed: `Order #${id} is confirmed: the bakers have it.`,
        'out for delivery': `Order #${id} is out for delivery.`,
      };
      for (const r of got()) {
        const status = (r.payload as { status: keyof typeof texts }).status;
        expect(r.payload).toEqual({
          title: 'Chai & Crumbs',
          body: texts[status],
          // One tag per order: on the device, the newer status replaces the older notification.
          tag: `order-${id}`,
          url: `/my-orders/${id}`,
          orderID: id,
          status,
        });
        expect(r.ttl).toBe(86400);
        expect(r.urgency).toBe('high');
        expect(r.vapidSubject).toMatch(/^mailto:/);
      }
      expect(service.refused).toEqual([]);
      // A send the timer started is deleted from the queue once its answer is in, a moment after
      // the device has the push.
      await expect
        .poll(async () => (await queued()).filter((q) => q.order_id === id), { timeout: 15_000 })
        .toEqual([]);
      // Nothing is sent twice.
      await deliver();
      expect(got()).toHaveLength(4);
    });

    it('removes a subscription the push service says is gone (410), and only that one', async () => {
      const shopper = await createUserWithToken(t.app);
      const old = service.device();
      const current = service.device();
      await subscribe(shopper.auth, old.subscription);
      await subscribe(await signIn(shopper), current.subscription);
      old.behave('gone');
      const id = await placeOrder(shopper.auth);
      await move(id, 'confirmed');
      await deliver();
      const left = await t.app.db
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('user_id', '=', shopper.id)
        .execute();
      expect(left.map((r) => r.endpoint)).toEqual([current.subscription.endpoint]);
      expect(service.received.filter((r) => r.device === current.id)).toHaveLength(1);
    });

    it('keeps a push that failed (500, a dropped connection) and sends it later, with back-off', async () => {
      const shopper = await createUserWithToken(t.app);
      const flaky = service.device();
      const dropping = service.device();
      await subscribe(shopper.auth, flaky.subscription);
      await subscribe(await signIn(shopper), dropping.subscription);
      flaky.behave('fail');
      dropping.behave('drop');
      const id = await placeOrder(shopper.auth);
      const now = Date.now();
      await move(id, 'confirmed');
      // The admin's move did not wait for the push service: it answered, and the pushes wait in the queue.
      let waiting = (await queued()).filter((q) => q.order_id === id);
      expect(waiting).toHaveLength(2);
      const first = await deliver(now + 1000);
      expect(first.sent).toBe(0);
      waiting = (await queued()).filter((q) => q.order_id === id);
      expect(waiting.map((q) => q.attempts)).toEqual([1, 1]);
      for (const q of waiting) expect(Number(q.next_attempt_at)).toBe(now + 1000 + backoffMs(1));
      // Not due yet: nothing is tried.
      expect((await deliver(now + 1000 + backoffMs(1) - 1)).failed).toBe(0);
      flaky.behave('accept');
      dropping.behave('accept');
      const later = await deliver(now + 1000 + backoffMs(1));
      expect(later.sent).toBe(2);
      expect(service.received.filter((r) => [flaky.id, dropping.id].includes(r.device))).toHaveLength(2);
      expect(backoffMs(MAX_ATTEMPTS)).toBeLessThanOrEqual(3_600_000);
    });

    it('forgets the device at logout, never touches another shopper’s subscription, and honours “off”', async () => {
      const a = await createUserWithToken(t.app);
      const b = await createUserWithToken(t.app);
      const aPhone = service.device();
      const bPhone = service.device();
      await subscribe(a.auth, aPhone.subscription);
      await subscribe(b.auth, bPhone.subscription);
      // A cannot remove B's device by naming its endpoint.
      const tried = await t.app.inject({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        headers: a.auth,
        payload: { endpoint: bPhone.subscription.endpoint },
      });
      expect(tried.statusCode).toBe(200);
      expect(tried.json().data).toEqual({ devices: 1 });
      const count = async (userId: number) =>
        (await t.app.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).execute())
          .length;
      expect(await count(b.id)).toBe(1);

      // Off: a move queues nothing for B; on again: it does.
      const off = await t.app.inject({
        method: 'PUT',
        url: '/api/push/preferences',
        headers: b.auth,
        payload: { orderUpdates: false },
      });
      expect(off.json().data).toEqual({ orderUpdates: false });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/push/preferences', headers: b.auth })).json().data,
      ).toEqual({ orderUpdates: false });
      const bOrder = await placeOrder(b.auth);
      await move(bOrder, 'confirmed');
      expect((await queued()).filter((q) => q.order_id === bOrder)).toEqual([]);
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/push/preferences',
        headers: b.auth,
        payload: { orderUpdates: 'yes' },
      });
      expect(bad.statusCode).toBe(400);

      // A logs out on that phone: the phone is forgotten, B's is not.
      const out = await t.app.inject({ method: 'POST', url: '/api/Logout', headers: a.auth, payload: {} });
      expect(out.statusCode).toBe(200);
      expect(await count(a.id)).toBe(0);
      expect(await count(b.id)).toBe(1);
    });
  });
}
