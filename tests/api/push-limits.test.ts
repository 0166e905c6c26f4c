import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../api/accounts/password.js';
import { ConfigError, loadConfig } from '../../api/config.js';
import { FAILING_FOR_MS } from '../../api/push/push.sender.js';
import { orderUpdatePush } from '../../domain/push.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { type PushServiceDouble, startPushService } from '../support/push-service.js';

/**
 * Where order pushes may go and how much one account may ask of the sender (api/push/README.md):
 * only known push services, by name, on port 443, at a public address checked when sending; at
 * most 5 devices per account and one per session, with subscribing rate-limited; sends run side
 * by side, two per account, so one account's silent devices never hold up another's push; a
 * device that fails for a day, or whose session has ended, is dropped. On SQLite and PostgreSQL,
 * against the local push service double reached through the TEST_PUSH_SERVICE seam.
 */
type Auth = { authorization: string };
type Shopper = { id: number; email: string; auth: Auth };

describe('push settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/storefront-test-data', JWT_SECRET: 'x'.repeat(40) };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('takes PUSH_HOSTS names and one loopback TEST_PUSH_SERVICE, which production refuses', () => {
    const config = loadConfig({ ...base, PUSH_HOSTS: ' push.example.com, *.Push.Example.net ' });
    expect(config.pushHosts).toEqual(['push.example.com', '*.push.example.net']);
    expect(config.testPushService).toBeNull();
    expect(loadConfig({ ...base, TEST_PUSH_SERVICE: '127.0.0.1:8443' }).testPushService).toEqual({
      host: '127.0.0.1',
      port: 8443,
    });
    expect(problems({ PUSH_HOSTS: '10.0.0.5' })).toEqual([expect.stringMatching(/^PUSH_HOSTS/)]);
    expect(problems({ PUSH_HOSTS: 'push.example.com:8443' })).toEqual([expect.stringMatching(/^PUSH_HOSTS/)]);
    expect(problems({ TEST_PUSH_SERVICE: '10.0.0.5:443' })).toEqual([
      expect.stringMatching(/^TEST_PUSH_SERVICE must be a loopback/),
    ]);
    expect(problems({ TEST_PUSH_SERVICE: '127.0.0.1:8443', NODE_ENV: 'production' })).toEqual([
      'TEST_PUSH_SERVICE is for tests only and cannot be set in production',
    ]);
    expect(() => loadConfig({ ...base, TEST_PUSH_SERVICE: 'x' })).toThrow(ConfigError);
  });
});

for (const dialect of DIALECTS) {
  describe(`push limits on ${dialect}`, () => {
    let t: TestApp;
    /** The same database's shop with localhost allowed by the operator and short send deadlines. */
    let local: TestApp;
    let service: PushServiceDouble;
    let admin: Auth;
    let cake: FixtureProduct;
    let localAdmin: Auth;
    let localCake: FixtureProduct;

    beforeAll(async () => {
      service = await startPushService();
      const seam = service.appSettings();
      t = await makeTestApp(dialect, seam.config, { push: seam.push });
      local = await makeTestApp(
        dialect,
        { ...seam.config, pushHosts: ['localhost'] },
        { push: { ...seam.push, connectTimeoutMs: 500, answerTimeoutMs: 500 } },
      );
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { price: 800 });
      localAdmin = (await createUserWithToken(local.app, { role: '1' })).auth;
      localCake = await insertProduct(local.app, { price: 800 });
    });
    afterAll(async () => {
      await t?.close();
      await local?.close();
      await service.close();
    });

    const subscribe = (app: TestApp, auth: Auth, payload: unknown) =>
      app.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: auth,
        payload: payload as object,
      });
    async function signIn(app: TestApp, user: Shopper): Promise<Auth> {
      const { token } = await app.app.sessions.issue({ id: user.id, email: user.email, role: '0' });
      return { authorization: `Bearer ${token}` };
    }
    async function placeOrder(app: TestApp, auth: Auth): Promise<number> {
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: app === local ? localCake : cake }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }
    async function move(app: TestApp, id: number, status: string): Promise<void> {
      const res = await app.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: app === local ? localAdmin : admin,
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const endpoints = async (app: TestApp, userId: number) =>
      (
        await app.app.db
          .selectFrom('push_subscriptions')
          .select('endpoint')
          .where('user_id', '=', userId)
          .orderBy('id')
          .execute()
      ).map((r) => r.endpoint);
    const queuedFor = (app: TestApp, orderId: number) =>
      app.app.db
        .selectFrom('push_queue')
        .select(['attempts', 'last_error', 'next_attempt_at'])
        .where('order_id', '=', orderId)
        .execute();
    const receivedBy = (deviceId: string) => service.received.filter((r) => r.device === deviceId).length;
    const subscriptionOf = async (endpoint: string) =>
      (
        await t.app.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('endpoint', '=', endpoint)
          .executeTakeFirstOrThrow()
      ).id;
    let pushCounter = 0;
    /**
     * A push queued for a device, due at `at`: later than the sender's own timer will look, so a
     * test that moves the clock forward decides alone when it is tried.
     */
    async function queueAt(endpoint: string, at: number): Promise<void> {
      pushCounter++;
      await t.app.db
        .insertInto('push_queue')
        .values({
          subscription_id: await subscriptionOf(endpoint),
          order_id: 1_000_000 + pushCounter,
          status: 'confirmed',
          payload: JSON.stringify(orderUpdatePush(1_000_000 + pushCounter, 'confirmed')),
          next_attempt_at: at,
          last_error: null,
          created_at: at,
        })
        .execute();
    }

    it('refuses an endpoint that is not a known push service with a 422 in the envelope', async () => {
      const shopper = await createUserWithToken(t.app);
      const keys = service.device().subscription.keys;
      // The seam's own port must not make one of these pass by chance.
      const port = service.port === 8251 ? 8252 : 8251;
      const refused = [
        `https://127.0.0.1:${port}/x`,
        'https://localhost/x',
        'https://[::1]/x',
        'https://127.1/x',
        'https://10.0.0.5:8443/x',
        'https://0x7f000001/x',
        'https://2130706433/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://169.254.169.254/latest/meta-data',
        'https://evil.example/push',
        'https://fcm.googleapis.com.evil.example/x',
        'https://fcm.googleapis.com:8443/x',
        'https://user:pw@fcm.googleapis.com/x',
        `https://localhost:${service.port}/x`,
      ];
      for (const endpoint of refused) {
        const res = await subscribe(t, shopper.auth, { endpoint, keys });
        expect(res.statusCode, endpoint).toBe(422);
        expect(res.json().isSuccess).toBe(false);
        expect(res.json().sys_message).toMatch(/push service|port 443|user name/);
      }
      expect(await endpoints(t, shopper.id)).toEqual([]);
      // The vendors' services are taken (never sent to here: no order of this shopper moves).
      for (const endpoint of [
        'https://fcm.googleapis.com/fcm/send/abc:def',
        'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
        'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA',
        'https://web.push.apple.com/QGuQyavXu',
      ]) {
        const res = await subscribe(t, shopper.auth, { endpoint, keys });
        expect(res.statusCode, endpoint).toBe(201);
      }
      await t.app.db.deleteFrom('push_subscriptions').where('user_id', '=', shopper.id).execute();
    });

    it('refuses at send time a listed name that resolves to loopback, and never connects', async () => {
      const shopper = await createUserWithToken(local.app);
      const phone = service.device();
      // localhost is on this shop's list and the port is the seam's: only the address is wrong.
      const endpoint = phone.subscription.endpoint.replace('127.0.0.1', 'localhost');
      expect((await subscribe(local, shopper.auth, { ...phone.subscription, endpoint })).statusCode).toBe(
        201,
      );
      const before = service.connections();
      const id = await placeOrder(local, shopper.auth);
      await move(local, id, 'confirmed');
      await local.app.push.deliverDue();
      await expect
        .poll(async () => (await queuedFor(local, id))[0]?.last_error ?? '', { timeout: 10_000 })
        .toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);
      expect(service.connections()).toBe(before);
      expect(receivedBy(phone.id)).toBe(0);
    });

    it('keeps at most 5 devices per account, the newest, and one per session', async () => {
      const shopper = await createUserWithToken(t.app);
      const phones = Array.from({ length: 6 }, () => service.device());
      const sessions = [shopper.auth];
      for (let i = 1; i < 6; i++) sessions.push(await signIn(t, shopper));
      const counts: number[] = [];
      for (const [i, phone] of phones.entries()) {
        const res = await subscribe(t, sessions[i] as Auth, phone.subscription);
        expect(res.statusCode).toBe(201);
        counts.push(res.json().data.devices);
      }
      // The sixth phone works; the one that subscribed longest ago goes.
      expect(counts).toEqual([1, 2, 3, 4, 5, 5]);
      expect(await endpoints(t, shopper.id)).toEqual(phones.slice(1).map((p) => p.subscription.endpoint));

      // A session that subscribes another endpoint (the browser made a new one) keeps only that.
      const renewed = service.device();
      const res = await subscribe(t, sessions[5] as Auth, renewed.subscription);
      expect(res.json().data).toEqual({ devices: 5 });
      const kept = await endpoints(t, shopper.id);
      expect(kept).toContain(renewed.subscription.endpoint);
      expect(kept).not.toContain(phones[5]?.subscription.endpoint);

      // One move makes one push per device: five.
      const id = await placeOrder(t, shopper.auth);
      await move(t, id, 'confirmed');
      expect(await queuedFor(t, id)).toHaveLength(5);
    });

    it('limits new subscriptions to 10 an hour per account with a 429 and Retry-After; a page re-posting its own is free', async () => {
      const shopper = await createUserWithToken(t.app);
      let last = service.device();
      for (let i = 0; i < 10; i++) {
        last = service.device();
        expect((await subscribe(t, shopper.auth, last.subscription)).statusCode).toBe(201);
      }
      // The page posts its subscription again at every load: that changes nothing and is not counted.
      for (let i = 0; i < 3; i++) {
        const again = await subscribe(t, shopper.auth, last.subscription);
        expect(again.statusCode).toBe(201);
        expect(again.json().data).toEqual({ devices: 1 });
      }
      const other = await signIn(t, shopper);
      const res = await subscribe(t, other, service.device().subscription);
      expect(res.statusCode).toBe(429);
      expect(res.json().isSuccess).toBe(false);
      expect(res.json().sys_message).toMatch(/Too many devices/);
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(3600);
      expect(await endpoints(t, shopper.id)).toEqual([last.subscription.endpoint]);
    });

    it("sends another shopper's push while one account's silent devices hold their two slots", async () => {
      const holder = await createUserWithToken(t.app);
      const silent = Array.from({ length: 3 }, () => service.device());
      for (const [i, device] of silent.entries()) {
        device.behave('silent');
        const auth = i === 0 ? holder.auth : await signIn(t, holder);
        expect((await subscribe(t, auth, device.subscription)).statusCode).toBe(201);
      }
      const other = await createUserWithToken(t.app);
      const phone = service.device();
      await subscribe(t, other.auth, phone.subscription);
      const held = await placeOrder(t, holder.auth);
      const waited = await placeOrder(t, other.auth);
      // The silent account's pushes are due first.
      await move(t, held, 'confirmed');
      await move(t, waited, 'confirmed');

      const run = t.app.push.deliverDue();
      await expect.poll(() => receivedBy(phone.id), { timeout: 15_000 }).toBe(1);
      // Delivered while none of the silent devices' sends had ended (they end only at the deadline).
      expect(service.silentEnded()).toBe(0);
      await expect.poll(() => service.silentHeld(), { timeout: 10_000 }).toBe(2);
      // The third is due, but its account already has two sends in flight: nothing more starts (a
      // started send would keep this call waiting until its deadline, and end one held push).
      await t.app.push.deliverDue();
      expect(service.silentHeld()).toBe(2);
      expect(service.silentEnded()).toBe(0);

      for (const device of silent) device.behave('drop');
      service.releaseSilent();
      await run;
      // Let go, the two fail and are retried later; the third is tried once a slot is free.
      await expect
        .poll(async () => (await queuedFor(t, held)).map((q) => q.attempts > 0), { timeout: 15_000 })
        .toEqual([true, true, true]);
    });

    it('gives up on a send that is not answered within the deadline, and tries again later', async () => {
      const shopper = await createUserWithToken(local.app);
      const phone = service.device();
      phone.behave('silent');
      await subscribe(local, shopper.auth, phone.subscription);
      const id = await placeOrder(local, shopper.auth);
      await move(local, id, 'confirmed');
      await local.app.push.deliverDue();
      await expect
        .poll(async () => (await queuedFor(local, id))[0]?.last_error ?? '', { timeout: 10_000 })
        .toMatch(/no answer within 500 ms/);
      expect((await queuedFor(local, id))[0]?.attempts).toBe(1);
      expect(receivedBy(phone.id)).toBe(0);
      phone.behave('accept');
    });

    it('drops a device every try has failed to reach for a day, not one that recovered', async () => {
      const shopper = await createUserWithToken(t.app);
      const broken = service.device();
      const flaky = service.device();
      broken.behave('fail');
      flaky.behave('fail');
      await subscribe(t, shopper.auth, broken.subscription);
      await subscribe(t, await signIn(t, shopper), flaky.subscription);
      // A week from now, with the sessions still live then.
      const start = Date.now() + 7 * FAILING_FOR_MS;
      await t.app.db
        .updateTable('sessions')
        .set({ expires_at: start + 30 * FAILING_FOR_MS })
        .where('user_id', '=', shopper.id)
        .execute();
      await queueAt(broken.subscription.endpoint, start);
      await queueAt(flaky.subscription.endpoint, start);
      expect(await t.app.push.deliverDue(start)).toEqual({ sent: 0, failed: 2, gone: 0 });

      // An hour later the flaky device takes its push again; the broken one still fails.
      flaky.behave('accept');
      expect(await t.app.push.deliverDue(start + 3_600_000)).toEqual({ sent: 1, failed: 1, gone: 0 });
      flaky.behave('fail');

      // A day and a minute after the first failure both fail again: only the broken one has failed all day.
      const dayLater = start + FAILING_FOR_MS + 60_000;
      await queueAt(flaky.subscription.endpoint, dayLater);
      expect(await t.app.push.deliverDue(dayLater)).toEqual({ sent: 0, failed: 2, gone: 0 });
      expect(await endpoints(t, shopper.id)).toEqual([flaky.subscription.endpoint]);
    });

    it('never pushes to a device whose session a password change ended, and forgets it', async () => {
      const shopper = await createUserWithToken(t.app);
      const password = 'Old-Passw0rd!';
      await t.app.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('id', '=', shopper.id)
        .execute();
      const lost = service.device();
      const own = service.device();
      const lostSession = await signIn(t, shopper);
      await subscribe(t, lostSession, lost.subscription);
      await subscribe(t, shopper.auth, own.subscription);
      // Pushes queued for both devices while both sessions live (due later than the timer looks) ...
      const at = Date.now() + 60 * 60_000;
      await queueAt(lost.subscription.endpoint, at);
      await queueAt(own.subscription.endpoint, at);
      // ... then the shopper changes the password on their own phone, which ends the other session.
      const changed = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateUserProfile',
        headers: shopper.auth,
        payload: { password: 'New-Passw0rd!2', currentPassword: password },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/GetUserProfile', headers: lostSession })).statusCode,
      ).toBe(401);

      expect(await t.app.push.deliverDue(at)).toEqual({ sent: 1, failed: 0, gone: 0 });
      expect(receivedBy(lost.id)).toBe(0);
      expect(await endpoints(t, shopper.id)).toEqual([own.subscription.endpoint]);

      // A move now queues for the live session's device only.
      const id = await placeOrder(t, shopper.auth);
      await move(t, id, 'confirmed');
      await expect.poll(() => receivedBy(own.id), { timeout: 10_000 }).toBe(2);
      expect(receivedBy(lost.id)).toBe(0);
    });
  });
}
