import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { lineKey } from '../../domain/cart.js';
import type { OrderRequestInput, PlacedOrder } from '../../domain/orders.js';
import { ShopDatabase } from '../../sw/db.js';
import { type OutboxEnv, queueOrder, sendDue } from '../../sw/outbox.js';
import { upgradeRow } from '../../sw/outbox-row.js';
import { cancelOrder } from '../../sw/outbox-shopper.js';
import { placedAnswer } from '../support/order-fixtures.js';

/**
 * A photo cake's order in the outbox (issue 26): its photo is uploaded first, under the key made
 * on the device when it was chosen, and the order goes only with the photo's id. A lost answer is
 * asked for again with the same key (one photo at the shop); a refused photo makes the order wait
 * for the shopper; the order never reaches the shop without its photo.
 */
type Reply = { status: number; body?: unknown } | 'network' | 'lose';

class FakeShop {
  photos = new Map<string, string>();
  placed = new Map<string, PlacedOrder>();
  requests: { path: string; key: string; body: unknown }[] = [];
  photoScript: Reply[] = [];
  nextPhoto = 1;

  fetch: typeof fetch = async (url, init) => {
    const path = new URL(String(url)).pathname;
    const headers = init?.headers as Record<string, string>;
    const key = headers['idempotency-key'] ?? '';
    if (path.endsWith('/cake-photos')) {
      const form = init?.body as FormData;
      const file = form.get('photo');
      this.requests.push({ path, key, body: file instanceof Blob ? file.size : null });
      const step = this.photoScript.shift();
      if (step === 'network') throw new TypeError('Failed to fetch');
      if (step && step !== 'lose')
        return new Response(JSON.stringify(step.body ?? {}), {
          status: step.status,
          headers: { 'content-type': 'application/json' },
        });
      let id = this.photos.get(key);
      if (!id) {
        id = `00000000-0000-4000-8000-${String(this.nextPhoto++).padStart(12, '0')}`;
        this.photos.set(key, id);
      }
      if (step === 'lose') throw new TypeError('connection reset');
      return Response.json(
        { isSuccess: true, data: { photoID: id, width: 800, height: 600 }, sys_message: 'ok' },
        { status: 201 },
      );
    }
    const body = JSON.parse(String(init?.body)) as OrderRequestInput;
    this.requests.push({ path, key, body });
    const order = this.placed.get(key) ?? placedAnswer(100 + this.placed.size, body);
    this.placed.set(key, order);
    return Response.json({ isSuccess: true, data: order, sys_message: 'Order placed successfully!' });
  };
}

const MESSAGE = 'जन्मदिन मुबारक दादी';
const PHOTO_KEY = '11111111-1111-4111-8111-111111111111';
const ORDER_KEY = '22222222-2222-4222-8222-222222222222';

let store: ShopDatabase;
let shop: FakeShop;
let env: OutboxEnv;
let clock: number;

const request = (): OrderRequestInput => ({
  DeliveryDate: '2026-12-01',
  CustomerName: 'Asha',
  CustomerEmail: 'asha@example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 12',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: 849,
  OrderItems: [
    {
      ProductID: 29,
      VariationID: null,
      ProductName: 'Red Velvet Celebration Cake',
      Price: 699,
      Quantity: 1,
      ProductImage: '',
      CakeMessage: MESSAGE,
    },
  ],
  Recipient: { Name: 'Dadi Kaur', Phone: '9876543210' },
});

async function queuePhotoCake(): Promise<void> {
  await queueOrder(
    {
      key: ORDER_KEY,
      userId: 7,
      email: 'asha@example.com',
      request: request(),
      figures: {
        subtotal: 699,
        deliveryCharge: 150,
        slotCharge: 0,
        discount: 0,
        total: 849,
        couponAmount: 0,
      },
      cartKeys: [],
      photos: [
        { item: 0, key: PHOTO_KEY, blob: new Blob(['jpeg bytes'], { type: 'image/jpeg' }), photoID: null },
      ],
    },
    env,
  );
}

const row = async () => upgradeRow((await store.outbox.get(ORDER_KEY)) ?? { key: ORDER_KEY });
const orderRequests = () => shop.requests.filter((r) => r.path.endsWith('/place-order'));
const photoRequests = () => shop.requests.filter((r) => r.path.endsWith('/cake-photos'));

beforeEach(async () => {
  store = new ShopDatabase(`outbox-photos-${Math.random()}`);
  shop = new FakeShop();
  clock = 1_000_000;
  env = {
    db: store,
    fetch: shop.fetch,
    base: 'http://shop.test/api',
    now: () => clock,
    random: () => 1,
    locks: null,
    timeoutMs: 1000,
  };
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  await store.session.put({
    key: 'current',
    token: `${b64({ alg: 'HS256' })}.${b64({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`,
    role: '0',
    userId: 7,
    email: 'asha@example.com',
    phone: '9876543210',
    expiresAt: null,
  });
});

describe('a photo cake in the outbox', () => {
  it('uploads the photo under its own key first, then sends the order with its id; the sent row drops the bytes', async () => {
    await queuePhotoCake();
    await sendDue(env);
    expect(shop.requests.map((r) => [r.path.replace('/api', ''), r.key])).toEqual([
      ['/cake-photos', PHOTO_KEY],
      ['/place-order', ORDER_KEY],
    ]);
    const photoID = shop.photos.get(PHOTO_KEY);
    expect((orderRequests()[0]?.body as OrderRequestInput | undefined)?.OrderItems[0]).toMatchObject({
      CakeMessage: MESSAGE,
      PhotoID: photoID,
    });
    const sent = await row();
    expect(sent.state).toBe('sent');
    expect(sent.photos).toEqual([{ item: 0, key: PHOTO_KEY, photoID }]);
  });

  it('a lost answer to the upload is asked for again with the same key: one photo at the shop, one order', async () => {
    await queuePhotoCake();
    shop.photoScript = ['lose'];
    await sendDue(env);
    expect(orderRequests()).toHaveLength(0);
    expect((await row()).state).toBe('queued');
    await sendDue(env, { force: true });
    expect(photoRequests().map((r) => r.key)).toEqual([PHOTO_KEY, PHOTO_KEY]);
    expect(shop.photos.size).toBe(1);
    expect(shop.placed.size).toBe(1);
    expect((await row()).state).toBe('sent');
  });

  it('no network, or a shop error, sends nothing: the order waits with its photo', async () => {
    await queuePhotoCake();
    shop.photoScript = ['network', { status: 503 }];
    await sendDue(env);
    let r = await row();
    expect(r).toMatchObject({ state: 'queued', lastError: 'transport:network' });
    await sendDue(env, { force: true });
    r = await row();
    expect(r).toMatchObject({ state: 'queued', lastError: '503' });
    expect(orderRequests()).toHaveLength(0);
    expect(r.photos?.[0]?.photoID).toBeNull();
  });

  it('a refused photo makes the order wait for the shopper with the reason; Cancel puts the cake back with its message and photo', async () => {
    await queuePhotoCake();
    shop.photoScript = [
      {
        status: 415,
        body: { isSuccess: false, data: null, sys_message: 'The photo must be a JPEG, PNG or WebP image.' },
      },
    ];
    await sendDue(env);
    const r = await row();
    expect(r.state).toBe('attention');
    expect(r.problem?.kind).toBe('refused');
    expect(r.problem?.message).toContain('Red Velvet Celebration Cake');
    expect(r.problem?.message).toContain('The photo must be a JPEG, PNG or WebP image.');
    expect(orderRequests()).toHaveLength(0);
    expect(await cancelOrder(ORDER_KEY, env)).toBe(true);
    const lines = await store.cart.toArray();
    expect(lines.map((l) => [l.key, l.cakeMessage, l.photo?.key])).toEqual([
      [lineKey(29, null, MESSAGE, PHOTO_KEY), MESSAGE, PHOTO_KEY],
    ]);
  });

  it('a 401 to the upload waits for a sign-in, as an order does', async () => {
    await queuePhotoCake();
    shop.photoScript = [{ status: 401, body: { isSuccess: false, data: null, sys_message: 'Unauthorized' } }];
    await sendDue(env);
    expect((await row()).problem?.kind).toBe('signin');
    expect(orderRequests()).toHaveLength(0);
  });
});
