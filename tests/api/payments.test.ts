import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import {
  type FixtureProduct,
  insertProduct,
  newKey,
  orderRequest,
  setPrice,
} from '../support/order-fixtures.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`Razorpay payments on ${dialect}`, () => {
    let t: TestApp;
    let rzp: RazorpayDouble;
    let cake: FixtureProduct;

    beforeAll(async () => {
      rzp = await startRazorpayDouble();
      t = await makeTestApp(dialect, {
        razorpay: rzp.settings,
      });
      cake = await insertProduct(t.app, { price: 1200 });
    });
    afterAll(async () => {
      await t.close();
      await rzp.close();
    });

    const providerOrder = (body: unknown, auth: Auth, key?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...auth, ...(key ? { 'idempotency-key': key } : {}) },
        payload: body as object,
      });
    const place = (body: unknown, auth: Auth, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body as object,
      });
    const webhook = (body: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/payments/razorpay/webhook', headers, payload: body });
    const paymentRow = (providerOrderId: string) =>
      t.app.db
        .selectFrom('payments')
        .selectAll()
        .where('provider_order_id', '=', providerOrderId)
        .executeTakeFirstOrThrow();

    /** A cart, its provider order and what Checkout returns for it. */
    async function paidCart(user: { auth: Auth }, quantity = 1) {
      const key = newKey();
      const body = orderRequest([{ product: cake, quantity }], { PaymentMethod: 'Razorpay' });
      const created = await providerOrder(body, user.auth, key);
      expect(created.statusCode).toBe(200);
      const providerOrderId: string = created.json().data.razorpayOrderId;
      const paid = rzp.checkout(providerOrderId);
      return { key, body, providerOrderId, paid };
    }
    const withProof = (body: object, paid: ReturnType<RazorpayDouble['checkout']>) => ({
      ...body,
      RazorpayPaymentId: paid.razorpay_payment_id,
      RazorpayOrderId: paid.razorpay_order_id,
      RazorpaySignature: paid.razorpay_signature,
    });

    it('offers Cash on Delivery and Razorpay when keys are set', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
      expect(res.json().data).toEqual({
        methods: ['Cash on Delivery', 'Razorpay'],
        provider: 'razorpay',
        keyId: rzp.keyId,
      });
    });

    it('creates the provider order in paise, INR, with the key as receipt, once per key', async () => {
      const user = await createUserWithToken(t.app);
      const key = newKey();
      const body = orderRequest([{ product: cake, quantity: 2 }], { PaymentMethod: 'Razorpay' });
      const before = rzp.requests.length;
      const res = await providerOrder(body, user.auth, key);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({
        provider: 'razorpay',
        amount: 255_000,
        currency: 'INR',
        receipt: key,
        totalAmount: 2550,
      });
      const atProvider = rzp.orders.get(data.razorpayOrderId);
      expect(atProvider).toMatchObject({ amount: 255_000, currency: 'INR', receipt: key, status: 'created' });
      expect(rzp.requests.slice(before).every((r) => r.authorized)).toBe(true);
      const again = await providerOrder(body, user.auth, key);
      expect(again.json().data.razorpayOrderId).toBe(data.razorpayOrderId);
      expect(rzp.requests.length).toBe(before + 1);
    });

    it('refuses a provider order without a key, or for a tampered total', async () => {
      const user = await createUserWithToken(t.app);
      const body = orderRequest([{ product: cake }], { PaymentMethod: 'Razorpay' });
      expect((await providerOrder(body, user.auth)).statusCode).toBe(400);
      const tampered = await providerOrder({ ...body, TotalAmount: 1 }, user.auth, newKey());
      expect(tampered.statusCode).toBe(409);
      expect(tampered.json().data.total).toEqual({ old: 1, new: 1350 });
    });

    it('marks an order paid when the signature matches the stored provider order', async () => {
      const user = await createUserWithToken(t.app);
      const { key, body, providerOrderId, paid } = await paidCart(user);
      const res = await place(withProof(body, paid), user.auth, key);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'paid', paymentMethod: 'Razorpay', totalAmount: 1350 });
      const row = await paymentRow(providerOrderId);
      expect(row.order_id).toBe(res.json().data.orderID);
      expect(row.payment_id).toBe(paid.razorpay_payment_id);
      // The same answer comes back for the same key, and the payment is not used twice.
      const replay = await place(withProof(body, paid), user.auth, key);
      expect(replay.body).toBe(res.body);
      const reuse = await place(withProof(body, paid), user.auth, newKey());
      expect(reuse.statusCode).toBe(409);
      expect(reuse.json().sys_message).toBe(messages.paymentAlreadyUsed);
    });

    it('refuses tampered signatures, swapped ids and missing proof', async () => {
      const user = await createUserWithToken(t.app);
      const { body, paid } = await paidCart(user);
      // Another cart (the same cart under a new key pays the same provider order).
      const other = await paidCart(user, 2);
      const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
      const cases: [object, number, string][] = [
        [
          { ...withProof(body, paid), RazorpaySignature: flip(paid.razorpay_signature) },
          400,
          messages.paymentNotVerified,
        ],
        [{ ...withProof(body, paid), RazorpaySignature: 'zz' }, 400, messages.paymentNotVerified],
        [
          { ...withProof(body, paid), RazorpayPaymentId: 'pay_Forged0000000' },
          400,
          messages.paymentNotVerified,
        ],
        // A real signature for another provider order does not pay this one.
        [
          { ...withProof(body, paid), RazorpayOrderId: other.providerOrderId },
          400,
          messages.paymentNotVerified,
        ],
        [
          { ...withProof(body, paid), RazorpayOrderId: 'order_NeverMade00000' },
          400,
          messages.paymentNotVerified,
        ],
        [{ ...body, RazorpayOrderId: paid.razorpay_order_id }, 400, messages.paymentRequired],
        [{ ...body, RazorpayPaymentId: 'pay_Unknown0000000' }, 400, messages.paymentNotVerified],
        [{ ...body, RazorpayPaymentId: '../../v1/orders' }, 400, messages.paymentNotVerified],
      ];
      for (const [tampered, status, message] of cases) {
        const res = await place(tampered, user.auth);
        expect(res.statusCode, message).toBe(status);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
      }
      const orders = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(orders).toHaveLength(0);
    });

    describe("the spec's client (payment id only, no signature)", () => {
      const oldClient = (paymentId: string) => ({
        ...orderRequest([{ product: cake }], { PaymentMethod: 'Razorpay' }),
        RazorpayPaymentId: paymentId,
      });
      const placeWithoutKey = (body: object, auth: Auth) =>
        t.app.inject({ method: 'POST', url: '/api/place-order', headers: auth, payload: body });

      it('asks the provider about the payment and marks the order paid, once', async () => {
        const user = await createUserWithToken(t.app);
        const paymentId = (await paidCart(user)).paid.razorpay_payment_id;
        const res = await placeWithoutKey(oldClient(paymentId), user.auth);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({ status: 'paid', totalAmount: 1350 });
        expect(rzp.requests.some((r) => r.path === `/v1/payments/${paymentId}` && r.authorized)).toBe(true);
        const again = await placeWithoutKey(oldClient(paymentId), user.auth);
        expect(again.statusCode).toBe(409);
        expect(again.json().sys_message).toBe(messages.paymentAlreadyUsed);
      });

      it('answers 409 in-progress to a replay while the first request with the key is still running', async () => {
        const user = await createUserWithToken(t.app);
        const body = oldClient((await paidCart(user)).paid.razorpay_payment_id);
        const key = newKey();
        // The first request stops inside place-order, asking the provider about its payment.
        const held = rzp.holdPaymentLookups();
        const first = place(body, user.auth, key);
        await held.arrived;
        const meanwhile = await place(body, user.auth, key);
        expect(meanwhile.statusCode).toBe(409);
        expect(meanwhile.headers['retry-after']).toBe('1');
        expect(meanwhile.json()).toMatchObject({
          isSuccess: false,
          sys_message: messages.orderInProgress,
          data: { reason: 'in-progress' },
        });
        held.release();
        const done = await first;
        expect(done.statusCode).toBe(200);
        // After it finished, the same replay gets the stored answer.
        const replayed = await place(body, user.auth, key);
        expect(replayed.statusCode).toBe(200);
        expect(replayed.body).toBe(done.body);
      });

      it("refuses a stranger's payment of the same amount made without this shop's provider order", async () => {
        // A payment link, another shop of the same merchant, or another shopper's abandoned payment:
        // authorized, INR, exactly the order's total, never used here, and not this checkout's.
        const user = await createUserWithToken(t.app);
        for (const status of ['captured', 'authorized'] as const) {
          const res = await placeWithoutKey(oldClient(rzp.payWithoutOrder(135_000, status)), user.auth);
          expect(res.statusCode).toBe(400);
          expect(res.json()).toMatchObject({ isSuccess: false, sys_message: messages.paymentNotVerified });
        }
        const orders = await t.app.db
          .selectFrom('orders')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(orders).toEqual([]);
      });

      it('refuses a payment of another amount, a failed one, and one for a provider order not theirs', async () => {
        const user = await createUserWithToken(t.app);
        const other = await createUserWithToken(t.app);
        const short = await placeWithoutKey(oldClient(rzp.payWithoutOrder(100)), user.auth);
        expect(short.statusCode).toBe(409);
        expect(short.json().sys_message).toBe(messages.paymentAmountMismatch);
        const failed = await placeWithoutKey(oldClient(rzp.payWithoutOrder(135_000, 'failed')), user.auth);
        expect(failed.statusCode).toBe(400);
        expect(failed.json().sys_message).toBe(messages.paymentNotVerified);
        const { paid } = await paidCart(other);
        const foreign = await placeWithoutKey(oldClient(paid.razorpay_payment_id), user.auth);
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().sys_message).toBe(messages.paymentNotVerified);
      });
    });

    it("refuses another user's provider order even with its valid signature", async () => {
      const owner = await createUserWithToken(t.app);
      const thief = await createUserWithToken(t.app);
      const { body, paid } = await paidCart(owner);
      const res = await place(withProof(body, paid), thief.auth);
      expect(res.statusCode).toBe(400);
      expect(res.json().sys_message).toBe(messages.paymentNotVerified);
    });

    it('refuses a payment whose amount no longer matches the order', async () => {
      const user = await createUserWithToken(t.app);
      const product = await insertProduct(t.app, { price: 700 });
      const key = newKey();
      const body = orderRequest([{ product }], { PaymentMethod: 'Razorpay' });
      const created = await providerOrder(body, user.auth, key);
      const paid = rzp.checkout(created.json().data.razorpayOrderId);
      await setPrice(t.app, product.id, 650);
      const cheaper = {
        ...orderRequest([{ product: { ...product, price: 650 } }]),
        PaymentMethod: 'Razorpay',
      };
      const res = await place(withProof(cheaper, paid), user.auth, key);
      expect(res.statusCode).toBe(409);
      expect(res.json().sys_message).toBe(messages.paymentAmountMismatch);
    });

    describe('webhook', () => {
      it('handles an event once, however often it is delivered', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId, paid } = await paidCart(user);
        const event = rzp.webhook('payment.captured', {
          payment: {
            id: paid.razorpay_payment_id,
            order_id: providerOrderId,
            amount: 135_000,
            status: 'captured',
          },
        });
        const first = await webhook(event.body, event.headers);
        expect(first.statusCode).toBe(200);
        expect(first.json().data).toEqual({ handled: true, duplicate: false });
        const again = await webhook(event.body, event.headers);
        expect(again.statusCode).toBe(200);
        expect(again.json().data).toEqual({ handled: false, duplicate: true });
        expect((await paymentRow(providerOrderId)).status).toBe('captured');
      });

      it('a capture event marks a placed order paid, and never revives a cancelled one', async () => {
        const user = await createUserWithToken(t.app);
        const { key, body, providerOrderId, paid } = await paidCart(user);
        const placed = await place(withProof(body, paid), user.auth, key);
        expect(placed.json().data.status).toBe('paid');
        const orderId: number = placed.json().data.orderID;
        const orderStatus = async () =>
          (
            await t.app.db
              .selectFrom('orders')
              .select('status')
              .where('id', '=', orderId)
              .executeTakeFirstOrThrow()
          ).status;
        const entity = { id: paid.razorpay_payment_id, order_id: providerOrderId, amount: 135_000 };

        // A failure reported after the signature proved the payment changes neither payment nor order.
        const failed = rzp.webhook('payment.failed', { payment: entity });
        expect((await webhook(failed.body, failed.headers)).json().data).toEqual({
          handled: false,
          duplicate: false,
        });
        expect(await orderStatus()).toBe('paid');

        // Place-order marks the order paid on the signature already, so the webhook's step that marks
        // it paid only acts on an order still 'placed' (set here directly: no endpoint leaves a paid
        // order placed). The capture must move it to 'paid', once.
        await t.app.db.updateTable('orders').set({ status: 'placed' }).where('id', '=', orderId).execute();
        const captured = rzp.webhook('payment.captured', { payment: { ...entity, status: 'captured' } });
        expect((await webhook(captured.body, captured.headers)).json().data).toEqual({
          handled: true,
          duplicate: false,
        });
        expect(await orderStatus()).toBe('paid');
        expect((await paymentRow(providerOrderId)).status).toBe('captured');

        // A capture of a cancelled order leaves it cancelled (refunds are the shop's to make at the
        // provider; see api/payments/README.md).
        await t.app.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', orderId).execute();
        const late = rzp.webhook('order.paid', { order: { id: providerOrderId, amount_paid: 135_000 } });
        expect((await webhook(late.body, late.headers)).statusCode).toBe(200);
        expect(await orderStatus()).toBe('cancelled');
      });

      it('a capture of a different amount than the provider order is ignored', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId, paid } = await paidCart(user);
        const short = rzp.webhook('payment.captured', {
          payment: { id: paid.razorpay_payment_id, order_id: providerOrderId, amount: 100 },
        });
        expect((await webhook(short.body, short.headers)).json().data).toEqual({
          handled: false,
          duplicate: false,
        });
        expect((await paymentRow(providerOrderId)).status).toBe('created');
      });

      it('handles an event once when its deliveries arrive at the same time', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId, paid } = await paidCart(user);
        const event = rzp.webhook('payment.captured', {
          payment: { id: paid.razorpay_payment_id, order_id: providerOrderId, amount: 135_000 },
        });
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => webhook(event.body, event.headers)),
        );
        expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
        const data = answers.map((r) => r.json().data);
        expect(data.filter((d) => d.handled)).toHaveLength(1);
        expect(data.filter((d) => d.duplicate)).toHaveLength(9);
        expect((await paymentRow(providerOrderId)).status).toBe('captured');
      });

      it('never moves a payment back when events arrive out of order', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId, paid } = await paidCart(user);
        const entity = { id: paid.razorpay_payment_id, order_id: providerOrderId, amount: 135_000 };
        for (const name of ['payment.captured', 'payment.authorized', 'payment.failed']) {
          const e = rzp.webhook(name, { payment: entity });
          expect((await webhook(e.body, e.headers)).statusCode).toBe(200);
        }
        expect((await paymentRow(providerOrderId)).status).toBe('captured');
      });

      it('acknowledges events it has nothing to do with, and order.paid captures the payment', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId } = await paidCart(user);
        const refund = rzp.webhook('refund.created', {
          payment: { id: 'pay_Other', order_id: providerOrderId },
        });
        expect((await webhook(refund.body, refund.headers)).json().data).toEqual({
          handled: false,
          duplicate: false,
        });
        const stranger = rzp.webhook('payment.captured', {
          payment: { id: 'pay_Y', order_id: 'order_NotOurs00000' },
        });
        expect((await webhook(stranger.body, stranger.headers)).json().data).toEqual({
          handled: false,
          duplicate: false,
        });
        const paidEvent = rzp.webhook('order.paid', { order: { id: providerOrderId, amount_paid: 135_000 } });
        expect((await webhook(paidEvent.body, paidEvent.headers)).json().data).toEqual({
          handled: true,
          duplicate: false,
        });
        expect((await paymentRow(providerOrderId)).status).toBe('captured');
      });

      it('refuses tampered bodies and signatures', async () => {
        const user = await createUserWithToken(t.app);
        const { providerOrderId } = await paidCart(user);
        const e = rzp.webhook('payment.captured', {
          payment: { id: 'pay_X', order_id: providerOrderId, amount: 135_000 },
        });
        const tamperedBody = e.body.replace('135000', '100');
        const cases: [string, Record<string, string>][] = [
          [tamperedBody, e.headers],
          [e.body, { ...e.headers, 'x-razorpay-signature': '0'.repeat(64) }],
          [e.body, { 'content-type': 'application/json' }],
          // Same bytes re-serialized (spaces) no longer match: the signature covers the raw body.
          [JSON.stringify(JSON.parse(e.body), null, 1), e.headers],
        ];
        for (const [body, headers] of cases) {
          const res = await webhook(body, headers);
          expect(res.statusCode).toBe(400);
          expect(res.json().isSuccess).toBe(false);
        }
        expect((await paymentRow(providerOrderId)).status).toBe('created');
      });
    });
  });

  describe(`local test provider on ${dialect}`, () => {
    // Apps of their own, made one at a time: two PostgreSQL test schemas alive at once trip Kysely's migrator.
    it('answers 502 (not 500) when the provider is down', async () => {
      const down = await makeTestApp(dialect, {
        razorpay: {
          keyId: 'rzp_test_x',
          keySecret: 'secret',
          webhookSecret: null,
          apiUrl: 'http://127.0.0.1:9',
        },
      });
      try {
        const product = await insertProduct(down.app);
        const user = await createUserWithToken(down.app);
        const res = await down.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...user.auth, 'idempotency-key': newKey() },
          payload: orderRequest([{ product }], { PaymentMethod: 'Razorpay' }),
        });
        expect(res.statusCode).toBe(502);
        expect(res.json()).toMatchObject({
          isSuccess: false,
          sys_message: expect.stringContaining('payment provider'),
        });
      } finally {
        await down.close();
      }
    });
    it("tells the shopper only that the provider refused, and logs the provider's own answer", async () => {
      const rzp = await startRazorpayDouble();
      const log: string[] = [];
      const wrongKeys = await makeTestApp(
        dialect,
        { razorpay: { ...rzp.settings, keySecret: 'not-the-secret', webhookSecret: null } },
        { logger: { level: 'error', stream: { write: (line: string) => log.push(line) } } },
      );
      try {
        const product = await insertProduct(wrongKeys.app);
        const user = await createUserWithToken(wrongKeys.app);
        const res = await wrongKeys.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...user.auth, 'idempotency-key': newKey() },
          payload: orderRequest([{ product }], { PaymentMethod: 'Razorpay' }),
        });
        expect(res.statusCode).toBe(502);
        expect(res.json().sys_message).toBe(
          'The payment provider did not accept the order. Please try again.',
        );
        expect(res.body).not.toContain('Authentication failed');
        const entry = log
          .map((line) => JSON.parse(line))
          .find((e) => e.url === '/api/payments/razorpay/order');
        expect(entry?.cause).toMatchObject({
          providerStatus: 401,
          providerAnswer: { error: { description: 'Authentication failed' } },
        });
      } finally {
        await wrongKeys.close();
        await rzp.close();
      }
    });
    it('goes through the same flow without keys with TEST_PAYMENTS=true, and warns at start', async () => {
      const log: { level: number; msg: string }[] = [];
      const t = await makeTestApp(
        dialect,
        { testPayments: true, mode: 'production' },
        { logger: { level: 'warn', stream: { write: (line: string) => log.push(JSON.parse(line)) } } },
      );
      try {
        expect(log).toContainEqual(
          expect.objectContaining({ level: 40, msg: expect.stringContaining('no money moves') }),
        );
        const methods = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
        expect(methods.json().data).toMatchObject({
          methods: ['Cash on Delivery', 'Razorpay'],
          provider: 'test',
        });
        const product = await insertProduct(t.app, { price: 400 });
        const user = await createUserWithToken(t.app);
        const key = newKey();
        const body = orderRequest([{ product }], { PaymentMethod: 'Razorpay' });
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...user.auth, 'idempotency-key': key },
          payload: body,
        });
        expect(created.json().data).toMatchObject({ provider: 'test', amount: 55_000, receipt: key });
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
        expect(placed.statusCode).toBe(200);
        expect(placed.json().data.status).toBe('paid');
        const other = await createUserWithToken(t.app);
        const stolen = await t.app.inject({
          method: 'POST',
          url: '/api/payments/test/pay',
          headers: other.auth,
          payload: { razorpay_order_id: created.json().data.razorpayOrderId },
        });
        expect(stolen.statusCode).toBe(404);
      } finally {
        await t.close();
      }
    });

    it('answers 404 on the webhook when no webhook secret is set', async () => {
      const t = await makeTestApp(dialect);
      try {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/webhook',
          headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'ab' },
          payload: '{"event":"payment.captured"}',
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().isSuccess).toBe(false);
      } finally {
        await t.close();
      }
    });

    for (const mode of ['production', 'development', 'test'] as const)
      it(`offers Cash on Delivery only without keys and without TEST_PAYMENTS (${mode})`, async () => {
        await codOnly(mode);
      });

    async function codOnly(mode: 'production' | 'development' | 'test') {
      const t = await makeTestApp(dialect, { mode });
      try {
        const methods = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
        expect(methods.json().data).toEqual({ methods: ['Cash on Delivery'], provider: null, keyId: null });
        const product = await insertProduct(t.app);
        const user = await createUserWithToken(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: user.auth,
          payload: orderRequest([{ product }], { PaymentMethod: 'Razorpay' }),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().sys_message).toBe(messages.onlinePaymentUnavailable);
        const pay = await t.app.inject({
          method: 'POST',
          url: '/api/payments/test/pay',
          headers: user.auth,
          payload: {},
        });
        expect(pay.statusCode).toBe(404);
      } finally {
        await t.close();
      }
    }
  });
}
