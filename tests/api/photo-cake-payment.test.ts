import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftMessages } from '../../domain/gifts.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * A photo cake paid online, on SQLite and PostgreSQL: the checkout uploads the photo under its own
 * key before it asks for the provider order, so the provider order is made for a request that
 * carries the photo's id, and the order placed after the payment (the same request with the
 * payment's proof, under the same key) arrives with its photo. A surprise (someone else, no price
 * in the box) can only be paid online, so this is the only way such a cake can be ordered.
 */
type Auth = { authorization: string };

async function uploadForm(): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#f4c27a' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

for (const dialect of DIALECTS) {
  describe(`a photo cake paid online on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let photoCake: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect, { testPayments: true });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      photoCake = await insertProduct(t.app, { title: `Surprise Photo Cake ${dialect}`, price: 1100 });
      await t.app.db
        .updateTable('products')
        .set({ takes_message: 1, photo_cake: 1 })
        .where('id', '=', photoCake.id)
        .execute();
    });
    afterAll(async () => t.close());

    /** The surprise the checkout sends: someone else's, no price in the box, paid online. */
    const surprise = (PhotoID: string | null): OrderRequestInput => {
      const body = orderRequest([{ product: photoCake }], {
        PaymentMethod: 'Razorpay',
        Recipient: { Name: 'Dadi Kaur', Phone: '9812345678', Save: false },
        HidePrice: true,
      });
      body.OrderItems[0] = {
        ...body.OrderItems[0],
        PhotoID,
        CakeMessage: 'Happy 80th',
      } as (typeof body.OrderItems)[0];
      return body;
    };
    const providerOrder = (auth: Auth, key: string, body: OrderRequestInput) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
      });
    const placeOrder = (auth: Auth, key: string, body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
      });
    const providerOrders = async (userId: number) =>
      (await t.app.db.selectFrom('payments').select('id').where('user_id', '=', userId).execute()).length;

    it('refuses the provider order without the photo, makes it with the uploaded one, and places the paid order with its photo', async () => {
      const shopper = await createUserWithToken(t.app);
      const withoutPhoto = await providerOrder(shopper.auth, newKey(), surprise(null));
      expect(withoutPhoto.statusCode).toBe(422);
      expect(withoutPhoto.json()).toEqual({
        isSuccess: false,
        data: { reason: 'gift', problem: 'photo-missing', line: 0 },
        sys_message: giftMessages.photoMissing(photoCake.title),
      });
      expect(await providerOrders(shopper.id)).toBe(0);

      // The photo under its own key; asked again (a lost answer), the same photo, stored once.
      const photoKey = newKey();
      const form = await uploadForm();
      const upload = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/cake-photos',
          headers: { ...shopper.auth, ...form.headers, 'idempotency-key': photoKey },
          payload: form.payload,
        });
      const first = await upload();
      expect(first.statusCode).toBe(201);
      const photoID: string = first.json().data.photoID;
      const again = await upload();
      expect(again.json().data.photoID).toBe(photoID);
      const stored = await t.app.db
        .selectFrom('cake_photos')
        .select('id')
        .where('user_id', '=', shopper.id)
        .execute();
      expect(stored).toHaveLength(1);

      const key = newKey();
      const body = surprise(photoID);
      const created = await providerOrder(shopper.auth, key, body);
      expect(created.statusCode).toBe(200);
      expect(created.json().data).toMatchObject({
        provider: 'test',
        currency: 'INR',
        receipt: key,
        totalAmount: photoCake.price + 150,
        amount: (photoCake.price + 150) * 100,
      });

      const pay = await t.app.inject({
        method: 'POST',
        url: '/api/payments/test/pay',
        headers: shopper.auth,
        payload: { razorpay_order_id: created.json().data.razorpayOrderId },
      });
      const proof = pay.json().data;
      const paid = {
        ...body,
        RazorpayPaymentId: proof.razorpay_payment_id,
        RazorpayOrderId: proof.razorpay_order_id,
        RazorpaySignature: proof.razorpay_signature,
      };
      const placed = await placeOrder(shopper.auth, key, paid);
      expect(placed.statusCode).toBe(200);
      const order = placed.json().data;
      expect(order).toMatchObject({
        status: 'paid',
        paymentMethod: 'Razorpay',
        hidePrice: true,
        recipient: { name: 'Dadi Kaur' },
      });
      expect(order.items[0]).toMatchObject({ photoID, cakeMessage: 'Happy 80th' });

      // The outbox resends the very same request under the same key: the same order, not a second.
      const resent = await placeOrder(shopper.auth, key, paid);
      expect(resent.statusCode).toBe(200);
      expect(resent.headers['idempotent-replayed']).toBe('true');
      expect(resent.json().data.orderID).toBe(order.orderID);
      // The photo's id is part of what the key stands for: without it, it is another order.
      const withoutIt = await placeOrder(shopper.auth, key, {
        ...paid,
        OrderItems: surprise(null).OrderItems,
      });
      expect(withoutIt.statusCode).toBe(422);
      expect(withoutIt.json().data).toEqual({ reason: 'key-reused' });

      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${order.orderID}`,
        headers: admin,
      });
      expect(detail.json().data).toMatchObject({
        status: 'paid',
        hidePrice: true,
        lines: [{ photoID, cakeMessage: 'Happy 80th' }],
      });
    });
  });
}
