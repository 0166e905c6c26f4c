import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartLine } from '../../domain/cart.js';
import { giftMessages } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { PhotoUploadError, withUploadedPhotos } from '../../web/checkout/place.js';

/**
 * Paying online for a photo cake: the checkout uploads the photo (the outbox's own upload, under
 * the photo's key) before the provider order, and the request it prices, pays and places carries
 * the photo's id. A second attempt to pay uploads nothing again; a refused photo or no network
 * stops the payment before it starts, with the server's reason.
 */
const PHOTO_KEY = '22222222-2222-4222-8222-222222222222';
const PHOTO_ID = '33333333-3333-4333-8333-333333333333';
const session = { token: 'a.b.c', role: '0', userId: 7, email: 'asha@example.com', phone: '9876543210' };

const line = (productID: number, photo?: { key: string; blob: Blob }): CartLine => ({
  key: `${productID}:base${photo ? `:${photo.key}` : ''}`,
  productID,
  variationID: null,
  variationName: null,
  title: `Cake ${productID}`,
  image: '',
  price: 900,
  quantity: 1,
  addedAt: productID,
  ...(photo ? { photo } : {}),
});
const lines = [
  line(1),
  line(2, { key: PHOTO_KEY, blob: new Blob([new Uint8Array(64)], { type: 'image/jpeg' }) }),
];
const request = {
  DeliveryDate: '2026-12-01',
  CustomerName: 'Asha Verma',
  CustomerEmail: session.email,
  CustomerPhone: session.phone,
  CustomerAddress: 'House 12, Sector 70',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Razorpay',
  TotalAmount: 1950,
  OrderItems: lines.map((l) => ({
    ProductID: l.productID,
    VariationID: null,
    ProductName: l.title,
    Price: l.price,
    Quantity: 1,
    ProductImage: '',
  })),
} satisfies OrderRequestInput;

let uploads: { url: string; key: string }[];
let answer: () => Promise<Response>;
beforeEach(() => {
  uploads = [];
  answer = async () =>
    Response.json(
      { isSuccess: true, data: { photoID: PHOTO_ID, width: 640, height: 480 }, sys_message: 'ok' },
      { status: 201 },
    );
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    uploads.push({ url, key: (init.headers as Record<string, string>)['idempotency-key'] ?? '' });
    return answer();
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('a photo cake paid online', () => {
  it("uploads the photo under its own key and puts its id on the cake's line; a second attempt uploads none", async () => {
    const known = new Map<string, string>();
    const paying = await withUploadedPhotos(session, request, lines, known);
    expect(uploads).toEqual([{ url: '/api/cake-photos', key: PHOTO_KEY }]);
    expect(paying.OrderItems[1]).toMatchObject({ ProductID: 2, PhotoID: PHOTO_ID });
    expect(paying.OrderItems[0]).not.toHaveProperty('PhotoID');
    expect(request.OrderItems[1]).not.toHaveProperty('PhotoID');

    const again = await withUploadedPhotos(session, request, lines, known);
    expect(uploads).toHaveLength(1);
    expect(again).toEqual(paying);
  });

  it("stops before the payment with the server's reason when the photo is refused, and without the network", async () => {
    const known = new Map<string, string>();
    // Not a photo we read, and an account whose photos take their 50 MB: the shopper reads why.
    for (const [status, reason] of [
      [415, giftMessages.photoType],
      [413, giftMessages.photoQuotaFull],
    ] as const) {
      answer = async () => Response.json({ isSuccess: false, data: null, sys_message: reason }, { status });
      const refused = withUploadedPhotos(session, request, lines, known);
      await expect(refused).rejects.toBeInstanceOf(PhotoUploadError);
      await expect(refused).rejects.toThrow(reason);
    }

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(withUploadedPhotos(session, request, lines, known)).rejects.toThrow(messages.orderFailed);
    expect(known.size).toBe(0);
    expect(uploads.map((u) => u.key)).toEqual([PHOTO_KEY, PHOTO_KEY, PHOTO_KEY]);
  });
});
