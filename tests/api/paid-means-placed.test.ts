import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, requestHash } from '../../api/orders/idempotency.js';
import { insertSlot } from '../../api/slots/slot.repository.js';
import { indiaInstant } from '../../domain/india-time.js';
import { OrderRequestSchema } from '../../domain/orders.js';
import { ASK_PROVIDER_EVERY_MS } from '../../domain/payment-cart.js';
import { unplacedMessages } from '../../domain/refunds.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import {
  bumpCatalogue,
  type FixtureProduct,
  insertProduct,
  newKey,
  orderRequest,
} from '../support/order-fixtures.js';
import { type DoublePayment, type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';
import { startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * Paid means placed (api/payments/README.md): the server places a paid order from the request kept
 * with its provider order when the payment's events come, whether or not the page ever sends
 * `place-order`; exactly one order whatever the order, repetition or concurrency of the events; the
 * money back, and the shopper told, when it can no longer be placed; the reconciliation job for
 * missed webhooks, uncaptured payments and provider orders never paid; the phone's attempt endpoint.
 * On SQLite and PostgreSQL, against the Razorpay double.
 */
type Auth = { authorization: string };
type Shopper = { id: number; email: string; auth: Auth };

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`paid means placed on ${dialect}`, () => {
    let t: TestApp;
    let rzp: RazorpayDouble;
    let smtp: TestSmtp;
    let cake: FixtureProduct;

    beforeAll(async () => {
      rzp = await startRazorpayDouble();
      smtp = await startSmtp();
      t = await makeTestApp(dialect, {
        smtpUrl: smtp.url,
        razorpay: rzp.settings,
      });
      cake = await insertProduct(t.app, { price: 1200 });
    });
    afterAll(async () => {
      await t?.close();
      await rzp.close();
      await smtp.close();
    });

    const providerOrder = (body: unknown, auth: Auth, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body as object,
      });
    const place = (body: unknown, auth: Auth, key: string, app = t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body as object,
      });
    const post = (sent: { body: string; headers: Record<string, string> }, app = t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        headers: sent.headers,
        payload: sent.body,
      });
    const event = (name: string, payment: DoublePayment, app = t.app) => {
      const order = payment.order_id ? rzp.orders.get(payment.order_id) : undefined;
      return post(
        rzp.webhook(name, {
          payment:
            name === 'payment.authorized' ? { ...payment, status: 'authorized', captured: false } : payment,
          ...(name === 'order.paid' && order ? { order } : {}),
        }),
        app,
      );
    };
    const attempt = (key: string, auth: Auth) =>
      t.app.inject({ method: 'GET', url: `/api/payments/attempts/${key}`, headers: auth });
    const paymentRow = (providerOrderId: string) =>
      t.app.db
        .selectFrom('payments')
        .selectAll()
        .where('provider_order_id', '=', providerOrderId)
        .executeTakeFirstOrThrow();
    const ordersOf = (userId: number) =>
      t.app.db.selectFrom('orders').selectAll().where('user_id', '=', userId).execute();
    const withProof = (body: object, paid: ReturnType<RazorpayDouble['checkout']>) => ({
      ...body,
      RazorpayPaymentId: paid.razorpay_payment_id,
      RazorpayOrderId: paid.razorpay_order_id,
      RazorpaySignature: paid.razorpay_signature,
    });

    /** A shopper's cart with its provider order made (the page then opens Checkout). */
    async function startPaying(user: Shopper, overrides: object = {}, product = cake) {
      const key = newKey();
      const body = orderRequest([{ product }], { PaymentMethod: 'Razorpay', ...overrides });
      const created = await providerOrder(body, user.auth, key);
      expect(created.statusCode, created.body).toBe(200);
      const providerOrderId: string = created.json().data.razorpayOrderId;
      return { key, body, providerOrderId, amount: created.json().data.amount as number };
    }
    /** Checkout pays it: the payment as Razorpay keeps it, and the proof the page would get. */
    function pay(providerOrderId: string, options: { capture?: boolean; at?: number } = {}) {
      const proof = rzp.checkout(providerOrderId, options);
      const payment = rzp.payments.get(proof.razorpay_payment_id);
      if (!payment) throw new Error('the double made no payment');
      return { proof, payment };
    }

    /** The next poll comes after the provider may be asked again about this provider order. */
    async function fifteenSecondsLater(providerOrderId: string) {
      await t.app.db
        .updateTable('payments')
        .set((eb) => ({ asked_at: eb('asked_at', '-', ASK_PROVIDER_EVERY_MS) }))
        .where('provider_order_id', '=', providerOrderId)
        .execute();
    }

    /** A device of the shopper's, so a notice for the account is queued (a live session's). */
    async function subscribeDevice(user: Shopper): Promise<void> {
      const sid = randomUUID();
      const now = Date.now();
      await t.app.db
        .insertInto('sessions')
        .values({ id: sid, user_id: user.id, created_at: now, expires_at: now + 3_600_000, revoked_at: null })
        .execute();
      await t.app.db
        .insertInto('push_subscriptions')
        .values({
          user_id: user.id,
          session_id: sid,
          endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`,
          p256dh: 'BOr6P7HJQz8h0X9qYb3E4nqM2pA1w5L8vN7sK0dT3yR6uG9iC2eF5hJ8kM1oQ4tW7zX0aS3dV6bN9mP2rU5xY8c',
          auth: 'c2VjcmV0LWF1dGgtMTY',
          created_at: now,
          failing_since: null,
        })
        .execute();
    }

    it('the attempt asks the provider when no webhook came: authorized is paying, captured is placed at once', async () => {
      const user = await createUserWithToken(t.app);
      const { key, providerOrderId } = await startPaying(user);
      const asked = () =>
        rzp.requests.filter((r) => r.path === `/v1/orders/${providerOrderId}/payments`).length;
      expect((await attempt(key, user.auth)).json().data.state).toBe('open');
      expect(asked()).toBe(1);
      // Paid in the UPI app, authorized, and no webhook has come: not "open" (nothing paid), but paying.
      const { payment } = pay(providerOrderId, { capture: false });
      // Asked again at once, the provider is not (15 s a provider order): what the webhooks said.
      expect((await attempt(key, user.auth)).json().data.state).toBe('open');
      expect(asked()).toBe(1);
      await fifteenSecondsLater(providerOrderId);
      expect((await attempt(key, user.auth)).json().data.state).toBe('paying');
      expect(await ordersOf(user.id)).toHaveLength(0);
      // Captured (automatic capture), still no webhook: the phone's question places it, as the webhook would.
      const held = rzp.payments.get(payment.id);
      if (held) Object.assign(held, { status: 'captured', captured: true });
      await fifteenSecondsLater(providerOrderId);
      const seen = (await attempt(key, user.auth)).json().data;
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(seen).toMatchObject({ state: 'placed', order: { orderID: orders[0]?.id, status: 'paid' } });
      // The webhooks arriving late change nothing.
      for (const name of ['payment.captured', 'order.paid'])
        expect((await event(name, payment)).statusCode).toBe(200);
      expect(await ordersOf(user.id)).toHaveLength(1);
      // Placed: the provider is not asked again.
      const before = asked();
      expect((await attempt(key, user.auth)).json().data.state).toBe('placed');
      expect(asked()).toBe(before);
    });

    it('places one paid order from the webhooks alone, and the late place-order gets it back', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId } = await startPaying(user);
      expect((await attempt(key, user.auth)).json().data).toMatchObject({ state: 'open', order: null });
      const { proof, payment } = pay(providerOrderId);
      for (const name of ['payment.authorized', 'payment.captured', 'order.paid']) {
        const res = await event(name, payment);
        expect(res.statusCode, res.body).toBe(200);
      }
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ status: 'paid', payment_method: 'Razorpay', idempotency_key: key });
      const row = await paymentRow(providerOrderId);
      expect(row).toMatchObject({
        order_id: orders[0]?.id,
        payment_id: payment.id,
        status: 'captured',
        outcome: null,
      });
      expect(Number(row.paid_at)).toBe(payment.created_at * 1000);
      expect(row.authorized_at).not.toBeNull();

      // The page comes back (same key, its proof): the same order, replayed.
      const late = await place(withProof(body, proof), user.auth, key);
      expect(late.statusCode, late.body).toBe(200);
      expect(late.headers['idempotent-replayed']).toBe('true');
      expect(late.json().data).toMatchObject({ orderID: orders[0]?.id, status: 'paid', totalAmount: 1350 });
      expect(await ordersOf(user.id)).toHaveLength(1);

      const seen = (await attempt(key, user.auth)).json().data;
      expect(seen).toMatchObject({
        key,
        razorpayOrderId: providerOrderId,
        state: 'placed',
        totalAmount: 1350,
      });
      expect(seen.order).toEqual(late.json().data);
    });

    it('replays a paid order whose answer was stored under the whole body (before the proof was left out)', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId } = await startPaying(user);
      const { proof } = pay(providerOrderId);
      const sent = withProof(body, proof);
      const first = await place(sent, user.auth, key);
      expect(first.statusCode).toBe(200);
      // What a server of the previous version stored: the hash of the validated body, proof included.
      const validated = v.parse(OrderRequestSchema, sent);
      const wholeBody = createHash('sha256').update(canonicalJson(validated)).digest('hex');
      expect(wholeBody).not.toBe(requestHash(validated));
      await t.app.db
        .updateTable('idempotency_keys')
        .set({ request_hash: wholeBody })
        .where('user_id', '=', user.id)
        .where('key', '=', key)
        .execute();
      const again = await place(sent, user.auth, key);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      // Another order under the key is still refused.
      const other = await place({ ...sent, CustomerAddress: 'House 14, Sector 70' }, user.auth, key);
      expect(other.statusCode).toBe(422);
    });

    it('keeps the newest request asked under the key: the same amount replaces it, another makes a new provider order', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId } = await startPaying(user);
      const moved = { ...body, CustomerAddress: 'House 99, Sector 71' };
      const again = await providerOrder(moved, user.auth, key);
      expect(again.json().data.razorpayOrderId).toBe(providerOrderId);
      const bigger = orderRequest([{ product: cake, quantity: 2 }], { PaymentMethod: 'Razorpay' });
      const other = await providerOrder({ ...bigger, DeliveryDate: body.DeliveryDate }, user.auth, key);
      expect(other.json().data.razorpayOrderId).not.toBe(providerOrderId);
      // The shopper pays the first provider order (its amount): the order is the replaced request.
      const { payment } = pay(providerOrderId);
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]?.customer_address).toBe('House 99, Sector 71');
      expect((await attempt(key, user.auth)).json().data).toMatchObject({
        state: 'placed',
        razorpayOrderId: providerOrderId,
      });
      // Once placed, the key makes no new provider order: nobody pays twice.
      const late = await providerOrder({ ...body, CustomerAddress: 'Elsewhere 1' }, user.auth, key);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ isSuccess: false, data: { reason: 'placed' } });
      expect(
        JSON.parse((await paymentRow(providerOrderId)).request_json ?? '{}').request.CustomerAddress,
      ).toBe('House 99, Sector 71');
    });

    it('keeps the kept prices: a price raised after the shopper paid is no 409', async () => {
      const user = await createUserWithToken(t.app);
      const dear = await insertProduct(t.app, { price: 700 });
      const { key, providerOrderId } = await startPaying(user, {}, dear);
      await t.app.db.updateTable('products').set({ price: 900 }).where('id', '=', dear.id).execute();
      const { payment } = pay(providerOrderId);
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(Number(orders[0]?.total)).toBe(850);
      const seen = (await attempt(key, user.auth)).json().data;
      expect(seen.order).toMatchObject({ subtotal: 700, totalAmount: 850, items: [{ unitPrice: 700 }] });
    });

    it('makes one order from events repeated and out of order', async () => {
      const user = await createUserWithToken(t.app);
      const { key, providerOrderId } = await startPaying(user);
      const { payment } = pay(providerOrderId);
      const paidFirst = rzp.webhook('order.paid', { payment, order: rzp.orders.get(providerOrderId) ?? {} });
      expect((await post(paidFirst)).json().data).toEqual({ handled: true, duplicate: false });
      // The same delivery again is known by its event id.
      expect((await post(paidFirst)).json().data).toEqual({ handled: false, duplicate: true });
      for (const name of ['payment.captured', 'payment.authorized', 'payment.captured', 'order.paid']) {
        expect((await event(name, payment)).statusCode).toBe(200);
      }
      expect(await ordersOf(user.id)).toHaveLength(1);
      expect((await attempt(key, user.auth)).json().data.state).toBe('placed');
    });

    it('makes one order when the events come at once on two app instances', async () => {
      // A second app on the same database stands for a second process (its in-memory state is its own).
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        for (let round = 0; round < 3; round += 1) {
          const user = await createUserWithToken(t.app);
          const { providerOrderId } = await startPaying(user);
          const { payment } = pay(providerOrderId);
          const answers = await Promise.all([
            event('payment.captured', payment, t.app),
            event('order.paid', payment, second),
            event('payment.captured', payment, second),
            event('order.paid', payment, t.app),
          ]);
          expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
          const orders = await ordersOf(user.id);
          expect(orders).toHaveLength(1);
          expect((await paymentRow(providerOrderId)).order_id).toBe(orders[0]?.id);
        }
      } finally {
        await second.close();
      }
    });

    it("makes one order when the page's place-order races the webhook", async () => {
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        for (let round = 0; round < 3; round += 1) {
          const user = await createUserWithToken(t.app);
          const { key, body, providerOrderId } = await startPaying(user);
          const { proof, payment } = pay(providerOrderId);
          const [page, hook, pageAgain] = await Promise.all([
            place(withProof(body, proof), user.auth, key),
            event('payment.captured', payment, second),
            place(withProof(body, proof), user.auth, key, second),
          ]);
          expect(hook.statusCode).toBe(200);
          const orders = await ordersOf(user.id);
          expect(orders).toHaveLength(1);
          for (const answer of [page, pageAgain]) {
            // A request that found the key still running is told to retry; its retry gets the order.
            const final =
              answer.statusCode === 409 ? await place(withProof(body, proof), user.auth, key) : answer;
            expect(final.statusCode, final.body).toBe(200);
            expect(final.json().data.orderID).toBe(orders[0]?.id);
          }
        }
      } finally {
        await second.close();
      }
    });

    it('refunds in full, and tells the shopper, when the product was deleted before the payment came', async () => {
      const user = await createUserWithToken(t.app);
      await subscribeDevice(user);
      const gone = await insertProduct(t.app, { price: 600 });
      const { key, body, providerOrderId, amount } = await startPaying(user, {}, gone);
      await t.app.db
        .updateTable('products')
        .set({ deleted_at: Date.now() })
        .where('id', '=', gone.id)
        .execute();
      const { proof, payment } = pay(providerOrderId);
      await Promise.all([event('payment.captured', payment), event('order.paid', payment)]);
      expect(await ordersOf(user.id)).toHaveLength(0);
      const row = await paymentRow(providerOrderId);
      expect(row.outcome).toBe('refunded');
      expect(row.outcome_reason).toContain(gone.title);
      const refunds = await t.app.db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_row_id', '=', row.id)
        .execute();
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({
        kind: 'unplaceable',
        idempotency_key: `unplaced-${row.id}`,
        amount_paise: amount,
        order_id: null,
      });
      const atProvider = [...rzp.refunds.values()].filter((r) => r.payment_id === payment.id);
      expect(atProvider.map((r) => r.amount)).toEqual([amount]);
      expect(rzp.payments.get(payment.id)?.status).toBe('refunded');

      const pushes = await t.app.db
        .selectFrom('push_queue')
        .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
        .select(['push_queue.payload', 'push_queue.order_id'])
        .where('push_subscriptions.user_id', '=', user.id)
        .execute();
      expect(pushes).toHaveLength(1);
      const push = JSON.parse(pushes[0]?.payload ?? '{}');
      expect(push).toMatchObject({ title: unplacedMessages.pushTitle, orderID: 0 });
      expect(push.body).toContain(gone.title);
      const mail = await smtp.take(user.email);
      expect(mail.subject).toBe(unplacedMessages.mailSubject);
      expect(textOf(mail)).toContain(gone.title);

      // The page's proof, arriving late, places nothing: the money went back.
      // (Refused for the product first: the order's rules are checked before its payment.)
      const late = await place(withProof(body, proof), user.auth, key);
      expect(late.statusCode).toBe(404);
      expect(await ordersOf(user.id)).toHaveLength(0);
      const seen = (await attempt(key, user.auth)).json().data;
      expect(seen).toMatchObject({ state: 'refunded', order: null });
      expect(seen.reason).toContain(gone.title);
      // Handled again (a repeated event, the reconciliation): still one refund, one push.
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      expect(
        await t.app.db.selectFrom('refunds').select('id').where('payment_row_id', '=', row.id).execute(),
      ).toHaveLength(1);
      expect([...rzp.refunds.values()].filter((r) => r.payment_id === payment.id)).toHaveLength(1);
    });

    it('refunds once when the events of an unplaceable payment come at once on two app instances', async () => {
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        const user = await createUserWithToken(t.app);
        await subscribeDevice(user);
        const gone = await insertProduct(t.app, { price: 650 });
        const { providerOrderId, amount } = await startPaying(user, {}, gone);
        await t.app.db
          .updateTable('products')
          .set({ deleted_at: Date.now() })
          .where('id', '=', gone.id)
          .execute();
        const { payment } = pay(providerOrderId);
        const answers = await Promise.all([
          event('payment.captured', payment, t.app),
          event('order.paid', payment, second),
          event('payment.captured', payment, second),
          event('order.paid', payment, t.app),
        ]);
        // An event whose refund was still being asked for elsewhere may be answered with a retry.
        expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
        expect(await ordersOf(user.id)).toHaveLength(0);
        const row = await paymentRow(providerOrderId);
        expect(row.outcome).toBe('refunded');
        expect(
          [...rzp.refunds.values()].filter((r) => r.payment_id === payment.id).map((r) => r.amount),
        ).toEqual([amount]);
        expect(
          await t.app.db.selectFrom('refunds').select('id').where('payment_row_id', '=', row.id).execute(),
        ).toHaveLength(1);
        const pushes = await t.app.db
          .selectFrom('push_queue')
          .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
          .select('push_queue.id')
          .where('push_subscriptions.user_id', '=', user.id)
          .execute();
        expect(pushes).toHaveLength(1);
        await smtp.take(user.email);
        expect(smtp.to(user.email)).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

    it('asks again for a refund the provider did not take: the event is retried, and the job finds it', async () => {
      // A process whose provider calls all fail (Razorpay unreachable) handles the capture.
      const down = await buildTestApp({
        config: { ...t.config, razorpay: { ...t.config.razorpay, apiUrl: 'http://127.0.0.1:9' } },
        db: t.db,
      });
      await down.ready();
      try {
        const user = await createUserWithToken(t.app);
        const gone = await insertProduct(t.app, { price: 640 });
        const { providerOrderId, amount } = await startPaying(user, {}, gone);
        await t.app.db
          .updateTable('products')
          .set({ deleted_at: Date.now() })
          .where('id', '=', gone.id)
          .execute();
        const { payment } = pay(providerOrderId);
        const failed = await event('payment.captured', payment, down);
        // Not recorded as handled: Razorpay sends it again.
        expect(failed.statusCode).toBe(502);
        const row = await paymentRow(providerOrderId);
        expect(row.outcome).toBe('refunded');
        expect([...rzp.refunds.values()].filter((r) => r.payment_id === payment.id)).toHaveLength(0);
        await smtp.take(user.email);

        const report = await t.app.paymentJobs.reconcile();
        expect(report.refunds).toBeGreaterThanOrEqual(1);
        expect(
          [...rzp.refunds.values()].filter((r) => r.payment_id === payment.id).map((r) => r.amount),
        ).toEqual([amount]);
        const refunds = await t.app.db
          .selectFrom('refunds')
          .selectAll()
          .where('payment_row_id', '=', row.id)
          .execute();
        expect(refunds).toHaveLength(1);
        expect(refunds[0]?.provider_refund_id).not.toBeNull();
        // The retried event finds it done; the job has nothing more to ask.
        expect((await event('payment.captured', payment)).statusCode).toBe(200);
        expect([...rzp.refunds.values()].filter((r) => r.payment_id === payment.id)).toHaveLength(1);
        expect((await t.app.paymentJobs.reconcile()).refunds).toBe(0);
        expect(smtp.to(user.email)).toHaveLength(1);
      } finally {
        await down.close();
      }
    });

    it('refunds a payment of an older provider order of the key when the key was placed with another', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId: first } = await startPaying(user);
      const bigger = {
        ...orderRequest([{ product: cake, quantity: 2 }], { PaymentMethod: 'Razorpay' }),
        DeliveryDate: body.DeliveryDate,
      };
      const second = (await providerOrder(bigger, user.auth, key)).json().data.razorpayOrderId as string;
      expect(second).not.toBe(first);
      const paidSecond = pay(second);
      expect((await place(withProof(bigger, paidSecond.proof), user.auth, key)).statusCode).toBe(200);
      // The shopper had also paid the first one (another tab): its money has no order.
      const { payment } = pay(first);
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      expect(await ordersOf(user.id)).toHaveLength(1);
      const row = await paymentRow(first);
      expect(row).toMatchObject({ outcome: 'refunded', order_id: null });
      expect(
        [...rzp.refunds.values()].filter((r) => r.payment_id === payment.id).map((r) => r.amount),
      ).toEqual([row.amount_paise]);
      await smtp.take(user.email);
      expect((await attempt(key, user.auth)).json().data).toMatchObject({
        state: 'placed',
        razorpayOrderId: second,
      });
    });

    it("refunds when the slot's last place went to another order meanwhile", async () => {
      const slot = await insertSlot(
        t.app.db,
        {
          name: `Evening ${randomBytes(3).toString('hex')}`,
          start: 1080,
          end: 1200,
          surcharge: 0,
          cutoff: 600,
          capacity: 1,
          weekdays: [0, 1, 2, 3, 4, 5, 6],
          position: 5,
        },
        Date.now(),
      );
      // As the owner's own slot writes do: an order's facts are kept per catalogue version.
      await bumpCatalogue(t.app);
      const user = await createUserWithToken(t.app);
      const { providerOrderId } = await startPaying(user, { DeliverySlotID: slot.slotID });
      const other = await createUserWithToken(t.app);
      const taken = await place(
        orderRequest([{ product: cake }], { DeliverySlotID: slot.slotID }),
        other.auth,
        newKey(),
      );
      expect(taken.statusCode, taken.body).toBe(200);
      const { payment } = pay(providerOrderId);
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      expect(await ordersOf(user.id)).toHaveLength(0);
      const row = await paymentRow(providerOrderId);
      expect(row.outcome).toBe('refunded');
      expect(row.outcome_reason).toMatch(/full/i);
      expect(
        await t.app.db.selectFrom('refunds').select('kind').where('payment_row_id', '=', row.id).execute(),
      ).toEqual([{ kind: 'unplaceable' }]);
      await smtp.take(user.email);
    });

    it('judges the order as at the payment: paid before the cut-off, its webhook after it, still placed', async () => {
      const slot = await insertSlot(
        t.app.db,
        {
          name: `Noon ${randomBytes(3).toString('hex')}`,
          start: 720,
          end: 840,
          surcharge: 0,
          cutoff: 600,
          capacity: null,
          weekdays: [0, 1, 2, 3, 4, 5, 6],
          position: 6,
        },
        Date.now(),
      );
      const user = await createUserWithToken(t.app);
      const { providerOrderId, body } = await startPaying(user, { DeliverySlotID: slot.slotID });
      // The cut-off moves to 30 minutes ago; the shopper paid an hour ago.
      const cutoff = Math.floor((Date.now() - 30 * MINUTE - indiaInstant(body.DeliveryDate, 0)) / MINUTE);
      await t.app.db
        .updateTable('delivery_slots')
        .set({ cutoff_minute: cutoff })
        .where('id', '=', slot.slotID)
        .execute();
      const { payment } = pay(providerOrderId, { at: Math.floor((Date.now() - 60 * MINUTE) / 1000) });
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ status: 'paid', slot_id: slot.slotID });
      // Paid after the cut-off, it is refused (and refunded).
      const later = await createUserWithToken(t.app);
      const late = await startPayingAt(later, slot.slotID, body.DeliveryDate);
      const { payment: afterCutoff } = pay(late, { at: Math.floor((Date.now() - 10 * MINUTE) / 1000) });
      expect((await event('payment.captured', afterCutoff)).statusCode).toBe(200);
      expect(await ordersOf(later.id)).toHaveLength(0);
      expect((await paymentRow(late)).outcome).toBe('refunded');
      await smtp.take(later.email);
    });

    /** A provider order for a slot whose cut-off has passed: made straight in the table, as a
     * provider order made before the cut-off moved would be. */
    async function startPayingAt(user: Shopper, slotID: number, date: string): Promise<string> {
      const key = newKey();
      const body = orderRequest([{ product: cake }], {
        PaymentMethod: 'Razorpay',
        DeliverySlotID: slotID,
        DeliveryDate: date,
      });
      const slotBefore = await t.app.db
        .selectFrom('delivery_slots')
        .select('cutoff_minute')
        .where('id', '=', slotID)
        .executeTakeFirstOrThrow();
      await t.app.db
        .updateTable('delivery_slots')
        .set({ cutoff_minute: 600 })
        .where('id', '=', slotID)
        .execute();
      const created = await providerOrder(body, user.auth, key);
      await t.app.db
        .updateTable('delivery_slots')
        .set({ cutoff_minute: slotBefore.cutoff_minute })
        .where('id', '=', slotID)
        .execute();
      expect(created.statusCode, created.body).toBe(200);
      return created.json().data.razorpayOrderId;
    }

    it('the reconciliation finds a payment whose webhook never came', async () => {
      const user = await createUserWithToken(t.app);
      const { key, providerOrderId } = await startPaying(user);
      pay(providerOrderId);
      // Not yet 15 minutes old: left alone.
      expect((await t.app.paymentJobs.reconcile(Date.now() + 5 * MINUTE)).handled).toBe(0);
      expect(await ordersOf(user.id)).toHaveLength(0);
      const report = await t.app.paymentJobs.reconcile(Date.now() + 16 * MINUTE);
      expect(report.handled).toBeGreaterThanOrEqual(1);
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]?.status).toBe('paid');
      expect(rzp.requests.some((r) => r.path === `/v1/orders/${providerOrderId}/payments`)).toBe(true);
      expect((await attempt(key, user.auth)).json().data.state).toBe('placed');
      // Run again: nothing more.
      await t.app.paymentJobs.reconcile(Date.now() + 17 * MINUTE);
      expect(await ordersOf(user.id)).toHaveLength(1);
    });

    it('runs the job on one of two processes per period (the job lease)', async () => {
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        const user = await createUserWithToken(t.app);
        const { providerOrderId } = await startPaying(user);
        pay(providerOrderId);
        const at = Date.now() + 3 * 60 * MINUTE;
        const runs = await Promise.all([
          t.app.paymentJobs.reconcileIfDue(MINUTE, at),
          second.paymentJobs.reconcileIfDue(MINUTE, at),
        ]);
        expect(runs.filter((r) => r !== null)).toHaveLength(1);
        expect(await ordersOf(user.id)).toHaveLength(1);
        // The same period again: nobody; the next one: one of them.
        expect(await t.app.paymentJobs.reconcileIfDue(MINUTE, at + 1000)).toBeNull();
        expect(await second.paymentJobs.reconcileIfDue(MINUTE, at + MINUTE)).not.toBeNull();
      } finally {
        await second.close();
      }
    });

    it('captures an authorized payment not captured within 10 minutes, and places its order', async () => {
      const user = await createUserWithToken(t.app);
      const { key, providerOrderId } = await startPaying(user);
      const { payment } = pay(providerOrderId, { capture: false });
      expect((await event('payment.authorized', payment)).statusCode).toBe(200);
      expect((await attempt(key, user.auth)).json().data.state).toBe('paying');
      const captureCalls = () =>
        rzp.requests.filter((r) => r.path === `/v1/payments/${payment.id}/capture`).length;
      await t.app.paymentJobs.reconcile(Date.now() + 5 * MINUTE);
      expect(captureCalls()).toBe(0);
      expect(rzp.payments.get(payment.id)?.status).toBe('authorized');
      const report = await t.app.paymentJobs.reconcile(Date.now() + 11 * MINUTE);
      expect(report.captured).toBeGreaterThanOrEqual(1);
      expect(captureCalls()).toBe(1);
      expect(rzp.payments.get(payment.id)?.status).toBe('captured');
      const orders = await ordersOf(user.id);
      expect(orders).toHaveLength(1);
      expect((await paymentRow(providerOrderId)).status).toBe('captured');
    });

    it('captures the authorized payment of an order the page placed', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId } = await startPaying(user);
      const { proof, payment } = pay(providerOrderId, { capture: false });
      // Placed by the page on Checkout's proof; no webhook ever comes.
      expect((await place(withProof(body, proof), user.auth, key)).statusCode).toBe(200);
      expect((await paymentRow(providerOrderId)).status).toBe('authorized');
      await t.app.paymentJobs.reconcile(Date.now() + 5 * MINUTE);
      expect(rzp.payments.get(payment.id)?.status).toBe('authorized');
      await t.app.paymentJobs.reconcile(Date.now() + 11 * MINUTE);
      expect(rzp.payments.get(payment.id)?.status).toBe('captured');
      expect((await paymentRow(providerOrderId)).status).toBe('captured');
      expect(await ordersOf(user.id)).toHaveLength(1);
    });

    it('closes a provider order never paid after 24 hours, and refunds a capture that comes later', async () => {
      const user = await createUserWithToken(t.app);
      await subscribeDevice(user);
      const { key, body, providerOrderId, amount } = await startPaying(user);
      await t.app.paymentJobs.reconcile(Date.now() + 20 * MINUTE);
      expect((await paymentRow(providerOrderId)).outcome).toBeNull();
      const report = await t.app.paymentJobs.reconcile(Date.now() + 25 * 60 * MINUTE);
      expect(report.closed).toBeGreaterThanOrEqual(1);
      const closed = await paymentRow(providerOrderId);
      expect(closed.outcome).toBe('closed');
      expect(closed.closed_at).not.toBeNull();
      expect((await attempt(key, user.auth)).json().data.state).toBe('closed');
      // Asking again with the same key makes a new provider order: the closed one is over.
      const again = await providerOrder(body, user.auth, key);
      expect(again.json().data.razorpayOrderId).not.toBe(providerOrderId);

      const { proof, payment } = pay(providerOrderId);
      expect((await event('payment.captured', payment)).statusCode).toBe(200);
      expect(await ordersOf(user.id)).toHaveLength(0);
      const row = await paymentRow(providerOrderId);
      expect(row.outcome).toBe('refunded');
      const refunds = await t.app.db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_row_id', '=', row.id)
        .execute();
      expect(refunds).toMatchObject([
        { kind: 'late', idempotency_key: `late-${String(row.id).padStart(5, '0')}`, amount_paise: amount },
      ]);
      expect(rzp.payments.get(payment.id)?.status).toBe('refunded');
      await smtp.take(user.email);
      const late = await place(withProof(body, proof), user.auth, key);
      expect(late.statusCode).toBe(409);
      expect(await ordersOf(user.id)).toHaveLength(0);
    });

    it("answers the attempt only for the shopper's own key: another's, or an unknown one, is 404", async () => {
      const user = await createUserWithToken(t.app);
      const other = await createUserWithToken(t.app);
      const { key } = await startPaying(user);
      expect((await attempt(key, user.auth)).statusCode).toBe(200);
      for (const res of [await attempt(key, other.auth), await attempt(newKey(), user.auth)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ isSuccess: false });
      }
      expect((await attempt('x'.repeat(101), user.auth)).statusCode).toBe(400);
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/payments/attempts/${key}` });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
