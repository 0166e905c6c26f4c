/**
 * A payment whose page died (in the UPI app): the phone keeps it in Dexie before Checkout opens,
 * ends it with its outbox row in one transaction, and, when the shop opens again, does what the
 * server's answer means (`domain/payment-resume.ts`). Real Dexie (fake-indexeddb); the server's
 * answer is given per test (the endpoint itself runs in tests/e2e/paid-means-placed.test.ts).
 */
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CartLine } from '../../domain/cart.js';
import { paymentResumeMessages as t } from '../../domain/checkout-messages.js';
import type { OrderRequestInput, PlacedOrder } from '../../domain/orders.js';
import { paymentOnPhone, withProof } from '../../domain/payment-resume.js';
import type { PaymentAttempt, ProviderOrder } from '../../domain/payments.contract.js';
import { unplacedMessages } from '../../domain/refunds.js';
import { ShopDatabase } from '../../sw/db.js';
import { defaultEnv, queueOrder } from '../../sw/outbox.js';
import type { OutboxRow, PaymentFound, PaymentRow } from '../../sw/outbox-row.js';
import { PaymentNotices } from '../../web/checkout/PaymentInProgress.js';
import {
  type Ask,
  backToCart,
  mergeFound,
  paymentRowOf,
  resumePass,
  startedHere,
} from '../../web/checkout/payment-resume.js';
import { placedAnswer } from '../support/order-fixtures.js';

const USER = 7;
let store: ShopDatabase;

beforeEach(async () => {
  store = new ShopDatabase(`resume-${Math.random()}`);
  startedHere.clear();
});
afterEach(async () => {
  await store.delete();
});

function line(productID: number, price = 500): CartLine {
  return {
    key: `${productID}:base`,
    productID,
    variationID: null,
    variationName: null,
    title: `Cake ${productID}`,
    image: '',
    price,
    quantity: 1,
    addedAt: productID,
  };
}

function request(total = 1000): OrderRequestInput {
  return {
    DeliveryDate: '2026-12-01',
    CustomerName: 'Asha',
    CustomerEmail: 'asha@example.com',
    CustomerPhone: '9876543210',
    CustomerAddress: '12 Mall Road',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160055',
    PaymentMethod: 'Razorpay',
    TotalAmount: total,
    OrderItems: [
      { ProductID: 1, ProductName: 'Cake 1', Price: 500, Quantity: 1, VariationID: null },
      { ProductID: 2, ProductName: 'Cake 2', Price: 500, Quantity: 1, VariationID: null },
    ],
    CouponCode: null,
  } as OrderRequestInput;
}

function providerOrder(key: string, total = 1000): ProviderOrder {
  return {
    provider: 'razorpay',
    keyId: 'rzp_test_x',
    razorpayOrderId: `order_${key}`,
    amount: total * 100,
    currency: 'INR',
    receipt: key,
    totalAmount: total,
  };
}

/** A payment in progress for cart lines 1 and 2 (line 3 stays out of it), as the checkout keeps it. */
async function paying(key: string, userId = USER, createdAt = 1): Promise<PaymentRow> {
  const row = paymentRowOf(
    {
      key,
      userId,
      email: 'asha@example.com',
      request: request(),
      figures: {
        subtotal: 1000,
        deliveryCharge: 0,
        slotCharge: 0,
        discount: 0,
        total: 1000,
        couponAmount: 0,
      },
      slot: null,
      cartKeys: ['1:base', '2:base'],
      lines: [1, 2].map((productID) => ({
        productID,
        variationID: null,
        variationName: null,
        variationValue: null,
        baseSize: null,
      })),
      photos: [{ item: 0, key: 'photo-1', blob: new Blob(['jpeg']), photoID: 'ph_1' }],
    },
    providerOrder(key),
    createdAt,
  );
  await store.payments.put(row);
  return row;
}

async function cartWithThreeLines(): Promise<void> {
  await store.cart.bulkPut([line(1), line(2), line(3)]);
}

function attempt(key: string, patch: Partial<PaymentAttempt>): PaymentAttempt {
  return {
    key,
    razorpayOrderId: `order_${key}`,
    state: 'open',
    totalAmount: 1000,
    order: null,
    reason: null,
    ...patch,
  };
}

function paidOrder(id: number): PlacedOrder {
  return {
    ...placedAnswer(id, request()),
    status: 'paid',
    paymentMethod: 'Razorpay',
    orderDate: '2026-11-27T10:00:00.000Z',
  };
}

/** The server's answers by key, and the keys it was asked about. */
function server(answers: Record<string, PaymentAttempt | 'unknown' | null>): Ask & { asked: string[] } {
  const asked: string[] = [];
  const ask = (async (key: string) => {
    asked.push(key);
    return answers[key] ?? null;
  }) as Ask & { asked: string[] };
  ask.asked = asked;
  return ask;
}

const cartKeys = async () => (await store.cart.toArray()).map((l) => l.key).sort();

describe('a payment in progress on the phone', () => {
  it('is kept without its photos’ Blobs (their ids are enough: uploaded before the provider order)', async () => {
    const row = await paying('k-1');
    expect(row.order.photos).toEqual([{ item: 0, key: 'photo-1', photoID: 'ph_1' }]);
    expect(row.providerOrder.razorpayOrderId).toBe('order_k-1');
    expect((await store.payments.get('k-1'))?.order.cartKeys).toEqual(['1:base', '2:base']);
  });

  it('ends in the transaction that queues its paid order: outbox row in, lines and payment out', async () => {
    await cartWithThreeLines();
    const row = await paying('k-1');
    const proof = { razorpay_payment_id: 'pay_1', razorpay_order_id: 'order_k-1', razorpay_signature: 's' };
    await queueOrder(
      {
        ...row.order,
        key: row.key,
        userId: row.userId,
        email: row.email,
        request: withProof(row.order.request, proof),
      },
      defaultEnv({ db: store }),
    );
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['3:base']);
    const queued = await store.outbox.get('k-1');
    expect(queued).toMatchObject({ state: 'queued', placed: null });
    expect(queued?.request).toMatchObject({ RazorpayPaymentId: 'pay_1', RazorpaySignature: 's' });
  });

  it('ends, in the same transaction, when its lines are ordered under another key; the server closes it', async () => {
    await cartWithThreeLines();
    const abandoned = await paying('k-old');
    // Another account's payment of the same lines on a shared phone is not this order's business.
    await paying('k-theirs', USER + 1);
    // The same lines, paid again from Checkout under a new key: its order is queued as placed.
    const again = await paying('k-new', USER, 2);
    await queueOrder(
      { ...again.order, key: again.key, userId: USER, email: again.email, placed: paidOrder(41) },
      defaultEnv({ db: store }),
    );
    expect((await store.payments.get('k-old'))?.endedAt).toBeGreaterThan(0);
    expect((await store.payments.get('k-theirs'))?.endedAt).toBeUndefined();
    // The resume never offers it: it closes it on the server, and it goes.
    const ask = server({ 'k-old': attempt('k-old', { state: 'open' }) });
    const closed: string[] = [];
    const close = async (key: string) => {
      closed.push(key);
      return attempt(key, { state: 'closed' });
    };
    const found = await resumePass({ store, ask, close, userId: USER, offline: false });
    expect(found).toEqual([]);
    expect(ask.asked).toEqual([]);
    expect(closed).toEqual([abandoned.key]);
    expect(await store.payments.get('k-old')).toBeUndefined();
    // Offline, it waits to be closed, and is still never offered.
    await paying('k-older');
    await store.payments.update('k-older', { endedAt: 5 });
    expect(await resumePass({ store, ask, close, userId: USER, offline: true })).toEqual([]);
    expect(await store.payments.get('k-older')).toBeTruthy();
  });

  it('stays, with the cart, when its order cannot be stored (the key is taken): nothing half-done', async () => {
    await cartWithThreeLines();
    const row = await paying('k-1');
    await store.outbox.put({ ...(await queueOrderRow('k-1')) });
    await expect(
      queueOrder(
        { ...row.order, key: row.key, userId: row.userId, email: row.email },
        defaultEnv({ db: store }),
      ),
    ).rejects.toThrow();
    expect(await store.payments.get('k-1')).toBeTruthy();
    expect(await cartKeys()).toEqual(['1:base', '2:base', '3:base']);
  });
});

/** An outbox row under `key` made as the sender would store one (for a key already taken). */
async function queueOrderRow(key: string) {
  const other = new ShopDatabase(`other-${Math.random()}`);
  try {
    return await queueOrder(
      {
        key,
        userId: USER,
        email: 'asha@example.com',
        request: request(),
        figures: {
          subtotal: 1000,
          deliveryCharge: 0,
          slotCharge: 0,
          discount: 0,
          total: 1000,
          couponAmount: 0,
        },
        cartKeys: [],
      },
      defaultEnv({ db: other }),
    );
  } finally {
    await other.delete();
  }
}

describe('when the shop opens again', () => {
  it('placed: the server’s order is stored as sent, its lines leave the cart, the payment ends (one transaction)', async () => {
    await cartWithThreeLines();
    await paying('k-1');
    const ask = server({ 'k-1': attempt('k-1', { state: 'placed', order: paidOrder(41) }) });
    const found = await resumePass({ store, ask, userId: USER, offline: false });
    expect(found.map((f) => f.on)).toEqual([{ kind: 'placed', order: paidOrder(41) }]);
    const sent = await store.outbox.get('k-1');
    expect(sent).toMatchObject({ state: 'sent', userId: USER, placed: { orderID: 41, status: 'paid' } });
    expect(sent?.photos).toEqual([{ item: 0, key: 'photo-1', photoID: 'ph_1' }]);
    expect(sent?.lines?.map((l) => l.productID)).toEqual([1, 2]);
    expect(await cartKeys()).toEqual(['3:base']);
    expect(await store.payments.count()).toBe(0);
    // Asked again (another open, the online event): nothing left to ask about, nothing placed twice.
    expect(await resumePass({ store, ask, userId: USER, offline: false })).toEqual([]);
    expect(ask.asked).toEqual(['k-1']);
    expect(await store.outbox.count()).toBe(1);
  });

  it('placed while its `handler` ran after all (another tab queued it): that row stays, the payment ends', async () => {
    await cartWithThreeLines();
    const row = await paying('k-1');
    const proof = { razorpay_payment_id: 'pay_1', razorpay_order_id: 'order_k-1', razorpay_signature: 's' };
    await store.outbox.put(await queueOrderRow('k-1'));
    await store.outbox.update('k-1', { request: withProof(row.order.request, proof) });
    const ask = server({ 'k-1': attempt('k-1', { state: 'placed', order: paidOrder(41) }) });
    await resumePass({ store, ask, userId: USER, offline: false });
    expect(await store.outbox.get('k-1')).toMatchObject({ state: 'queued' });
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['3:base']);
  });

  it('placed for a queued Cash on Delivery order paid from its row (its page died): that row is marked sent', async () => {
    await cartWithThreeLines();
    await paying('k-1');
    const problem = {
      kind: 'cod',
      status: 422,
      message: 'Cash on Delivery is off.',
      data: { reason: 'cod' },
    };
    await store.outbox.put({ ...(await queueOrderRow('k-1')), state: 'attention', problem } as OutboxRow);
    const ask = server({ 'k-1': attempt('k-1', { state: 'placed', order: paidOrder(41) }) });
    await resumePass({ store, ask, userId: USER, offline: false });
    expect(await store.outbox.get('k-1')).toMatchObject({
      state: 'sent',
      problem: null,
      placed: { orderID: 41 },
    });
    expect(await store.outbox.count()).toBe(1);
    expect(await store.payments.count()).toBe(0);
  });

  it('open: the payment stays for Pay again; Back to cart drops it and keeps every line', async () => {
    await cartWithThreeLines();
    await paying('k-1');
    const found = await resumePass({
      store,
      ask: server({ 'k-1': attempt('k-1', { state: 'open' }) }),
      userId: USER,
      offline: false,
    });
    expect(found.map((f) => [f.row.key, f.on.kind])).toEqual([['k-1', 'open']]);
    expect(await store.payments.get('k-1')).toBeTruthy();
    await backToCart('k-1', store);
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['1:base', '2:base', '3:base']);
    expect(await store.outbox.count()).toBe(0);
  });

  it('open, but none of its lines is in the cart any more (another order took them): dropped silently', async () => {
    await store.cart.bulkPut([line(3)]);
    await paying('k-1');
    const found = await resumePass({
      store,
      ask: server({ 'k-1': attempt('k-1', { state: 'open' }) }),
      userId: USER,
      offline: false,
    });
    expect(found).toEqual([]);
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['3:base']);
  });

  it('paying, the server unreachable, or offline: being confirmed, the payment and the lines kept', async () => {
    await cartWithThreeLines();
    await paying('k-1', USER, 1);
    await paying('k-2', USER, 2);
    const ask = server({ 'k-1': attempt('k-1', { state: 'paying' }), 'k-2': null });
    const online = await resumePass({ store, ask, userId: USER, offline: false });
    expect(online.map((f) => [f.row.key, f.on.kind])).toEqual([
      ['k-1', 'confirming'],
      ['k-2', 'confirming'],
    ]);
    const offlineAsk = server({});
    const offline = await resumePass({ store, ask: offlineAsk, userId: USER, offline: true });
    expect(offline.map((f) => f.on.kind)).toEqual(['confirming', 'confirming']);
    expect(offlineAsk.asked).toEqual([]);
    expect(await store.payments.count()).toBe(2);
    expect(await cartKeys()).toEqual(['1:base', '2:base', '3:base']);
    // A `placed` answer without its order is not taken for one: still being confirmed.
    expect(paymentOnPhone(attempt('k-1', { state: 'placed', order: null }))).toEqual({ kind: 'confirming' });
  });

  it('refunded: said with the reason, the payment dropped, the lines still in the cart', async () => {
    await cartWithThreeLines();
    await paying('k-1');
    const found = await resumePass({
      store,
      ask: server({ 'k-1': attempt('k-1', { state: 'refunded', reason: 'The slot filled up.' }) }),
      userId: USER,
      offline: false,
    });
    expect(found.map((f) => f.on)).toEqual([{ kind: 'refunded', reason: 'The slot filled up.' }]);
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['1:base', '2:base', '3:base']);
    expect(await store.outbox.count()).toBe(0);
  });

  it('closed, or a key the server does not know for this account: dropped silently', async () => {
    await cartWithThreeLines();
    await paying('k-1', USER, 1);
    await paying('k-2', USER, 2);
    const found = await resumePass({
      store,
      ask: server({ 'k-1': attempt('k-1', { state: 'closed' }), 'k-2': 'unknown' }),
      userId: USER,
      offline: false,
    });
    expect(found).toEqual([]);
    expect(await store.payments.count()).toBe(0);
    expect(await cartKeys()).toEqual(['1:base', '2:base', '3:base']);
  });

  it('leaves another account’s payments, and the one this page is paying, unasked and untouched', async () => {
    await paying('mine-here', USER, 1);
    await paying('theirs', 99, 2);
    await paying('mine', USER, 3);
    startedHere.add('mine-here');
    const ask = server({ mine: attempt('mine', { state: 'closed' }) });
    await resumePass({ store, ask, userId: USER, offline: false });
    expect(ask.asked).toEqual(['mine']);
    expect((await store.payments.toArray()).map((r) => r.key).sort()).toEqual(['mine-here', 'theirs']);
  });

  it('keeps a placed or refunded payment on show until closed; an open one follows the latest pass', async () => {
    const row = await paying('a');
    const placed: PaymentFound = { row, on: { kind: 'placed', order: paidOrder(1) } };
    const open: PaymentFound = { row: { ...row, key: 'b' }, on: { kind: 'open' } };
    const confirming: PaymentFound = { row: { ...row, key: 'b' }, on: { kind: 'confirming' } };
    expect(mergeFound([placed, open], [])).toEqual([placed]);
    expect(mergeFound([placed, open], [confirming])).toEqual([placed, confirming]);
  });
});

describe('the notice', () => {
  const api = (found: PaymentFound[]) => ({
    shownPayments: () => found,
    subscribeShown: () => () => undefined,
    forget: () => undefined,
    backToCart: async () => undefined,
  });

  it('says what became of each payment, with the way on, and never “failed” while it is not known', async () => {
    const row = await paying('k-1');
    const found: PaymentFound[] = [
      { row, on: { kind: 'confirming' } },
      { row: { ...row, key: 'k-2' }, on: { kind: 'open' } },
      { row: { ...row, key: 'k-3' }, on: { kind: 'placed', order: paidOrder(41) } },
      { row: { ...row, key: 'k-4' }, on: { kind: 'refunded', reason: 'The slot filled up.' } },
    ];
    const { container } = render(<PaymentNotices api={api(found)} />);
    expect(screen.getByRole('region', { name: t.region })).toBeTruthy();
    expect(screen.getByRole('heading', { name: t.confirmingTitle })).toBeTruthy();
    expect(screen.getByText(t.confirming('₹1,000'))).toBeTruthy();
    expect(screen.getByRole('button', { name: t.payAgain('₹1,000') })).toBeTruthy();
    expect(screen.getByRole('link', { name: t.backToCart }).getAttribute('href')).toBe('/cart');
    expect(screen.getByRole('heading', { name: t.placedTitle(41) })).toBeTruthy();
    expect(screen.getByRole('link', { name: t.viewOrder }).getAttribute('href')).toBe(
      '/order-success?order=k-3',
    );
    expect(screen.getByText(unplacedMessages.reason('The slot filled up.'))).toBeTruthy();
    expect(container.textContent?.toLowerCase()).not.toContain('fail');
  });
});
