import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteOrphanPhotos } from '../../api/gifts/gift.repository.js';
import { PHOTO_UPLOAD_RULE } from '../../api/gifts/gift.routes.js';
import { KEY_RETENTION_MS } from '../../api/orders/idempotency.js';
import { DatabaseRateLimiter } from '../../api/ratelimit/ratelimit.js';
import { giftMessages } from '../../domain/gifts.js';
import { addDays, indiaClock, indiaInstant } from '../../domain/india-time.js';
import { ordersCsv } from '../../domain/orders-csv.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * Gifts on the server (issue 26), on SQLite and PostgreSQL: the recipient, the surprise (no price
 * in the box, no sender on the card), the cake's message, the card, photo cakes and their private
 * photos, saved recipients, the packing slip, and the answers and CSV that carry them. The spec's
 * plain order still works beside them.
 */
type Auth = { authorization: string };

/** A phone's JPEG with its camera and GPS position in EXIF, as a shopper's photo arrives. */
async function phoneJpeg(width = 1200, height = 900): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#d4a373' } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Pixel Test' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '30/1 42/1 3600/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '76/1 42/1 3600/100',
      },
    })
    .toBuffer();
}

/** True when an EXIF block holds the GPS IFD pointer (tag 0x8825) in its own byte order. */
function hasGps(exif: Buffer): boolean {
  const tiff = exif.indexOf('II') >= 0 && exif.indexOf('II') < 10 ? 'II' : 'MM';
  return exif.indexOf(Buffer.from(tiff === 'II' ? [0x25, 0x88] : [0x88, 0x25])) >= 0;
}

async function multipart(
  file: { data: Buffer; type: string; name?: string; filename?: string } | null,
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, value] of Object.entries(fields)) form.append(k, value);
  if (file) {
    form.append(
      file.name ?? 'photo',
      new Blob([new Uint8Array(file.data)], { type: file.type }),
      file.filename ?? 'photo.jpg',
    );
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

for (const dialect of DIALECTS) {
  describe(`gifts on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let cake: FixtureProduct;
    let photoCake: FixtureProduct;
    let roses: FixtureProduct;
    const today = indiaClock(new Date()).date;

    beforeAll(async () => {
      t = await makeTestApp(dialect, { testPayments: true });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      cake = await insertProduct(t.app, { title: `Gift Cake ${dialect}`, price: 600 });
      photoCake = await insertProduct(t.app, { title: `Photo Cake ${dialect}`, price: 900 });
      roses = await insertProduct(t.app, { title: `Gift Roses ${dialect}`, price: 450 });
      await t.app.db.updateTable('products').set({ takes_message: 1 }).where('id', '=', cake.id).execute();
      await t.app.db
        .updateTable('products')
        .set({ takes_message: 1, photo_cake: 1 })
        .where('id', '=', photoCake.id)
        .execute();
    });
    afterAll(async () => t.close());
    afterEach(() => vi.useRealTimers());

    /** Freezes `Date` at 10 AM India today: every slot of the day is open, whatever the real hour. */
    const morning = () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(indiaInstant(today, 600));
    };
    const shopper = () => createUserWithToken(t.app);
    const place = (body: object, auth: Auth, key = newKey()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
      });
    const upload = async (auth: Auth, data: Buffer, key?: string, type = 'image/jpeg') => {
      const form = await multipart({ data, type });
      return t.app.inject({
        method: 'POST',
        url: '/api/cake-photos',
        headers: { ...auth, ...form.headers, ...(key ? { 'idempotency-key': key } : {}) },
        payload: form.payload,
      });
    };
    /** Pays the order through the local test provider and places it (the online way). */
    const placePaid = async (body: object, auth: Auth) => {
      const key = newKey();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...auth, 'idempotency-key': key },
        payload: body,
      });
      expect(created.statusCode).toBe(200);
      const pay = await t.app.inject({
        method: 'POST',
        url: '/api/payments/test/pay',
        headers: auth,
        payload: { razorpay_order_id: created.json().data.razorpayOrderId },
      });
      const proof = pay.json().data;
      return place(
        {
          ...body,
          RazorpayPaymentId: proof.razorpay_payment_id,
          RazorpayOrderId: proof.razorpay_order_id,
          RazorpaySignature: proof.razorpay_signature,
        },
        auth,
        key,
      );
    };

    it("still places the spec's plain order, and says it carries no gift", async () => {
      const user = await shopper();
      const res = await place(orderRequest([{ product: cake }, { product: roses }]), user.auth);
      expect(res.statusCode).toBe(200);
      const placed = res.json().data;
      expect(placed).toMatchObject({ recipient: null, hidePrice: false, hideSender: false, card: null });
      expect(placed.items.map((i: { cakeMessage: unknown }) => i.cakeMessage)).toEqual([null, null]);
      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/my-orders/${placed.orderID}`,
        headers: user.auth,
      });
      expect(mine.json().data).toMatchObject({ recipient: null, hidePrice: false, card: null });
    });

    it("takes the products' flags from the catalogue and the admin's product form", async () => {
      const one = await t.app.inject({ method: 'GET', url: `/api/GetProductById/${photoCake.id}` });
      expect(one.json().data).toMatchObject({ takesMessage: true, photoCake: true });
      const feed = await t.app.inject({ method: 'GET', url: '/api/sync/catalogue' });
      const inFeed = feed.json().data.products.find((p: { productID: number }) => p.productID === roses.id);
      expect(inFeed).toMatchObject({ takesMessage: false, photoCake: false });
      // The spec's client sends the product back without the flags: they stay as they were.
      const product = one.json().data;
      const kept = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: { ...product, takesMessage: undefined, photoCake: undefined, categories: undefined },
      });
      expect(kept.statusCode).toBe(200);
      const after = await t.app.inject({ method: 'GET', url: `/api/GetProductById/${photoCake.id}` });
      expect(after.json().data).toMatchObject({ takesMessage: true, photoCake: true });
      const off = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: {
          productID: roses.id,
          title: roses.title,
          description: '<p>Roses</p>',
          price: 450,
          takesMessage: true,
        },
      });
      expect(off.statusCode).toBe(200);
      const flipped = await t.app.inject({ method: 'GET', url: `/api/GetProductById/${roses.id}` });
      expect(flipped.json().data).toMatchObject({ takesMessage: true, photoCake: false });
      await t.app.db.updateTable('products').set({ takes_message: 0 }).where('id', '=', roses.id).execute();
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: {
          productID: roses.id,
          title: roses.title,
          description: '<p>Roses</p>',
          price: 450,
          photoCake: 'maybe',
        },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'A yes/no field must be true or false.',
      });
    });

    it("sets the flags from the admin's add-product form", async () => {
      const category = await t.app.inject({
        method: 'POST',
        url: '/api/AddCategory',
        headers: admin,
        payload: { CategoryName: `Photo Cakes ${dialect}` },
      });
      const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#fde' } })
        .png()
        .toBuffer();
      const add = async (flags: Record<string, string>) => {
        const form = await multipart(
          { name: 'images', data: image, type: 'image/png', filename: 'cake.png' },
          {
            CategoryID: String(category.json().data.categoryID),
            Title: `Form Cake ${dialect} ${Object.keys(flags).join(' ')}`,
            Description: '<p>Cake</p>',
            LabelHeading: 'Eggless',
            LabelDescription: 'Fresh',
            Price: '999',
            ...flags,
          },
        );
        return t.app.inject({
          method: 'POST',
          url: '/api/AddProductForDash',
          headers: { ...admin, ...form.headers },
          payload: form.payload,
        });
      };
      const both = await add({ takesMessage: 'true', photoCake: 'true' });
      expect(both.statusCode).toBe(201);
      expect(both.json().data).toMatchObject({ takesMessage: true, photoCake: true });
      const neither = await add({});
      expect(neither.json().data).toMatchObject({ takesMessage: false, photoCake: false });
    });

    it("checks the recipient's phone and name, in the envelope", async () => {
      const user = await shopper();
      for (const Phone of ['12345', '1234567890', '98765432101', 'abcdefghij']) {
        const res = await place(
          orderRequest([{ product: cake }], { Recipient: { Name: 'Dadi', Phone } }),
          user.auth,
        );
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          isSuccess: false,
          data: { field: 'Recipient.Phone' },
          sys_message: giftMessages.recipientPhone,
        });
      }
      const noName = await place(
        orderRequest([{ product: cake }], { Recipient: { Name: ' ', Phone: '9812345678' } }),
        user.auth,
      );
      expect(noName.statusCode).toBe(400);
      expect(noName.json().sys_message).toBe(giftMessages.recipientName);
    });

    it('refuses a gift to someone else with no price in the box paid in cash, and takes it paid online', async () => {
      morning();
      const user = await shopper();
      const gift = {
        Recipient: { Name: 'Dadi', Phone: '9812345678', Save: true },
        HidePrice: true,
        HideSender: true,
        Card: { Occasion: 'Birthday' as const, Message: 'Happy birthday, Dadi!\nLots of love' },
      };
      const cod = await place(orderRequest([{ product: cake }], gift), user.auth);
      expect(cod.statusCode).toBe(422);
      expect(cod.json()).toEqual({
        isSuccess: false,
        data: { reason: 'gift', problem: 'gift-cod', line: null },
        sys_message: giftMessages.giftCod,
      });
      // Nothing of the refused order was kept: not even the recipient it asked to save.
      const none = await t.app.inject({ method: 'GET', url: '/api/my-recipients', headers: user.auth });
      expect(none.json().data).toEqual([]);

      const body = orderRequest([{ product: cake }], { ...gift, PaymentMethod: 'Razorpay' });
      body.OrderItems[0] = {
        ...body.OrderItems[0],
        CakeMessage: 'जन्मदिन मुबारक दादी',
      } as (typeof body.OrderItems)[0];
      const paid = await placePaid(body, user.auth);
      expect(paid.statusCode).toBe(200);
      const placed = paid.json().data;
      expect(placed).toMatchObject({
        status: 'paid',
        recipient: { name: 'Dadi', phone: '9812345678' },
        hidePrice: true,
        hideSender: true,
        card: { occasion: 'Birthday', message: 'Happy birthday, Dadi!\nLots of love' },
      });
      expect(placed.items[0].cakeMessage).toBe('जन्मदिन मुबारक दादी');

      // The admin sees every choice plainly; the buyer's own email and phone stay the account's.
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${placed.orderID}`,
        headers: admin,
      });
      expect(detail.json().data).toMatchObject({
        customerPhone: '9876543210',
        recipient: { name: 'Dadi', phone: '9812345678' },
        hidePrice: true,
        hideSender: true,
        card: { occasion: 'Birthday' },
        lines: [{ cakeMessage: 'जन्मदिन मुबारक दादी', photoID: null }],
      });
      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/my-orders/${placed.orderID}`,
        headers: user.auth,
      });
      expect(mine.json().data).toMatchObject({
        recipient: { name: 'Dadi' },
        hidePrice: true,
        lines: [{ cakeMessage: 'जन्मदिन मुबारक दादी' }],
      });
      const history = await t.app.inject({
        method: 'GET',
        url: `/api/GetOrderHistoryByEmail?email=${encodeURIComponent(user.email)}`,
        headers: user.auth,
      });
      expect(history.json().data[0]).toMatchObject({ cakeMessage: 'जन्मदिन मुबारक दादी', hideSender: true });

      // Recipient.Save kept the recipient with the order's address, once.
      const saved = await t.app.inject({ method: 'GET', url: '/api/my-recipients', headers: user.auth });
      expect(saved.json().data).toEqual([
        {
          id: expect.any(Number),
          name: 'Dadi',
          phone: '9812345678',
          address: 'House 12, Sector 70',
          city: 'Mohali',
          state: 'Punjab',
          pincode: '160062',
        },
      ]);

      // The surprise's slip: no ₹, no price field, the card signed "With love", the message in full.
      const slip = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${placed.orderID}/packing-slip`,
        headers: admin,
      });
      expect(slip.statusCode).toBe(200);
      const data = slip.json().data;
      expect(slip.body).not.toContain('₹');
      expect(slip.body).not.toMatch(/"(unitPrice|lineTotal|total|totalAmount|price|subtotal)"/);
      expect(data).toMatchObject({
        orderID: placed.orderID,
        hidePrice: true,
        deliverTo: { name: 'Dadi', phone: '9812345678' },
        card: { occasion: 'Birthday', message: 'Happy birthday, Dadi!\nLots of love', from: 'With love' },
        lines: [{ productName: cake.title, quantity: 1, cakeMessage: 'जन्मदिन मुबारक दादी' }],
      });
      expect(data.lines[0]).not.toHaveProperty('unitPrice');
      expect(data).not.toHaveProperty('total');
      expect(JSON.stringify(data)).not.toContain('Asha');
    });

    it("prints prices and the buyer's name on an ordinary slip", async () => {
      morning();
      const user = await shopper();
      const res = await place(
        orderRequest([{ product: cake, quantity: 2 }], {
          Card: { Occasion: 'Sorry', Message: 'Forgive me' },
        }),
        user.auth,
      );
      expect(res.statusCode).toBe(200);
      const slip = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${res.json().data.orderID}/packing-slip`,
        headers: admin,
      });
      expect(slip.json().data).toMatchObject({
        hidePrice: false,
        recipient: null,
        deliverTo: { name: 'Asha Verma' },
        card: { occasion: 'Sorry', from: 'Asha Verma' },
        lines: [{ unitPrice: 600, lineTotal: 1200 }],
        total: 1350,
      });
      const shopperAsks = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${res.json().data.orderID}/packing-slip`,
        headers: user.auth,
      });
      expect(shopperAsks.statusCode).toBe(403);
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/admin/orders/999999/packing-slip',
        headers: admin,
      });
      expect(missing.statusCode).toBe(404);
    });

    it('counts the message on the cake as a person does: 40 Devanagari letters pass, 41 characters do not', async () => {
      morning();
      const user = await shopper();
      const withMessage = (CakeMessage: string, product = cake) => {
        const body = orderRequest([{ product }]);
        body.OrderItems[0] = { ...body.OrderItems[0], CakeMessage } as (typeof body.OrderItems)[0];
        return body;
      };
      const forty = 'दा'.repeat(40);
      const ok = await place(withMessage(forty), user.auth);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.items[0].cakeMessage).toBe(forty);
      const long = await place(withMessage('x'.repeat(41)), user.auth);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ isSuccess: false, sys_message: giftMessages.cakeMessageTooLong });
      const control = await place(withMessage('Happy\nbirthday'), user.auth);
      expect(control.statusCode).toBe(400);
      expect(control.json().sys_message).toBe(giftMessages.cakeMessageControl);
      const family = await place(withMessage('👨‍👩‍👧'.repeat(40)), user.auth);
      expect(family.statusCode).toBe(200);
      // Roses take no message: refused by the rule, naming the product and the line.
      const roses422 = await place(withMessage('For you', roses), user.auth);
      expect(roses422.statusCode).toBe(422);
      expect(roses422.json()).toEqual({
        isSuccess: false,
        data: { reason: 'gift', problem: 'message-not-taken', line: 0 },
        sys_message: giftMessages.noMessageHere(roses.title),
      });
    });

    it('keeps two of one cake with two messages as two lines', async () => {
      morning();
      const user = await shopper();
      const body = orderRequest([{ product: cake }, { product: cake }]);
      body.OrderItems = body.OrderItems.map((item, i) => ({
        ...item,
        CakeMessage: i ? 'For Papa' : 'For Mummy',
      }));
      const res = await place(body, user.auth);
      expect(res.statusCode).toBe(200);
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${res.json().data.orderID}`,
        headers: admin,
      });
      expect(detail.json().data.lines.map((l: { cakeMessage: string }) => l.cakeMessage)).toEqual([
        'For Mummy',
        'For Papa',
      ]);
    });

    describe('cake photos', () => {
      let owner: Awaited<ReturnType<typeof createUserWithToken>>;
      let photoID: string;

      beforeAll(async () => {
        owner = await createUserWithToken(t.app);
        const res = await upload(owner.auth, await phoneJpeg(), newKey());
        expect(res.statusCode).toBe(201);
        photoID = res.json().data.photoID;
        expect(res.json().data).toEqual({ photoID: expect.any(String), width: 1200, height: 900 });
      });

      it('keeps no EXIF: the GPS position and the camera are gone', async () => {
        const source = await sharp(await phoneJpeg()).metadata();
        expect(source.exif && hasGps(source.exif)).toBe(true);
        for (const size of ['full', 'preview']) {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/cake-photos/${photoID}?size=${size}`,
            headers: owner.auth,
          });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('image/webp');
          expect(String(res.headers['cache-control'])).toContain('no-store');
          const meta = await sharp(res.rawPayload).metadata();
          expect(meta.format).toBe('webp');
          expect(meta.exif).toBeUndefined();
          expect(meta.xmp).toBeUndefined();
          expect(res.rawPayload.includes(Buffer.from('PhoneCo'))).toBe(false);
          expect(meta.width).toBe(size === 'full' ? 1200 : 800);
        }
      });

      it('is seen by its owner and admins only: 401 without a token, 404 to another shopper, never under /media/', async () => {
        const url = `/api/cake-photos/${photoID}`;
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
        const stranger = await shopper();
        const theirs = await t.app.inject({ method: 'GET', url, headers: stranger.auth });
        expect(theirs.statusCode).toBe(404);
        expect(theirs.json()).toMatchObject({ isSuccess: false, sys_message: giftMessages.photoNotFound });
        expect((await t.app.inject({ method: 'GET', url, headers: owner.auth })).statusCode).toBe(200);
        const forPrinter = await t.app.inject({ method: 'GET', url: `${url}?size=full`, headers: admin });
        expect(forPrinter.statusCode).toBe(200);
        for (const media of [
          `/media/${photoID}`,
          `/media/${photoID}.webp`,
          `/media/${photoID}-640.webp`,
          `/media/${photoID}-320.webp`,
          `/media/cake-photos/${photoID}`,
        ]) {
          expect((await t.app.inject({ method: 'GET', url: media, headers: admin })).statusCode).toBe(404);
        }
        const bad = await t.app.inject({ method: 'GET', url: `${url}?size=huge`, headers: owner.auth });
        expect(bad.statusCode).toBe(400);
      });

      it('uploads once per Idempotency-Key: a retry answers the same photo, no second row', async () => {
        const user = await shopper();
        const key = newKey();
        const jpeg = await phoneJpeg(640, 480);
        const first = await upload(user.auth, jpeg, key);
        const again = await upload(user.auth, jpeg, key);
        expect(first.statusCode).toBe(201);
        expect(again.statusCode).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json().data).toEqual(first.json().data);
        const rows = await t.app.db
          .selectFrom('cake_photos')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toHaveLength(1);
        // Another account's identical key is another upload.
        const other = await shopper();
        const theirs = await upload(other.auth, jpeg, key);
        expect(theirs.json().data.photoID).not.toBe(first.json().data.photoID);
      });

      it('refuses what is not a JPEG, PNG or WebP photo, in the envelope', async () => {
        const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
          .gif()
          .toBuffer();
        const asGif = await upload(owner.auth, gif, undefined, 'image/gif');
        expect(asGif.statusCode).toBe(415);
        expect(asGif.json()).toMatchObject({ isSuccess: false, sys_message: giftMessages.photoType });
        const text = await upload(owner.auth, Buffer.from('not a picture at all'), undefined, 'image/jpeg');
        expect(text.statusCode).toBe(415);
        const png = await upload(
          owner.auth,
          await sharp({ create: { width: 30, height: 20, channels: 4, background: '#fff0' } })
            .png()
            .toBuffer(),
          undefined,
          'image/png',
        );
        expect(png.statusCode).toBe(201);
        const empty = await multipart(null);
        const none = await t.app.inject({
          method: 'POST',
          url: '/api/cake-photos',
          headers: { ...owner.auth, ...empty.headers },
          payload: empty.payload,
        });
        expect(none.statusCode).toBe(400);
        expect(none.json().sys_message).toBe(giftMessages.photoField);
        const noToken = await t.app.inject({ method: 'POST', url: '/api/cake-photos', ...empty });
        expect(noToken.statusCode).toBe(401);
        const huge = await upload(owner.auth, Buffer.alloc(10 * 1024 * 1024 + 1, 1));
        expect(huge.statusCode).toBe(413);
        expect(huge.json().isSuccess).toBe(false);
        const badKey = await upload(owner.auth, gif, 'not-a-uuid');
        expect(badKey.statusCode).toBe(400);
      });

      it('limits new uploads per account to 30 an hour; a replay of a key is not counted', async () => {
        const user = await shopper();
        const key = newKey();
        const jpeg = await phoneJpeg(200, 150);
        expect((await upload(user.auth, jpeg, key)).statusCode).toBe(201);
        // The shop's limiter keeps its counts in the database: the rest of the hour's budget, spent.
        const limiter = new DatabaseRateLimiter(t.app.db);
        for (let i = 1; i < PHOTO_UPLOAD_RULE.limit; i++) {
          await limiter.hit(`cake-photo:user:${user.id}`, PHOTO_UPLOAD_RULE);
        }
        const over = await upload(user.auth, jpeg, newKey());
        expect(over.statusCode).toBe(429);
        expect(over.headers['retry-after']).toBeDefined();
        expect(over.json()).toMatchObject({ isSuccess: false, sys_message: giftMessages.photoTooMany });
        expect((await upload(user.auth, jpeg, key)).statusCode).toBe(201);
      });

      it("refuses a photo cake for today, takes it tomorrow, and only with the shopper's own photo", async () => {
        morning();
        const withPhoto = (PhotoID: string | null, DeliveryDate: string, product = photoCake) => {
          const body = orderRequest([{ product }], { DeliveryDate });
          body.OrderItems[0] = {
            ...body.OrderItems[0],
            PhotoID,
            CakeMessage: 'Happy 60th',
          } as (typeof body.OrderItems)[0];
          return body;
        };
        const tomorrow = addDays(today, 1);
        const todays = await place(withPhoto(photoID, today), owner.auth);
        expect(todays.statusCode).toBe(422);
        expect(todays.json()).toEqual({
          isSuccess: false,
          data: { reason: 'gift', problem: 'photo-too-soon', line: 0, earliestDeliveryDate: tomorrow },
          sys_message: giftMessages.photoTooSoon(photoCake.title, tomorrow),
        });
        // Paying online, it is refused before the shopper pays, not after.
        const payFirst = await t.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/order',
          headers: { ...owner.auth, 'idempotency-key': newKey() },
          payload: { ...withPhoto(photoID, today), PaymentMethod: 'Razorpay' },
        });
        expect(payFirst.statusCode).toBe(422);
        expect(payFirst.json().data.problem).toBe('photo-too-soon');
        const missing = await place(withPhoto(null, tomorrow), owner.auth);
        expect(missing.statusCode).toBe(422);
        expect(missing.json().data.problem).toBe('photo-missing');
        const stranger = await shopper();
        const notTheirs = await place(withPhoto(photoID, tomorrow), stranger.auth);
        expect(notTheirs.statusCode).toBe(422);
        expect(notTheirs.json().data.problem).toBe('photo-unknown');
        const roseBody = withPhoto(photoID, tomorrow, roses);
        roseBody.OrderItems[0] = {
          ...roseBody.OrderItems[0],
          CakeMessage: null,
        } as (typeof roseBody.OrderItems)[0];
        const onRoses = await place(roseBody, owner.auth);
        expect(onRoses.statusCode).toBe(422);
        expect(onRoses.json().data.problem).toBe('not-photo-cake');

        const ok = await place(withPhoto(photoID.toUpperCase(), tomorrow), owner.auth);
        expect(ok.statusCode).toBe(200);
        const placed = ok.json().data;
        expect(placed.items[0]).toMatchObject({ photoID, cakeMessage: 'Happy 60th' });
        const slip = await t.app.inject({
          method: 'GET',
          url: `/api/admin/orders/${placed.orderID}/packing-slip`,
          headers: admin,
        });
        expect(slip.json().data.lines[0]).toMatchObject({ photoID, cakeMessage: 'Happy 60th' });
      });

      it("takes the photo cake's notice from the shop's settings, read at once", async () => {
        morning();
        const on = (DeliveryDate: string) => {
          const body = orderRequest([{ product: photoCake }], { DeliveryDate });
          body.OrderItems[0] = { ...body.OrderItems[0], PhotoID: photoID } as (typeof body.OrderItems)[0];
          return body;
        };
        const notice = (photoCakeNoticeDays: number) =>
          t.app.inject({
            method: 'PUT',
            url: '/api/admin/settings',
            headers: admin,
            payload: { photoCakeNoticeDays },
          });
        try {
          expect((await notice(2)).statusCode).toBe(200);
          const tomorrows = await place(on(addDays(today, 1)), owner.auth);
          expect(tomorrows.statusCode).toBe(422);
          expect(tomorrows.json().data).toMatchObject({
            problem: 'photo-too-soon',
            earliestDeliveryDate: addDays(today, 2),
          });
          expect((await notice(0)).statusCode).toBe(200);
          const todays = await place(on(today), owner.auth);
          expect(todays.statusCode).toBe(200);
        } finally {
          await notice(1);
        }
      });

      it('sweeps photos no order took once no queued order can bring them, and keeps ordered ones', async () => {
        const spare = await upload(owner.auth, await phoneJpeg(320, 240));
        const spareID = spare.json().data.photoID;
        const old = Date.now() - KEY_RETENTION_MS - 60_000;
        await t.app.db
          .updateTable('cake_photos')
          .set({ created_at: old })
          .where('user_id', '=', owner.id)
          .execute();
        const fresh = await upload(owner.auth, await phoneJpeg(320, 240));
        const removed = await deleteOrphanPhotos(t.app.db, Date.now(), KEY_RETENTION_MS);
        expect(removed).toBeGreaterThanOrEqual(1);
        const left = new Set(
          (
            await t.app.db.selectFrom('cake_photos').select('id').where('user_id', '=', owner.id).execute()
          ).map((r) => r.id),
        );
        expect(left.has(photoID)).toBe(true); // ordered in the test before
        expect(left.has(fresh.json().data.photoID)).toBe(true);
        expect(left.has(spareID)).toBe(false);
      });
    });

    it('keeps saved recipients per account: add (once), list, delete, and never another account’s', async () => {
      const a = await shopper();
      const b = await shopper();
      const dadi = {
        name: 'Dadi',
        phone: '9812345678',
        address: '7 Mall Road',
        city: 'Ludhiana',
        state: 'Punjab',
        pincode: '141001',
      };
      const add = (auth: Auth, payload: object) =>
        t.app.inject({ method: 'POST', url: '/api/my-recipients', headers: auth, payload });
      const first = await add(a.auth, dadi);
      expect(first.statusCode).toBe(201);
      expect(first.json().data).toEqual({ id: expect.any(Number), ...dadi });
      const twice = await add(a.auth, { ...dadi, name: ' Dadi ' });
      expect(twice.json().data.id).toBe(first.json().data.id);
      const nana = await add(a.auth, { ...dadi, name: 'Nana', pincode: 141002 });
      expect(nana.statusCode).toBe(201);
      expect(nana.json().data.pincode).toBe('141002');

      const list = await t.app.inject({ method: 'GET', url: '/api/my-recipients', headers: a.auth });
      expect(list.json().data.map((r: { name: string }) => r.name)).toEqual(['Nana', 'Dadi']);
      const theirs = await t.app.inject({ method: 'GET', url: '/api/my-recipients', headers: b.auth });
      expect(theirs.json().data).toEqual([]);

      const id = first.json().data.id;
      const stolen = await t.app.inject({
        method: 'DELETE',
        url: `/api/my-recipients/${id}`,
        headers: b.auth,
      });
      expect(stolen.statusCode).toBe(404);
      const gone = await t.app.inject({ method: 'DELETE', url: `/api/my-recipients/${id}`, headers: a.auth });
      expect(gone.statusCode).toBe(200);
      expect(gone.json().data).toEqual({ id });
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/my-recipients/${id}`,
        headers: a.auth,
      });
      expect(again.statusCode).toBe(404);

      for (const [payload, message] of [
        [{ ...dadi, phone: '12345' }, giftMessages.recipientPhone],
        [{ ...dadi, pincode: '12' }, 'Pincode must be 6 digits.'],
        [{ ...dadi, city: 'Mo\nhali' }, 'City contains characters that are not allowed.'],
        [{ ...dadi, address: '' }, 'The address is required.'],
      ] as const) {
        const res = await add(a.auth, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/my-recipients' })).statusCode).toBe(401);
    });

    it("gives the admin's order list the gift fields, and the CSV their columns", async () => {
      morning();
      const user = await shopper();
      const body = orderRequest([{ product: cake }], {
        Recipient: { Name: 'Bhaiya', Phone: '7012345678' },
        HideSender: true,
        Card: { Occasion: 'Congratulations', Message: 'Well done, "topper"' },
      });
      body.OrderItems[0] = { ...body.OrderItems[0], CakeMessage: 'ਵਧਾਈਆਂ' } as (typeof body.OrderItems)[0];
      const placed = await place(body, user.auth);
      expect(placed.statusCode).toBe(200);
      const page = await t.app.inject({
        method: 'GET',
        url: '/api/admin/orders?pageSize=100',
        headers: admin,
      });
      const row = page
        .json()
        .data.items.find((o: { orderID: number }) => o.orderID === placed.json().data.orderID);
      expect(row).toMatchObject({
        recipient: { name: 'Bhaiya', phone: '7012345678' },
        hidePrice: false,
        hideSender: true,
        card: { occasion: 'Congratulations' },
        items: [{ cakeMessage: 'ਵਧਾਈਆਂ' }],
      });
      const csv = ordersCsv([row], { origin: 'http://localhost' });
      const [header, line] = csv.split('\r\n');
      expect(header).toContain(
        '"Recipient Name","Recipient Phone","Hide Price","Hide Sender","Card Occasion","Card Message","Cake Messages"',
      );
      expect(line).toContain(
        `"Bhaiya","7012345678","no","yes","Congratulations","Well done, ""topper""","${cake.title}: ਵਧਾਈਆਂ"`,
      );
    });
  });
}
