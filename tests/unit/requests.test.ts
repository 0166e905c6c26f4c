import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShopperOrder } from '../../domain/order-tracking.js';
import { classifyRequestAnswer } from '../../domain/requests.js';
import type { ShopDatabase } from '../../sw/db.js';
import { type OutboxEnv, sendDue } from '../../sw/outbox.js';
import { accountRequests, queueCancel, waitingRequest } from '../../sw/requests.js';
import { endSessionOnDevice } from '../../sw/session-writes.js';
import { signInOn, testDevice } from '../support/outbox-device.js';

/**
 * The request queue (sw/requests.ts, rules in domain/requests.ts) against a fake shop, in the
 * outbox's own pass: a cancel asked for offline is sent once across a lost answer; a refusal
 * waits for the shopper; a 401 waits for a sign-in of the same account; another account's
 * requests are neither sent nor shown.
 */
type Reply = { status: number; body?: unknown } | 'network' | 'lose';

/** A shop whose cancel is idempotent by nature: the order is cancelled once, its answer the same after. */
class FakeShop {
  cancelled = new Map<number, number>();
  requests: { path: string; key: string; auth: string }[] = [];
  script: Reply[] = [];
  fetch: typeof fetch = async (url, init) => {
    const headers = init?.headers as Record<string, string>;
    const path = new URL(String(url)).pathname;
    this.requests.push({ path, key: headers['idempotency-key'] ?? '', auth: headers.authorization ?? '' });
    const step = this.script.shift();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (step && step !== 'lose')
      return Response.json(step.body ?? { isSuccess: false, data: null, sys_message: 'x' }, {
        status: step.status,
      });
    const id = Number(path.split('/')[3]);
    this.cancelled.set(id, (this.cancelled.get(id) ?? 0) + 1);
    if (step === 'lose') throw new TypeError('connection reset');
    return Response.json({ isSuccess: true, data: order(id), sys_message: 'Your order is cancelled.' });
  };
}

const order = (orderID: number) => ({ orderID, status: 'cancelled', refunds: [] }) as unknown as ShopperOrder;

let store: ShopDatabase;
let shop: FakeShop;
let clock: number;
let env: OutboxEnv;

const signIn = (userId = 7, tag = 'a') => signInOn(store, userId, tag);

beforeEach(async () => {
  shop = new FakeShop();
  clock = 1_000_000;
  ({ store, env } = testDevice('requests', shop.fetch, () => clock));
  await signIn();
});
afterEach(async () => {
  store.close();
  await store.delete();
});

const KEY = '00000000-0000-4000-8000-000000000001';

describe('the request queue', () => {
  it('reads each answer: done, again later, a sign-in, or the shopper', () => {
    const c = (status: number, body: unknown = null, retryAfter: string | null = null) =>
      classifyRequestAnswer({ status, body, retryAfter }, 0);
    expect(c(200, { isSuccess: true, data: { orderID: 5 } })).toEqual({ kind: 'done', data: { orderID: 5 } });
    expect(c(200, '<html>')).toMatchObject({ kind: 'retry', transport: true });
    expect(c(0)).toMatchObject({ kind: 'retry', transport: true });
    expect(c(503, null, '3')).toEqual({ kind: 'retry', afterMs: 3000, transport: false });
    expect(c(429)).toMatchObject({ kind: 'retry', transport: true });
    expect(c(401)).toMatchObject({ kind: 'attention', problem: { kind: 'signin' } });
    expect(c(409, { isSuccess: false, data: { reason: 'cancel-closed' }, sys_message: 'Too late.' })).toEqual(
      {
        kind: 'attention',
        problem: { kind: 'refused', status: 409, message: 'Too late.', data: { reason: 'cancel-closed' } },
      },
    );
  });

  it('sends a cancel once across a lost answer, then the answer becomes the order page’s copy', async () => {
    await queueCancel(store, 7, 41, KEY, clock);
    // Pressed again while it waits: still one request.
    await queueCancel(store, 7, 41, '00000000-0000-4000-8000-000000000002', clock);
    expect(await store.requests.count()).toBe(1);
    shop.script.push('network');
    await sendDue(env);
    expect((await waitingRequest(store, 7, 41))?.attempts).toBe(1);
    shop.script.push('lose');
    await sendDue(env, { force: true });
    expect(shop.cancelled.get(41)).toBe(1);
    await sendDue(env, { force: true });
    expect(shop.requests.map((r) => [r.path, r.key])).toEqual([
      ['/api/my-orders/41/cancel', KEY],
      ['/api/my-orders/41/cancel', KEY],
      ['/api/my-orders/41/cancel', KEY],
    ]);
    expect(await store.requests.count()).toBe(0);
    expect((await store.orderDetails.get(41))?.order.status).toBe('cancelled');
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(3);
  });

  it('a refusal waits for the shopper, never sent again', async () => {
    await queueCancel(store, 7, 42, KEY, clock);
    shop.script.push({
      status: 409,
      body: {
        isSuccess: false,
        data: { reason: 'cancel-closed', why: 'confirmed' },
        sys_message: 'Too late.',
      },
    });
    await sendDue(env);
    const row = await waitingRequest(store, 7, 42);
    expect(row).toMatchObject({ state: 'attention', problem: { kind: 'refused', message: 'Too late.' } });
    clock += 3_600_000;
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(1);
  });

  it('a 401 waits for a sign-in of the same account, then goes with the new token', async () => {
    await queueCancel(store, 7, 43, KEY, clock);
    shop.script.push({ status: 401 });
    await sendDue(env);
    expect(await waitingRequest(store, 7, 43)).toMatchObject({
      state: 'attention',
      problem: { kind: 'signin' },
    });
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(1);
    const fresh = await signIn(7, 'b');
    await sendDue(env);
    expect(shop.requests.at(-1)).toMatchObject({ key: KEY, auth: `Bearer ${fresh}` });
    expect(await store.requests.count()).toBe(0);
  });

  it('another account’s requests are neither sent nor shown; they wait for it, through a logout', async () => {
    await queueCancel(store, 8, 44, KEY, clock);
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(0);
    expect(await accountRequests(store, 7)).toEqual([]);
    expect(await waitingRequest(store, 7, 44)).toBeNull();
    expect(await accountRequests(store, null)).toEqual([]);
    // A logout on this phone keeps it, hidden, as it keeps a queued order.
    await endSessionOnDevice(store);
    expect(await store.requests.count()).toBe(1);
    await sendDue(env, { force: true });
    expect(shop.requests).toHaveLength(0);
    await signIn(8);
    await sendDue(env);
    expect(shop.requests.map((r) => r.path)).toEqual(['/api/my-orders/44/cancel']);
  });
});
