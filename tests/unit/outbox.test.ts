import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CartLine, lineLabel } from '../../domain/cart.js';
import type { OrderRequestInput, PlacedOrder } from '../../domain/orders.js';
import { asDeliveryDate, BACKOFF_MAX_MS, backoffMs, classifyAnswer } from '../../domain/outbox.js';
import { ownOutboxRow, ownOutboxRows, ownWaitingOrders } from '../../sw/account-data.js';
import type { ShopDatabase } from '../../sw/db.js';
import { type OutboxEnv, queueOrder, sendDue, sendNow } from '../../sw/outbox.js';
import { type QueuedLine, upgradeRow } from '../../sw/outbox-row.js';
import {
  cancelOrder,
  changeAddress,
  changeDeliveryDate,
  confirmNewFigures,
  dismissOrder,
  removeGoneLine,
  requeuePaid,
} from '../../sw/outbox-shopper.js';
import { endSessionOnDevice, keepOnlyAccount } from '../../sw/session-writes.js';
import { placedAnswer } from '../support/order-fixtures.js';
import { signInOn, testDevice } from '../support/outbox-device.js';

/**
 * The outbox's state machine against a fake shop: a network that can fail,
 * lose answers, or answer anything, and a server that keeps the idempotency
 * protocol (the same key placed once, its answer replayed).
 */

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'network' | 'lose';

class FakeShop {
  placed = new Map<string, PlacedOrder>();
  requests: { key: string; body: OrderRequestInput; auth: string }[] = [];
  /** Scripted replies, one per request, before the shop's own behaviour ('lose': commit, then drop the answer). */
  script: Reply[] = [];
  nextId = 100;

  fetch: typeof fetch = async (_url, init) => {
    const headers = init?.headers as Record<string, string>;
    const key = headers['idempotency-key'] ?? '';
    const body = JSON.parse(String(init?.body)) as OrderRequestInput;
    this.requests.push({ key, body, auth: headers.authorization ?? '' });
    const step = this.script.shift();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (step && step !== 'lose') {
      return new Response(JSON.stringify(step.body ?? { isSuccess: false, data: null, sys_message: 'x' }), {
        status: step.status,
        headers: { 'content-type': 'application/json', ...step.headers },
      });
    }
    const order = this.placed.get(key) ?? this.place(key, body);
    if (step === 'lose') throw new TypeError('connection reset');
    return Response.json({ isSuccess: true, data: order, sys_message: 'Order placed successfully!' });
  };

  private place(key: string, body: OrderRequestInput): PlacedOrder {
    const order = placedAnswer(this.nextId++, body);
    this.placed.set(key, order);
    return order;
  }
}

let store: ShopDatabase;
let shop: FakeShop;
let clock: number;
let env: OutboxEnv;
let keyCounter = 0;

const request = (price = 500, quantity = 1): OrderRequestInput => ({
  DeliveryDate: '2026-12-01',
  CustomerName: 'Asha',
  CustomerEmail: 'asha@example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 12',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: price * quantity + 150,
  OrderItems: [
    {
      ProductID: 1,
      VariationID: null,
      ProductName: 'Cake',
      Price: price,
      Quantity: quantity,
      ProductImage: '',
    },
    { ProductID: 2, VariationID: null, ProductName: 'Roses', Price: 0, Quantity: 1, ProductImage: '' },
  ],
});

const signIn = (userId = 7, tag = 'a') => signInOn(store, userId, tag);

async function queue(userId = 7, req = request(), lines?: QueuedLine[]): Promise<string> {
  keyCounter += 1;
  const key = `00000000-0000-4000-8000-${String(keyCounter).padStart(12, '0')}`;
  await queueOrder(
    {
      key,
      userId,
      email: 'asha@example.com',
      request: req,
      figures: {
        subtotal: req.TotalAmount - 150,
        deliveryCharge: 150,
        slotCharge: 0,
        discount: 0,
        total: req.TotalAmount,
        couponAmount: 0,
      },
      cartKeys: [],
      ...(lines ? { lines } : {}),
    },
    env,
  );
  clock += 1;
  return key;
}

const row = async (key: string) => {
  const stored = await store.outbox.get(key);
  if (!stored) throw new Error(`no row ${key}`);
  return upgradeRow(stored);
};
const at = (xs: string[], i: number): string => xs[i] ?? '';

beforeEach(async () => {
  shop = new FakeShop();
  clock = 1_000_000;
  ({ store, env } = testDevice('outbox', shop.fetch, () => clock));
  await signIn();
});
afterEach(async () => {
  store.close();
  await store.delete();
});

describe('answers, one handling each', () => {
  it('classifies every answer the server gives', () => {
    const env = (data: unknown, msg = 'm') => ({ isSuccess: false, data, sys_message: msg });
    const c = (status: number, body: unknown = null, retryAfter: string | null = null) =>
      classifyAnswer({ status, body, retryAfter }, 0);
    expect(c(0)).toMatchObject({ kind: 'retry', transport: true });
    expect(c(200, { isSuccess: true, data: { orderID: 5 } })).toMatchObject({ kind: 'sent' });
    expect(c(200, '<html>')).toMatchObject({ kind: 'retry', transport: true });
    expect(c(503)).toMatchObject({ kind: 'retry', transport: false, afterMs: null });
    expect(c(429, null, '7')).toMatchObject({ kind: 'retry', transport: true, afterMs: 7000 });
    expect(c(409, env({ reason: 'in-progress' }), '1')).toMatchObject({ kind: 'retry', afterMs: 1000 });
    expect(c(409, env({ reason: 'repriced' }))).toMatchObject({
      kind: 'attention',
      problem: { kind: 'repriced' },
    });
    expect(c(404, env({ reason: 'product-gone' }))).toMatchObject({ problem: { kind: 'product-gone' } });
    expect(c(400, env({ reason: 'delivery-date' }))).toMatchObject({ problem: { kind: 'delivery-date' } });
    expect(c(400, env({ reason: 'undeliverable' }))).toMatchObject({ problem: { kind: 'undeliverable' } });
    expect(c(401)).toMatchObject({ problem: { kind: 'signin' } });
    expect(c(422, env(null, 'reused'))).toMatchObject({ problem: { kind: 'defect', message: 'reused' } });
    expect(c(400, env(null, 'Please complete the online payment first.'))).toMatchObject({
      problem: { kind: 'refused', message: 'Please complete the online payment first.' },
    });
  });

  it("reads the delivery areas' 422s as what the shopper can fix, and only a bare 422 as a defect", () => {
    const c = (data: unknown) =>
      classifyAnswer(
        { status: 422, body: { isSuccess: false, data, sys_message: 'no' }, retryAfter: null },
        0,
      );
    const dates = { earliestDeliveryDate: '2026-12-02', latestDeliveryDate: '2027-03-01' };
    const next = [{ date: '2026-12-02', slotID: 1, name: 'Standard', start: 540, end: 1260, surcharge: 0 }];
    expect(c({ reason: 'undeliverable' })).toMatchObject({ problem: { kind: 'undeliverable', status: 422 } });
    expect(c({ reason: 'pincode-mismatch', city: 'Mohali' })).toMatchObject({
      problem: { kind: 'undeliverable', message: 'no' },
    });
    expect(c({ reason: 'no-same-day', ...dates })).toMatchObject({ problem: { kind: 'delivery-date' } });
    expect(asDeliveryDate({ reason: 'no-same-day', ...dates })).toEqual(dates);
    expect(c({ reason: 'no-same-day' })).toMatchObject({ problem: { kind: 'undeliverable' } });
    expect(c({ reason: 'slot-not-offered', next })).toMatchObject({ problem: { kind: 'slot' } });
    expect(c({ reason: 'slot-not-offered' })).toMatchObject({ problem: { kind: 'undeliverable' } });
    expect(c({ reason: 'key-reused' })).toMatchObject({ problem: { kind: 'defect' } });
    expect(c(null)).toMatchObject({ problem: { kind: 'defect' } });
  });

  it("reads the Cash on Delivery rules' 422 as a refusal the shopper settles, with the server's words", () => {
    const says = 'Cash on Delivery is available up to ₹5,000. Please pay online.';
    const answer = classifyAnswer(
      {
        status: 422,
        body: { isSuccess: false, data: { reason: 'cod', rule: 'limit', limit: 5_000 }, sys_message: says },
        retryAfter: null,
      },
      0,
    );
    expect(answer).toEqual({
      kind: 'attention',
      problem: {
        kind: 'cod',
        status: 422,
        message: says,
        data: { reason: 'cod', rule: 'limit', limit: 5_000 },
      },
    });
  });

  it('backs off from 2 s, doubling, to 5 min, with jitter between half and all', () => {
    expect(backoffMs(1, 1)).toBe(2000);
    expect(backoffMs(1, 0)).toBe(1000);
    expect(backoffMs(2, 1)).toBe(4000);
    expect(backoffMs(5, 1)).toBe(32_000);
    expect(backoffMs(9, 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(500, 0.5)).toBe(BACKOFF_MAX_MS * 0.75);
  });
});

describe('the outbox', () => {
  it('stores the order and empties its cart lines in one transaction', async () => {
    const line = (key: string): CartLine => ({
      key,
      productID: 1,
      variationID: null,
      variationName: null,
      title: 'Cake',
      image: '',
      price: 500,
      quantity: 1,
      addedAt: 1,
    });
    await store.cart.bulkPut([line('1:base'), line('9:base')]);
    await queueOrder(
      {
        key: 'k-1',
        userId: 7,
        email: 'a@b.c',
        request: request(),
        figures: {
          subtotal: 500,
          deliveryCharge: 150,
          slotCharge: 0,
          discount: 0,
          total: 650,
          couponAmount: 0,
        },
        cartKeys: ['1:base'],
      },
      env,
    );
    expect((await store.cart.toArray()).map((l) => l.key)).toEqual(['9:base']);
    expect(await row('k-1')).toMatchObject({ state: 'queued', attempts: 0, v: 1 });
    // A second order under the same key is refused and changes nothing (the transaction aborts).
    await expect(
      queueOrder(
        {
          key: 'k-1',
          userId: 7,
          email: 'a',
          request: request(),
          figures: (await row('k-1')).figures,
          cartKeys: ['9:base'],
        },
        env,
      ),
    ).rejects.toThrow();
    expect(await store.cart.count()).toBe(1);
  });

  it('2xx: sent, with the order id kept', async () => {
    const key = await queue();
    const result = await sendDue(env);
    expect(result.sent.map((r) => r.key)).toEqual([key]);
    expect(await row(key)).toMatchObject({ state: 'sent', placed: { orderID: 100 }, problem: null });
    expect(shop.requests[0]?.key).toBe(key);
  });

  it('network failures retry with the same key and growing back-off, forever, never dropped', async () => {
    const key = await queue();
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      shop.script.push('network');
      await sendDue(env);
      const r = await row(key);
      expect(r.state).toBe('queued');
      waits.push(r.nextAttemptAt - clock);
      // Not due yet: a pass before the back-off sends nothing.
      const before = shop.requests.length;
      await sendDue(env);
      expect(shop.requests.length).toBe(before);
      clock = r.nextAttemptAt;
    }
    expect(waits.slice(0, 5)).toEqual([2000, 4000, 8000, 16000, 32000]);
    expect(waits.at(-1)).toBe(BACKOFF_MAX_MS);
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'sent', attempts: 0 });
    expect(new Set(shop.requests.map((r) => r.key))).toEqual(new Set([key]));
    expect(shop.placed.size).toBe(1);
  });

  it('a lost answer of a committed order is asked for again and placed once', async () => {
    const key = await queue();
    shop.script.push('lose', 'lose', 'lose');
    for (let i = 0; i < 3; i++) {
      await sendDue(env, { force: true });
      expect((await row(key)).state).toBe('queued');
    }
    await sendDue(env, { force: true });
    expect(await row(key)).toMatchObject({ state: 'sent', placed: { orderID: 100 } });
    expect(shop.placed.size).toBe(1);
    expect(shop.requests).toHaveLength(4);
  });

  it('a forced pass (the network is back) restarts the back-off of what the network refused', async () => {
    const key = await queue();
    for (let i = 0; i < 10; i++) {
      shop.script.push('network');
      await sendDue(env, { force: true });
    }
    const r = await row(key);
    expect(r.attempts).toBe(1);
    expect(r.nextAttemptAt - clock).toBe(2000);
    // Without the network coming back, failures keep doubling.
    clock = r.nextAttemptAt;
    shop.script.push('network');
    await sendDue(env);
    expect((await row(key)).nextAttemptAt - clock).toBe(4000);
  });

  it('a network failure defers the rest of the pass; a success sends what waited for the network', async () => {
    const keys = [await queue(), await queue(), await queue()];
    shop.script.push('network');
    await sendDue(env);
    expect(shop.requests).toHaveLength(1);
    const after = await Promise.all(keys.map(row));
    expect(after.map((r) => r.state)).toEqual(['queued', 'queued', 'queued']);
    // The untried rows wait with the one that failed, without a failure of their own.
    expect(after.map((r) => [r.attempts, r.nextAttemptAt - clock])).toEqual([
      [1, 2000],
      [0, 2000],
      [0, 2000],
    ]);
    // The first row is due again first; its success proves the network up and takes the others along.
    clock = (await row(at(keys, 0))).nextAttemptAt;
    await store.outbox.update(at(keys, 1), { nextAttemptAt: clock + 60_000 });
    await store.outbox.update(at(keys, 2), { nextAttemptAt: clock + 60_000 });
    await sendDue(env);
    expect((await Promise.all(keys.map(row))).map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
  });

  it('5xx and 429 retry; in-progress retries after Retry-After', async () => {
    const a = await queue();
    shop.script.push({ status: 503 });
    await sendDue(env);
    expect(await row(a)).toMatchObject({ state: 'queued', lastError: '503', nextAttemptAt: clock + 2000 });
    shop.script.push({
      status: 409,
      body: { isSuccess: false, data: { reason: 'in-progress' }, sys_message: 'wait' },
      headers: { 'retry-after': '1' },
    });
    await sendDue(env, { force: true });
    expect(await row(a)).toMatchObject({ state: 'queued', nextAttemptAt: clock + 1000 });
    shop.script.push({ status: 429, headers: { 'retry-after': '30' } });
    await sendDue(env, { force: true });
    expect(await row(a)).toMatchObject({ state: 'queued', nextAttemptAt: clock + 30_000 });
    await sendDue(env, { force: true });
    expect((await row(a)).state).toBe('sent');
  });

  it('409 with new figures waits; Confirm resends the new total with the SAME key', async () => {
    const key = await queue(7, request(500));
    const second = await queue();
    const repriced = {
      reason: 'repriced',
      lines: [
        {
          productID: 1,
          variationID: null,
          productName: 'Cake',
          quantity: 1,
          old: { price: 500, lineTotal: 500 },
          new: { price: 550, lineTotal: 550 },
        },
        {
          productID: 2,
          variationID: null,
          productName: 'Roses',
          quantity: 1,
          old: { price: 0, lineTotal: 0 },
          new: { price: 0, lineTotal: 0 },
        },
      ],
      subtotal: 550,
      deliveryCharge: 150,
      discount: 0,
      total: { old: 650, new: 700 },
      coupon: null,
    };
    shop.script.push({
      status: 409,
      body: { isSuccess: false, data: repriced, sys_message: 'Prices have changed' },
    });
    const result = await sendDue(env);
    // The refused order waits alone: the one behind it went.
    expect(result.attention).toBe(1);
    expect(await row(key)).toMatchObject({ state: 'attention', problem: { kind: 'repriced', status: 409 } });
    expect((await row(second)).state).toBe('sent');
    // Waiting for the shopper, it is never sent on its own.
    await sendDue(env, { force: true });
    expect(shop.requests.filter((r) => r.key === key)).toHaveLength(1);
    expect(await confirmNewFigures(key, env)).toBe(true);
    await sendDue(env);
    const sent = shop.requests.filter((r) => r.key === key);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body.TotalAmount).toBe(700);
    expect(sent[1]?.body.OrderItems[0]?.Price).toBe(550);
    expect(await row(key)).toMatchObject({ state: 'sent', figures: { total: 700 } });
  });

  it('a product gone: remove the line and resend, or cancel and get the lines back in the cart', async () => {
    const key = await queue(7, request(500));
    const gone = {
      status: 404,
      body: {
        isSuccess: false,
        data: { reason: 'product-gone', productID: 2, productName: 'Roses' },
        sys_message: 'Roses is no longer available.',
      },
    } as const;
    shop.script.push(gone);
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'attention', problem: { kind: 'product-gone' } });
    expect(await removeGoneLine(key, env)).toBe(true);
    expect((await row(key)).request.OrderItems.map((i) => i.ProductID)).toEqual([1]);
    await sendDue(env);
    expect((await row(key)).state).toBe('sent');

    const other = await queue(7, request(300, 2));
    shop.script.push(gone);
    await sendDue(env);
    expect(await cancelOrder(other, env)).toBe(true);
    expect((await row(other)).state).toBe('cancelled');
    expect((await store.cart.toArray()).map((l) => [l.key, l.quantity]).sort()).toEqual([
      ['1:base', 2],
      ['2:base', 1],
    ]);
    await sendDue(env, { force: true });
    expect(shop.requests.filter((r) => r.key === other)).toHaveLength(1);
  });

  it('keeps what each line chose, and a cancelled order puts its lines back with their option', async () => {
    const req = request(1199);
    const kilo = req.OrderItems[0];
    if (kilo) kilo.VariationID = 12;
    const chose: QueuedLine[] = [
      { productID: 1, variationID: 12, variationName: 'Weight', variationValue: '1 kg', baseSize: null },
      { productID: 2, variationID: null, variationName: null, variationValue: null, baseSize: null },
    ];
    const key = await queue(7, req, chose);
    expect((await row(key)).lines).toEqual(chose);
    shop.script.push({
      status: 404,
      body: {
        isSuccess: false,
        data: { reason: 'product-gone', productID: 2, productName: 'Roses' },
        sys_message: 'Roses is no longer available.',
      },
    });
    await sendDue(env);
    expect(await cancelOrder(key, env)).toBe(true);
    const back = await store.cart.get('1:12');
    expect(back).toMatchObject({ variationName: 'Weight', variationValue: '1 kg' });
    expect(lineLabel(back as CartLine)).toBe('Cake (Weight: 1 kg)');
  });

  it('a delivery date refused after the cut-off: pick another and it goes', async () => {
    const key = await queue();
    shop.script.push({
      status: 400,
      body: {
        isSuccess: false,
        data: {
          reason: 'delivery-date',
          earliestDeliveryDate: '2026-12-02',
          latestDeliveryDate: '2027-03-01',
        },
        sys_message: 'The earliest delivery date is 2026-12-02.',
      },
    });
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'attention', problem: { kind: 'delivery-date' } });
    expect(await changeDeliveryDate(key, '2026-12-02', env)).toBe(true);
    await sendDue(env);
    expect(shop.requests.at(-1)).toMatchObject({ key, body: { DeliveryDate: '2026-12-02' } });
    expect((await row(key)).state).toBe('sent');
  });

  it('a 422 for a pincode the shop stopped delivering to waits for the shopper: never resent as it is, sent to a new address', async () => {
    const key = await queue();
    shop.script.push({
      status: 422,
      body: {
        isSuccess: false,
        data: { reason: 'undeliverable' },
        sys_message: "We don't deliver to 160062 yet.",
      },
    });
    await sendDue(env);
    expect(await row(key)).toMatchObject({
      state: 'attention',
      problem: { kind: 'undeliverable', status: 422, message: "We don't deliver to 160062 yet." },
    });
    // Not retried silently, not dropped: a forced pass leaves it waiting.
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(1);
    expect((await row(key)).state).toBe('attention');
    const zirakpur = { pincode: '140603', city: 'Zirakpur', state: 'Punjab', charge: 250 };
    expect(await changeAddress(key, { area: zirakpur, address: '  ' }, env)).toBe(false);
    expect(await changeAddress(key, { area: zirakpur, address: 'Flat 3, VIP Road' }, env)).toBe(true);
    expect(await row(key)).toMatchObject({
      state: 'queued',
      problem: null,
      figures: { deliveryCharge: 250, total: 500 + 250 },
    });
    await sendDue(env);
    expect(shop.requests.at(-1)).toMatchObject({
      key,
      body: {
        CustomerPincode: '140603',
        State: 'Punjab',
        City: 'Zirakpur',
        CustomerAddress: 'Flat 3, VIP Road',
        TotalAmount: 750,
      },
    });
    expect((await row(key)).state).toBe('sent');
    // Only an address refusal takes a new address.
    const other = await queue();
    shop.script.push({ status: 401 });
    await sendDue(env);
    expect(await changeAddress(other, { area: zirakpur, address: 'Flat 3' }, env)).toBe(false);
  });

  it('a pincode refused while offline can be cancelled: its lines go back to the cart', async () => {
    const key = await queue();
    shop.script.push({
      status: 422,
      body: {
        isSuccess: false,
        data: { reason: 'pincode-mismatch' },
        sys_message: 'Pincode 160062 is in Mohali.',
      },
    });
    await sendDue(env);
    expect((await row(key)).problem?.kind).toBe('undeliverable');
    expect(await cancelOrder(key, env)).toBe(true);
    expect((await row(key)).state).toBe('cancelled');
  });

  it('a Cash on Delivery order the rules refused waits; paid online from its row it is sent once, with the proof, under the SAME key; or cancelled, its lines go back', async () => {
    const key = await queue();
    const said = 'Cash on Delivery is available up to ₹400. Please pay online.';
    shop.script.push({
      status: 422,
      body: { isSuccess: false, data: { reason: 'cod', rule: 'limit', limit: 400 }, sys_message: said },
    });
    await sendDue(env);
    expect((await row(key)).problem?.kind).toBe('cod');
    // Nothing else settles it: only the payment's proof (or a cancel) moves it.
    expect(await confirmNewFigures(key, env)).toBe(false);
    const paid = {
      ...request(),
      PaymentMethod: 'Razorpay',
      RazorpayOrderId: 'order_1',
      RazorpayPaymentId: 'pay_1',
      RazorpaySignature: 'sig',
    } as OrderRequestInput;
    await store.payments.put({
      key,
      userId: 7,
      email: 'asha@example.com',
      providerOrder: {
        provider: 'test',
        keyId: 'test',
        razorpayOrderId: 'order_1',
        amount: 50_000,
        currency: 'INR',
        receipt: key,
        totalAmount: 500,
      },
      order: { request: paid, figures: (await row(key)).figures, slot: null, cartKeys: [] },
      createdAt: clock,
    });
    expect(await requeuePaid(key, paid, env)).toBe(true);
    expect(await store.payments.count()).toBe(0);
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'sent', request: paid });
    expect(shop.requests.map((r) => [r.key, r.body.PaymentMethod])).toEqual([
      [key, 'Cash on Delivery'],
      [key, 'Razorpay'],
    ]);
    // Sent: it waits no more, so a second proof (another tab) changes nothing.
    expect(await requeuePaid(key, paid, env)).toBe(false);
    // Or Cancel: never sent, its lines back in the cart.
    const cancelled = await queue();
    shop.script.push({
      status: 422,
      body: { isSuccess: false, data: { reason: 'cod', rule: 'off' }, sys_message: said },
    });
    await sendDue(env);
    expect(await cancelOrder(cancelled, env)).toBe(true);
    expect((await row(cancelled)).state).toBe('cancelled');
    expect((await store.cart.toArray()).map((l) => l.productID)).toEqual(
      request().OrderItems.map((i) => i.ProductID),
    );
    expect(await requeuePaid(cancelled, paid, env)).toBe(false);
    // Any other refusal is not settled by a payment.
    const other = await queue();
    shop.script.push({
      status: 404,
      body: { isSuccess: false, data: { reason: 'product-gone' }, sys_message: 'x' },
    });
    await sendDue(env);
    expect(await requeuePaid(other, paid, env)).toBe(false);
  });

  it('401 waits for a new sign-in, then continues with the new token; it cannot be cancelled', async () => {
    const key = await queue();
    shop.script.push({ status: 401 });
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'attention', problem: { kind: 'signin' } });
    expect(await cancelOrder(key, env)).toBe(false);
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(1);
    const fresh = await signIn(7, 'b');
    await sendDue(env);
    expect(shop.requests.at(-1)).toMatchObject({ key, auth: `Bearer ${fresh}` });
    expect((await row(key)).state).toBe('sent');
  });

  it('orders of another account wait for it, and survive logout', async () => {
    const mine = await queue(7);
    const theirs = await queue(8);
    await sendDue(env);
    expect((await row(mine)).state).toBe('sent');
    expect(await row(theirs)).toMatchObject({ state: 'attention', problem: { kind: 'signin' } });
    await store.session.clear();
    const third = await queue(7);
    await sendDue(env);
    expect((await row(third)).state).toBe('attention');
    await signIn(8);
    await sendDue(env);
    expect((await row(theirs)).state).toBe('sent');
    expect((await row(third)).state).toBe('attention');
    expect(shop.requests.map((r) => r.key)).toEqual([mine, theirs]);
  });

  it('422 (same key, other body) is a defect: shown, logged, never resent', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const key = await queue();
    shop.script.push({
      status: 422,
      body: {
        isSuccess: false,
        data: null,
        sys_message: 'This Idempotency-Key was already used for a different order.',
      },
    });
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'attention', problem: { kind: 'defect', status: 422 } });
    expect(errors).toHaveBeenCalled();
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(1);
    expect(await cancelOrder(key, env)).toBe(false);
    expect(await dismissOrder(key, env)).toBe(true);
    errors.mockRestore();
  });

  it('a row left "sending" by a sender that died is sent again with the same key, once', async () => {
    const key = await queue();
    shop.script.push('lose');
    await sendDue(env);
    await store.outbox.update(key, { state: 'sending', nextAttemptAt: clock + 999_999 });
    await sendDue(env);
    expect(await row(key)).toMatchObject({ state: 'sent', placed: { orderID: 100 } });
    expect(shop.placed.size).toBe(1);
  });

  it('senders in one scope take turns: two passes at once send each order once', async () => {
    const keys = [await queue(), await queue(), await queue()];
    const [a, b, c] = await Promise.all([sendDue(env), sendDue(env), sendNow(at(keys, 2), env)]);
    expect(a.sent.length + b.sent.length).toBe(3);
    expect(c?.state).toBe('sent');
    expect(shop.requests).toHaveLength(3);
  });

  it('reads rows of an older format', () => {
    const old = upgradeRow({ key: 'x', state: 'queued', request: request(), userId: 7 } as never);
    expect(old).toMatchObject({
      v: 1,
      attempts: 0,
      figures: { total: 650 },
      problem: null,
      announced: false,
    });
  });
});

describe('a shared phone: whose orders', () => {
  const gone = {
    status: 404,
    body: {
      isSuccess: false,
      data: { reason: 'product-gone', productID: 2, productName: 'Roses' },
      sys_message: 'Roses is no longer available.',
    },
  } as const;
  const history = (userId: number) => ({ userId, rows: [], fetchedAt: clock });

  it('another account cannot confirm, fix or cancel an order waiting for its shopper', async () => {
    await signIn(8);
    const theirs = await queue(8);
    shop.script.push(gone);
    await sendDue(env);
    expect((await row(theirs)).state).toBe('attention');

    await signIn(7);
    expect(await cancelOrder(theirs, env)).toBe(false);
    expect(await removeGoneLine(theirs, env)).toBe(false);
    await store.session.clear();
    expect(await cancelOrder(theirs, env)).toBe(false);
    expect(await row(theirs)).toMatchObject({ state: 'attention', problem: { kind: 'product-gone' } });
    expect(await store.cart.count()).toBe(0);

    await signIn(8);
    expect(await removeGoneLine(theirs, env)).toBe(true);
  });

  it("each account reads its own rows only; logged out, nobody's", async () => {
    const mine = await queue(7);
    const theirs = await queue(8);
    await sendDue(env);
    expect((await ownOutboxRows(7, store)).map((r) => r.key)).toEqual([mine]);
    expect((await ownWaitingOrders(7, store)).map((r) => r.key)).toEqual([]);
    expect((await ownWaitingOrders(8, store)).map((r) => r.key)).toEqual([theirs]);
    expect(await ownOutboxRow(theirs, 7, store)).toBeNull();
    expect((await ownOutboxRow(theirs, 8, store))?.key).toBe(theirs);
    for (const nobody of [null, undefined, 0]) {
      expect(await ownOutboxRows(nobody, store)).toEqual([]);
      expect(await ownOutboxRow(mine, nobody, store)).toBeNull();
    }
    // A row of an old format without an owner reads as account 0's: nobody's.
    await store.outbox.put({ key: 'ownerless', state: 'queued', request: request() } as never);
    expect(await ownOutboxRow('ownerless', 0, store)).toBeNull();
  });

  it("logout takes the account's sent orders and history copy off the device; waiting orders and the cart stay", async () => {
    const first = await signIn(7);
    const sent = await queue(7);
    await sendDue(env);
    const refused = await queue(7);
    shop.script.push(gone);
    await sendDue(env);
    expect(await cancelOrder(refused, env)).toBe(true);
    shop.script.push('network');
    const waiting = await queue(7);
    await sendDue(env);
    expect((await row(sent)).state).toBe('sent');
    expect((await row(waiting)).state).toBe('queued');
    await store.orderHistory.put(history(7));
    const cartLines = await store.cart.count();
    expect(cartLines).toBeGreaterThan(0);

    await endSessionOnDevice(store);
    expect(await store.session.count()).toBe(0);
    expect((await store.outbox.toArray()).map((r) => r.key)).toEqual([waiting]);
    expect(await store.orderHistory.count()).toBe(0);
    expect(await store.cart.count()).toBe(cartLines);

    // Never sent with another account's session; its own account's next login sends it.
    await signIn(8);
    await sendDue(env, { force: true });
    expect(await row(waiting)).toMatchObject({ state: 'attention', problem: { kind: 'signin' } });
    const again = await signIn(7, 'b');
    await sendDue(env);
    expect((await row(waiting)).state).toBe('sent');
    expect(shop.requests.filter((r) => r.key === waiting).map((r) => r.auth)).toEqual([
      `Bearer ${first}`,
      `Bearer ${again}`,
    ]);
  });

  it('an order whose answer comes after its account logged out leaves the phone, unannounced', async () => {
    const announced: string[] = [];
    const key = await queue(7);
    const logoutMidRequest: typeof fetch = async (input, init) => {
      await endSessionOnDevice(store);
      return shop.fetch(input, init);
    };
    await sendDue({ ...env, fetch: logoutMidRequest, onPlaced: (r) => void announced.push(r.key) });
    expect(shop.placed.has(key)).toBe(true);
    expect(await store.outbox.get(key)).toBeUndefined();
    expect(announced).toEqual([]);
  });

  it("a sign-in keeps that account's data and drops what other accounts left behind", async () => {
    const mine = await queue(7);
    await sendDue(env);
    await store.session.clear();
    const theirs = await queue(8);
    await sendDue(env);
    await store.orderHistory.bulkPut([history(7), history(8)]);
    expect((await row(mine)).state).toBe('sent');
    await keepOnlyAccount(8, store);
    expect((await store.outbox.toArray()).map((r) => r.key)).toEqual([theirs]);
    expect((await store.orderHistory.toArray()).map((h) => h.userId)).toEqual([8]);
  });
});
