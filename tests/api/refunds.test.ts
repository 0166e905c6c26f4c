import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { startRefund } from '../../api/payments/refunds.service.js';
import { changeSettings } from '../../api/settings/settings.service.js';
import { ordersCsv } from '../../domain/orders-csv.js';
import { refundLine, refundMessages } from '../../domain/refunds.js';
import { DEMO_PROFILE, fssaiLine, storeAddress } from '../../domain/shop-profile.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { type PushServiceDouble, startPushService } from '../support/push-service.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';
import { startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

const FSSAI = '10012345678901';

/**
 * Refunds through Razorpay's Refunds API (issue 39, item 4; api/payments/README.md "Refunds"),
 * against the Razorpay double, with a real SMTP server and push service to see what the shopper is
 * told. On SQLite and PostgreSQL.
 */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`refunds on ${dialect}`, () => {
    let t: TestApp;
    let rzp: RazorpayDouble;
    let smtp: TestSmtp;
    let push: PushServiceDouble;
    let admin: { auth: Auth; email: string };
    let cake: FixtureProduct;
    let mails = 0;

    beforeAll(async () => {
      rzp = await startRazorpayDouble();
      smtp = await startSmtp();
      push = await startPushService();
      const seam = push.appSettings();
      t = await makeTestApp(
        dialect,
        {
          ...seam.config,
          smtpUrl: smtp.url,
          razorpay: rzp.settings,
        },
        { push: seam.push },
      );
      admin = await createUserWithToken(t.app, { role: '1', email: `owner-${dialect}@example.test` });
      cake = await insertProduct(t.app, { price: 1200 });
      // The order mails end with the shop's footer and its FSSAI line, from the profile.
      await changeSettings(t.app.db, {
        profile: { ...DEMO_PROFILE, fssai: FSSAI, legalName: 'B and B Foods LLP' },
      });
    });
    afterAll(async () => {
      await t.close();
      await rzp.close();
      await smtp.close();
      await push.close();
    });

    const refundRequests = (paymentId: string) =>
      rzp.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payments/${paymentId}/refund`);
    const refundsAtProvider = (paymentId: string) =>
      [...rzp.refunds.values()].filter((r) => r.payment_id === paymentId);
    const refundRows = (orderId: number) =>
      t.app.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
    const webhook = (signed: { body: string; headers: Record<string, string> }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        headers: signed.headers,
        payload: signed.body,
      });
    const cancel = (app: TestApp['app'], id: number, via: 'admin' | 'spec') =>
      app.inject({
        method: 'PUT',
        url: via === 'admin' ? `/api/admin/orders/${id}/status` : `/api/orders/${id}/status`,
        headers: admin.auth,
        payload: { status: 'cancelled' },
      });
    const refund = (id: number, payload: unknown, auth: Auth = admin.auth) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${id}/refunds`,
        headers: auth,
        payload: payload as object,
      });
    const adminOrder = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/orders/${id}`, headers: admin.auth })).json()
        .data;
    const money = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin.auth })).json().data
        .money;

    /** A paid order (₹1,350: ₹1,200 and ₹150 delivery) placed through Checkout's proof, as the page does. */
    async function paidOrder(user?: { auth: Auth; id: number; email: string }) {
      const shopper = user ?? (await createUserWithToken(t.app));
      mails += 1;
      const email = `asha-${dialect}-${mails}@example.test`;
      const key = newKey();
      const body = orderRequest([{ product: cake }], { PaymentMethod: 'Razorpay', CustomerEmail: email });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...shopper.auth, 'idempotency-key': key },
        payload: body,
      });
      expect(created.statusCode, created.body).toBe(200);
      const paid = rzp.checkout(created.json().data.razorpayOrderId);
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': key },
        payload: {
          ...body,
          RazorpayPaymentId: paid.razorpay_payment_id,
          RazorpayOrderId: paid.razorpay_order_id,
          RazorpaySignature: paid.razorpay_signature,
        },
      });
      expect(placed.statusCode, placed.body).toBe(200);
      return {
        id: placed.json().data.orderID as number,
        paymentId: paid.razorpay_payment_id,
        shopper,
        email,
      };
    }

    async function codOrder(auth: Auth) {
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake }]),
      });
      expect(placed.statusCode, placed.body).toBe(200);
      return placed.json().data.orderID as number;
    }

    it('refunds a cancelled paid order in full, once, however often Cancel is pressed and on whichever process', async () => {
      const order = await paidOrder();
      // A second process on the same database, with its own provider client.
      const other = await buildTestApp({ config: t.config, db: t.db });
      await other.ready();
      try {
        const answers = await Promise.all([
          cancel(t.app, order.id, 'admin'),
          cancel(other, order.id, 'admin'),
          cancel(t.app, order.id, 'spec'),
        ]);
        // The answers stay as they were: one cancel moves the order, the others find it moved.
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      } finally {
        await other.close();
      }
      expect(await cancel(t.app, order.id, 'admin')).toMatchObject({ statusCode: 409 });
      const rows = await refundRows(order.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'cancel',
        idempotency_key: `cancel-order-${order.id}`,
        reason: refundMessages.cancelReason,
        created_by: admin.email,
        status: 'pending',
      });
      expect(Number(rows[0]?.amount_paise)).toBe(135_000);
      const sent = refundRequests(order.paymentId);
      expect(sent).toHaveLength(1);
      const key = sent[0]?.headers['x-refund-idempotency'] ?? '';
      expect(key).toBe(`cancel-order-${order.id}`);
      expect(key.length).toBeGreaterThanOrEqual(10);
      const made = refundsAtProvider(order.paymentId);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ amount: 135_000, receipt: `order ${order.id}` });
      expect(rows[0]?.provider_refund_id).toBe(made[0]?.id);
      // The retry finds nothing left to ask.
      expect(await t.app.refunds.retry(Date.now() + 10 * 60_000)).toBe(0);
      expect(refundRequests(order.paymentId)).toHaveLength(1);
    });

    it("the admin's one-step cancel goes through the same move: unpaid orders go, a paid one is left and nothing is refunded", async () => {
      const shopper = await createUserWithToken(t.app);
      const paid = await paidOrder(shopper);
      const unpaid = await codOrder(shopper.auth);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/orders/cancel-unpaid',
        headers: admin.auth,
        payload: { userID: shopper.id, note: 'fake orders' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.orderIDs).toEqual([unpaid]);
      expect(await refundRows(unpaid)).toEqual([]);
      expect(await refundRows(paid.id)).toEqual([]);
      expect(refundRequests(paid.paymentId)).toHaveLength(0);
    });

    it('makes a partial refund, then refuses one larger than what is left (422, nothing sent)', async () => {
      const order = await paidOrder();
      const first = await refund(order.id, { amount: 500, reason: '  Delivered late  ' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().sys_message).toBe(refundMessages.refundStarted(500));
      const payment = first.json().data;
      expect(payment).toMatchObject({
        provider: 'razorpay',
        paymentID: order.paymentId,
        status: 'captured',
        paid: 1350,
        refunded: 500,
        refundable: 850,
      });
      expect(payment.refunds).toEqual([
        expect.objectContaining({
          kind: 'partial',
          amount: 500,
          reason: 'Delivered late',
          status: 'pending',
          by: admin.email,
          failureReason: null,
          providerRefundID: expect.stringMatching(/^rfnd_/),
        }),
      ]);
      const sent = refundRequests(order.paymentId);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers['x-refund-idempotency']).toBe(`partial-${order.id}-1`);
      expect(refundsAtProvider(order.paymentId)).toEqual([
        expect.objectContaining({ amount: 50_000, receipt: `order ${order.id}` }),
      ]);

      const tooLarge = await refund(order.id, { amount: 851, reason: 'Wrong flowers' });
      expect(tooLarge.statusCode).toBe(422);
      expect(tooLarge.json().sys_message).toBe(refundMessages.tooLarge(850, 1350));
      expect(refundRequests(order.paymentId)).toHaveLength(1);

      const rest = await refund(order.id, { amount: 850, reason: 'Wrong flowers' });
      expect(rest.statusCode, rest.body).toBe(201);
      expect(rest.json().data).toMatchObject({ refunded: 1350, refundable: 0 });
      const nothingLeft = await refund(order.id, { amount: 1, reason: 'Again' });
      expect(nothingLeft.statusCode).toBe(422);
      expect(nothingLeft.json().sys_message).toBe(refundMessages.tooLarge(0, 1350));
      // Cancelling a fully refunded order asks for nothing more.
      expect((await cancel(t.app, order.id, 'admin')).statusCode).toBe(200);
      expect(refundRequests(order.paymentId)).toHaveLength(2);
      expect((await refundRows(order.id)).map((r) => r.kind)).toEqual(['partial', 'partial']);
    });

    it('refuses bad refund requests with a clear 4xx and sends nothing', async () => {
      const order = await paidOrder();
      const bad: [unknown, RegExp][] = [
        [{ amount: 0, reason: 'x' }, /at least ₹1/],
        [{ amount: 1.5, reason: 'x' }, /whole rupees/],
        [{ amount: '100', reason: 'x' }, /number/],
        [{ amount: 100 }, /reason/],
        [{ amount: 100, reason: '   ' }, /why/],
        [{ amount: 100, reason: 'x'.repeat(201) }, /too long/],
      ];
      for (const [payload, message] of bad) {
        const res = await refund(order.id, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().sys_message).toMatch(message);
      }
      const malformed = await t.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${order.id}/refunds`,
        headers: { ...admin.auth, 'content-type': 'application/json' },
        payload: '{"amount": 100,',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().isSuccess).toBe(false);
      expect((await refund(order.id, [{ amount: 100, reason: 'x' }])).statusCode).toBe(400);
      expect((await refund(0, { amount: 100, reason: 'x' })).statusCode).toBe(400);
      const shopper = await createUserWithToken(t.app);
      expect((await refund(order.id, { amount: 100, reason: 'x' }, shopper.auth)).statusCode).toBe(403);
      expect((await refund(order.id, { amount: 100, reason: 'x' }, {} as Auth)).statusCode).toBe(401);
      const missing = await refund(99_999_999, { amount: 100, reason: 'x' });
      expect(missing.statusCode).toBe(404);
      expect(refundRequests(order.paymentId)).toHaveLength(0);
      expect(await refundRows(order.id)).toEqual([]);
    });

    it('refuses to refund a Cash on Delivery order (422), and cancelling one refunds nothing', async () => {
      const shopper = await createUserWithToken(t.app);
      const id = await codOrder(shopper.auth);
      const before = rzp.requests.length;
      const res = await refund(id, { amount: 100, reason: 'Goodwill' });
      expect(res.statusCode).toBe(422);
      expect(res.json().sys_message).toBe(refundMessages.notPaidOnline);
      expect((await cancel(t.app, id, 'admin')).statusCode).toBe(200);
      expect(await refundRows(id)).toEqual([]);
      expect(rzp.requests.length).toBe(before);
      expect((await adminOrder(id)).payment).toBeNull();
    });

    it('two admins refunding at once never give back more than was paid', async () => {
      const order = await paidOrder();
      const both = await Promise.all([
        refund(order.id, { amount: 1000, reason: 'First admin' }),
        refund(order.id, { amount: 1000, reason: 'Second admin' }),
      ]);
      const codes = both.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(201);
      // The second waited for the first's lock: it is still being made (409) or too large (422).
      expect([409, 422]).toContain(codes[1]);
      expect(refundsAtProvider(order.paymentId)).toHaveLength(1);
      expect((await adminOrder(order.id)).payment).toMatchObject({ refunded: 1000, refundable: 350 });
    });

    it('refund.processed moves the refund, and the shopper is told once, by push and by mail', async () => {
      const shopper = await createUserWithToken(t.app);
      const device = push.device();
      const subscribed = await t.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: shopper.auth,
        payload: device.subscription,
      });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const order = await paidOrder(shopper);
      expect((await cancel(t.app, order.id, 'admin')).statusCode).toBe(200);
      const [row] = await refundRows(order.id);
      const providerId = row?.provider_refund_id ?? '';
      const myOrder = (etag?: string) =>
        t.app.inject({
          method: 'GET',
          url: `/api/my-orders/${order.id}`,
          headers: { ...shopper.auth, ...(etag ? { 'if-none-match': etag } : {}) },
        });
      const pendingView = await myOrder();
      expect(pendingView.json().data.refunds).toEqual([
        { amount: 1350, status: 'pending', createdAt: expect.any(String), processedAt: null },
      ]);

      const event = rzp.settleRefund(providerId, 'processed');
      const moved = await webhook(event);
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().data).toEqual({ handled: true, duplicate: false });
      // The same delivery again, and the same news under another event id: nobody is told twice.
      expect((await webhook(event)).json().data).toEqual({ handled: false, duplicate: true });
      const again = await webhook({
        body: event.body,
        headers: { ...event.headers, 'x-razorpay-event-id': `evt_again_${order.id}` },
      });
      expect(again.json().data).toEqual({ handled: false, duplicate: false });

      const [after] = await refundRows(order.id);
      expect(after?.status).toBe('processed');
      expect(after?.processed_at).not.toBeNull();
      expect(after?.notified_at).not.toBeNull();

      // The shopper's page is not answered 304 with the old line: the refund changed its ETag.
      const fresh = await myOrder(pendingView.headers.etag as string);
      expect(fresh.statusCode).toBe(200);
      const shown = fresh.json().data.refunds;
      expect(shown).toEqual([
        { amount: 1350, status: 'processed', createdAt: expect.any(String), processedAt: expect.any(String) },
      ]);
      expect(refundLine(shown[0])).toMatch(/^Refund of ₹1,350 processed on \d{1,2} [A-Z][a-z]{2}$/);

      const mail = await smtp.take(order.email);
      expect(mail.subject).toBe(refundMessages.mailSubject(order.id));
      // Quoted-printable undone gives the UTF-8 bytes; read them as UTF-8 (₹).
      const text = Buffer.from(textOf(mail), 'latin1').toString('utf8');
      expect(text).toContain(refundMessages.processedPush(order.id, 1350));
      expect(text).toContain(refundLine(shown[0]));
      expect(mail.raw).toMatch(/^From: "Bakery & Blooms" </m);
      expect(text.replace(/\r\n/g, '\n')).toContain(
        `\n-- \nB and B Foods LLP\n${storeAddress(DEMO_PROFILE.stores[0] ?? { address: '', pin: '' })}\n`,
      );
      expect(text).toContain(fssaiLine(FSSAI));

      const notices = () =>
        push.received.filter(
          (r) => r.device === device.id && (r.payload as { title?: string }).title === 'Refund processed',
        );
      await t.app.push.deliverDue();
      await expect.poll(() => notices().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      await t.app.push.deliverDue();
      await t.app.mailer.drain();
      expect(notices().map((r) => r.payload)).toEqual([
        {
          title: 'Refund processed',
          body: refundMessages.processedPush(order.id, 1350),
          url: `/my-orders/${order.id}`,
          tag: `order-${order.id}`,
          orderID: order.id,
          status: 'cancelled',
        },
      ]);
      expect(smtp.to(order.email)).toHaveLength(1);
      // A late refund.created changes nothing.
      const late = rzp.webhook('refund.created', {
        refund: { ...rzp.refunds.get(providerId), status: 'pending' },
      });
      expect((await webhook(late)).json().data).toEqual({ handled: false, duplicate: false });
      expect((await refundRows(order.id))[0]?.status).toBe('processed');
    });

    it('refund.failed keeps the reason for the admin, and the money counts as refundable again', async () => {
      const order = await paidOrder();
      expect((await refund(order.id, { amount: 300, reason: 'Broken box' })).statusCode).toBe(201);
      const before = await money();
      const [row] = await refundRows(order.id);
      const failed = await webhook(rzp.settleRefund(row?.provider_refund_id ?? '', 'failed'));
      expect(failed.json().data).toEqual({ handled: true, duplicate: false });
      const [after] = await refundRows(order.id);
      expect(after).toMatchObject({
        status: 'failed',
        failure_reason: 'The beneficiary bank did not accept the refund',
        processed_at: null,
      });
      const payment = (await adminOrder(order.id)).payment;
      expect(payment).toMatchObject({ paid: 1350, refunded: 0, refundable: 1350 });
      expect(payment.refunds).toEqual([
        expect.objectContaining({
          status: 'failed',
          failureReason: 'The beneficiary bank did not accept the refund',
          reason: 'Broken box',
        }),
      ]);
      // The shopper is not shown a refund that gave nothing back (`shopperSees`).
      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/my-orders/${order.id}`,
        headers: order.shopper.auth,
      });
      expect(mine.json().data.refunds).toEqual([]);
      // A processed event after the failure does not bring it back.
      const processed = rzp.webhook('refund.processed', {
        refund: { ...rzp.refunds.get(row?.provider_refund_id ?? ''), status: 'processed' },
      });
      expect((await webhook(processed)).json().data.handled).toBe(false);
      expect((await refundRows(order.id))[0]?.status).toBe('failed');
      expect(await money()).toMatchObject({
        refundsPending: before.refundsPending - 1,
        refundsFailed: before.refundsFailed + 1,
        refunds30: before.refunds30 - 1,
        refunded30: before.refunded30 - 300,
      });
    });

    it('asks again under the same X-Refund-Idempotency key after a lost answer: one refund', async () => {
      const order = await paidOrder();
      expect((await refund(order.id, { amount: 200, reason: 'Lost answer' })).statusCode).toBe(201);
      const [row] = await refundRows(order.id);
      // As if the process stopped after asking and before keeping the provider's answer.
      await t.app.db
        .updateTable('refunds')
        .set({ provider_refund_id: null })
        .where('id', '=', row?.id ?? 0)
        .execute();
      expect(await t.app.refunds.retry(Date.now() + 10 * 60_000)).toBe(1);
      const sent = refundRequests(order.paymentId);
      expect(sent).toHaveLength(2);
      expect(new Set(sent.map((s) => s.headers['x-refund-idempotency']))).toEqual(
        new Set([`partial-${order.id}-1`]),
      );
      expect(refundsAtProvider(order.paymentId)).toHaveLength(1);
      expect((await refundRows(order.id))[0]?.provider_refund_id).toBe(row?.provider_refund_id);
    });

    it('a second ask under a key still being made is answered 409 by the provider, and stays one refund', async () => {
      const order = await paidOrder();
      const hold = rzp.holdRefunds();
      const first = refund(order.id, { amount: 250, reason: 'Held' });
      await hold.arrived;
      // Meanwhile the admin clicks again, and the retry (a minute later, on its clock) asks too.
      const again = await refund(order.id, { amount: 250, reason: 'Held' });
      expect(again.statusCode).toBe(409);
      expect(again.json().sys_message).toBe(refundMessages.inProgress);
      expect(await t.app.refunds.retry(Date.now() + 2 * 60_000)).toBe(0);
      const inFlight = refundRequests(order.paymentId);
      expect(inFlight.map((r) => r.headers['x-refund-idempotency'])).toEqual([
        `partial-${order.id}-1`,
        `partial-${order.id}-1`,
      ]);
      hold.release();
      expect((await first).statusCode).toBe(201);
      expect(refundsAtProvider(order.paymentId)).toHaveLength(1);
      const [row] = await refundRows(order.id);
      expect(row).toMatchObject({ status: 'pending', provider_refund_id: expect.stringMatching(/^rfnd_/) });
    });

    it('a provider that does not answer leaves the refund pending, and the retry job completes it', async () => {
      const order = await paidOrder();
      // A process whose provider is unreachable (nothing listens on port 9).
      const down = await buildApp({
        config: { ...t.config, razorpay: { ...t.config.razorpay, apiUrl: 'http://127.0.0.1:9' } },
        db: t.db,
      });
      await down.ready();
      try {
        const cancelled = await cancel(down, order.id, 'admin');
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        const partial = await down.inject({
          method: 'POST',
          url: `/api/admin/orders/${order.id}/refunds`,
          headers: admin.auth,
          payload: { amount: 10, reason: 'x' },
        });
        // The cancel's refund of everything is still being made: the partial one waits.
        expect(partial.statusCode).toBe(409);
        expect(partial.json().sys_message).toBe(refundMessages.inProgress);
      } finally {
        await down.close();
      }
      const [pending] = await refundRows(order.id);
      expect(pending).toMatchObject({ status: 'pending', provider_refund_id: null, kind: 'cancel' });
      expect(refundRequests(order.paymentId)).toHaveLength(0);
      // Not before its minute: an ask may still be under way.
      expect(await t.app.refunds.retry(Date.now())).toBe(0);
      expect(await t.app.refunds.retry(Date.now() + 2 * 60_000)).toBeGreaterThanOrEqual(1);
      const [done] = await refundRows(order.id);
      expect(done?.provider_refund_id).toMatch(/^rfnd_/);
      expect(refundsAtProvider(order.paymentId)).toEqual([expect.objectContaining({ amount: 135_000 })]);
    });

    it('a refund of a payment that never became an order, once processed, tells the account by push and mail', async () => {
      const shopper = await createUserWithToken(t.app);
      const device = push.device();
      const subscribed = await t.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: shopper.auth,
        payload: device.subscription,
      });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const paymentId = rzp.payWithoutOrder(80_000);
      const now = Date.now();
      const row = await t.app.db
        .insertInto('payments')
        .values({
          provider: 'razorpay',
          provider_order_id: `order_unplaced_${dialect}`,
          user_id: shopper.id,
          idempotency_key: newKey(),
          amount_paise: 80_000,
          currency: 'INR',
          status: 'captured',
          payment_id: paymentId,
          order_id: null,
          created_at: now,
          updated_at: now,
          outcome: 'refunded',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const provider = t.app.payments.provider;
      if (!provider) throw new Error('the app has no provider');
      // As the other path starts it (paid-orders.ts): the whole payment, under its own key.
      const started = await startRefund(
        {
          db: t.app.db,
          dialect,
          provider,
          mailer: t.app.mailer,
          config: t.app.config,
          log: t.app.log,
          now: Date.now,
        },
        {
          paymentRowId: row.id,
          paymentId,
          orderId: null,
          kind: 'unplaceable',
          key: `unplaceable-${row.id}`,
          amountPaise: 80_000,
          reason: 'The slot is full',
          by: 'shop',
          receipt: `order_unplaced_${dialect}`,
        },
      );
      expect(started).toMatchObject({ status: 'pending', providerRefundId: expect.stringMatching(/^rfnd_/) });
      expect(refundsAtProvider(paymentId)).toEqual([
        expect.objectContaining({ amount: 80_000, receipt: `order_unplaced_${dialect}` }),
      ]);
      const moved = await webhook(rzp.settleRefund(started.providerRefundId ?? '', 'processed'));
      expect(moved.json().data).toEqual({ handled: true, duplicate: false });
      const mail = await smtp.take(shopper.email);
      expect(mail.subject).toBe(refundMessages.mailSubject(0));
      const text = Buffer.from(textOf(mail), 'latin1').toString('utf8');
      expect(text).toContain(refundMessages.processedPush(0, 800));
      expect(text).toContain(fssaiLine(FSSAI));
      expect(text).not.toContain('#0');
      const notices = () => push.received.filter((r) => r.device === device.id);
      await t.app.push.deliverDue();
      await expect.poll(() => notices().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      expect(notices().map((r) => r.payload)).toEqual([
        {
          title: 'Refund processed',
          body: refundMessages.processedPush(0, 800),
          url: '/my-orders',
          tag: `refund-${started.id}`,
          orderID: 0,
          status: 'cancelled',
        },
      ]);
    });

    it("shows refunds in My Orders' rows, the admin's list and CSV, and the dashboard's money", async () => {
      const shopper = await createUserWithToken(t.app);
      const order = await paidOrder(shopper);
      const cod = await codOrder(shopper.auth);
      const before = await money();
      expect((await refund(order.id, { amount: 450, reason: 'Smaller cake' })).statusCode).toBe(201);
      expect(await money()).toMatchObject({
        refundsPending: before.refundsPending + 1,
        refunds30: before.refunds30 + 1,
        refunded30: before.refunded30 + 450,
      });
      const history = await t.app.inject({
        method: 'GET',
        url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(shopper.email)}`,
        headers: shopper.auth,
      });
      expect(history.statusCode).toBe(200);
      const rows = history.json().data as { orderID: number; refunds?: unknown }[];
      const paidRows = rows.filter((r) => r.orderID === order.id);
      expect(paidRows.length).toBeGreaterThan(0);
      for (const r of paidRows) {
        expect(r.refunds).toEqual([
          { amount: 450, status: 'pending', createdAt: expect.any(String), processedAt: null },
        ]);
      }
      expect(rows.find((r) => r.orderID === cod)?.refunds).toBeUndefined();

      const list = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders?q=${encodeURIComponent(shopper.email)}`,
        headers: admin.auth,
      });
      const items = list.json().data.items as { orderID: number; refunded?: number }[];
      const paidItem = items.find((i) => i.orderID === order.id);
      expect(paidItem?.refunded).toBe(450);
      const csv = ordersCsv(items as never, { origin: 'https://shop.example' });
      const [header, ...lines] = csv.slice(1).trim().split('\r\n');
      const column = (header ?? '').split('","').indexOf('Refunded (INR)');
      expect(column).toBeGreaterThan(0);
      const cell = (id: number) => lines.find((l) => l.startsWith(`"${id}"`))?.split('","')[column];
      expect(cell(order.id)).toBe('450');
      expect(cell(cod)).toBe('0');

      // A payment taken with no order (and no outcome yet) is counted until it has one.
      const now = Date.now();
      const stray = await t.app.db
        .insertInto('payments')
        .values({
          provider: 'razorpay',
          provider_order_id: `order_stray_${dialect}`,
          user_id: shopper.id,
          idempotency_key: newKey(),
          amount_paise: 10_000,
          currency: 'INR',
          status: 'captured',
          payment_id: `pay_stray_${dialect}`,
          order_id: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const counted = (await money()).paymentsWithoutOrder;
      expect(counted).toBe(before.paymentsWithoutOrder + 1);
      // Marked refunded, it still counts until its refund is on its way (kept, and not failed).
      await t.app.db
        .updateTable('payments')
        .set({ outcome: 'refunded' })
        .where('id', '=', stray.id)
        .execute();
      expect((await money()).paymentsWithoutOrder).toBe(before.paymentsWithoutOrder + 1);
      await t.app.db
        .insertInto('refunds')
        .values({
          payment_row_id: stray.id,
          order_id: null,
          kind: 'unplaceable',
          idempotency_key: `unplaced-stray-${dialect}`,
          amount_paise: 10_000,
          reason: 'stray',
          status: 'pending',
          provider_refund_id: null,
          failure_reason: null,
          created_by: 'shop',
          created_at: now,
          updated_at: now,
          processed_at: null,
          notified_at: null,
        })
        .execute();
      expect((await money()).paymentsWithoutOrder).toBe(before.paymentsWithoutOrder);
    });
  });

  describe(`refunds with the local test provider on ${dialect}`, () => {
    it('cancelling a paid order refunds it, and the refund is processed by its own event', async () => {
      const t = await makeTestApp(dialect, { testPayments: true });
      try {
        const product = await insertProduct(t.app, { price: 400 });
        const user = await createUserWithToken(t.app);
        const owner = await createUserWithToken(t.app, { role: '1' });
        const key = newKey();
        const body = orderRequest([{ product }], { PaymentMethod: 'Razorpay' });
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...user.auth, 'idempotency-key': key },
          payload: body,
        });
        const pay = await t.app.inject({
          method: 'POST',
          url: '/api/payments/test/pay',
          headers: user.auth,
          payload: { razorpay_order_id: created.json().data.razorpayOrderId },
        });
        const proof = pay.json().data;
        const placed = await t.app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...user.auth, 'idempotency-key': key },
          payload: {
            ...body,
            RazorpayPaymentId: proof.razorpay_payment_id,
            RazorpayOrderId: proof.razorpay_order_id,
            RazorpaySignature: proof.razorpay_signature,
          },
        });
        expect(placed.statusCode, placed.body).toBe(200);
        const id = placed.json().data.orderID as number;
        const cancelled = await t.app.inject({
          method: 'PUT',
          url: `/api/admin/orders/${id}/status`,
          headers: owner.auth,
          payload: { status: 'cancelled' },
        });
        expect(cancelled.statusCode).toBe(200);
        const state = async () =>
          (
            await t.app.db
              .selectFrom('refunds')
              .select(['status', 'notified_at', 'amount_paise'])
              .where('order_id', '=', id)
              .execute()
          ).map((r) => ({ ...r, amount_paise: Number(r.amount_paise), told: r.notified_at !== null }));
        // The test provider's refund.created and refund.processed come after its answer, on their own;
        // the shopper is told just after the refund moves (its own transaction), so both are waited for.
        await expect
          .poll(async () => (await state())[0], { timeout: 10_000 })
          .toMatchObject({ status: 'processed', told: true });
        expect(await state()).toEqual([
          expect.objectContaining({ status: 'processed', amount_paise: 55_000, told: true }),
        ]);
        const mine = await t.app.inject({ method: 'GET', url: `/api/my-orders/${id}`, headers: user.auth });
        expect(mine.json().data.refunds).toEqual([
          {
            amount: 550,
            status: 'processed',
            createdAt: expect.any(String),
            processedAt: expect.any(String),
          },
        ]);
      } finally {
        await t.close();
      }
    });
  });
}
