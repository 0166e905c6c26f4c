import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteOrphanPhotos,
  insertPhoto,
  PHOTO_UNUSED_AFTER_MS,
  photoBytesUsed,
  saveRecipient,
} from '../../api/gifts/gift.repository.js';
import { RECIPIENT_SAVE_RULE } from '../../api/gifts/gift.routes.js';
import { KEY_RETENTION_MS } from '../../api/orders/idempotency.js';
import {
  giftMessages,
  PHOTO_FULL_MAX_BYTES,
  PHOTO_QUOTA_BYTES,
  RECIPIENTS_MAX,
  type SavedRecipientInput,
} from '../../domain/gifts.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * What a shopper's gifts may take on the server, on SQLite and PostgreSQL: the full size of a
 * cake photo within 2 MB however noisy the upload, 50 MB of photos per account, the one rule of
 * an unused photo, and saved recipients capped at 50 with 30 saves an hour.
 */
type User = Awaited<ReturnType<typeof createUserWithToken>>;
const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Random pixels: the worst case for any codec. 2000 x 1500 at JPEG quality 95 without chroma
 * subsampling is about 6 MB (under the 10 MB upload limit) and about 4 MB as WebP at quality 85,
 * still more than 2 MB at quality 60: the fit must lower the quality and then the size.
 */
async function noiseJpeg(width = 2000, height = 1500): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

const smallJpeg = () =>
  sharp({ create: { width: 200, height: 150, channels: 3, background: '#d4a373' } })
    .jpeg()
    .toBuffer();

async function multipart(data: Buffer): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

const recipient = (i: number): SavedRecipientInput => ({
  name: `Friend ${i}`,
  phone: '9812345678',
  address: `${i} Mall Road`,
  city: 'Ludhiana',
  state: 'Punjab',
  pincode: '141001',
});

let noise: Buffer;
beforeAll(async () => {
  noise = await noiseJpeg();
});

for (const dialect of DIALECTS) {
  describe(`gift limits on ${dialect}`, () => {
    let t: TestApp;
    let photoCake: FixtureProduct;
    let plain: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      photoCake = await insertProduct(t.app, { title: `Photo Cake ${dialect}`, price: 900 });
      plain = await insertProduct(t.app, { title: `Roses ${dialect}`, price: 450 });
      await t.app.db
        .updateTable('products')
        .set({ takes_message: 1, photo_cake: 1 })
        .where('id', '=', photoCake.id)
        .execute();
    });
    afterAll(async () => t.close());

    const upload = async (user: User, data: Buffer, key = newKey()) => {
      const form = await multipart(data);
      return t.app.inject({
        method: 'POST',
        url: '/api/cake-photos',
        headers: { ...user.auth, ...form.headers, 'idempotency-key': key },
        payload: form.payload,
      });
    };
    const fetchPhoto = (user: User, id: string, size: 'full' | 'preview') =>
      t.app.inject({ method: 'GET', url: `/api/cake-photos/${id}?size=${size}`, headers: user.auth });
    const photosOf = async (userId: number) =>
      (await t.app.db.selectFrom('cake_photos').select('id').where('user_id', '=', userId).execute()).map(
        (r) => r.id,
      );

    it('keeps the full size of a noise JPEG within 2 MB: the quality goes down, then the size', async () => {
      expect(noise.length).toBeGreaterThan(4 * MB);
      const user = await createUserWithToken(t.app);
      const res = await upload(user, noise);
      expect(res.statusCode).toBe(201);
      const { photoID, width, height } = res.json().data;
      const full = await fetchPhoto(user, photoID, 'full');
      expect(full.statusCode).toBe(200);
      expect(full.rawPayload.length).toBeLessThanOrEqual(PHOTO_FULL_MAX_BYTES);
      const meta = await sharp(full.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect({ width: meta.width, height: meta.height }).toEqual({ width, height });
      // Quality alone could not fit random pixels: the picture was made smaller, keeping its shape.
      expect(width).toBeLessThan(2000);
      expect(Math.abs(width / height - 4 / 3)).toBeLessThan(0.01);
      const preview = await fetchPhoto(user, photoID, 'preview');
      // The account's total counts both copies, as stored.
      expect(await photoBytesUsed(t.app.db, user.id)).toBe(
        full.rawPayload.length + preview.rawPayload.length,
      );
    });

    it('keeps at most 50 MB of photos per account: the upload that would pass it is a 413 the shopper can read', async () => {
      const user = await createUserWithToken(t.app);
      const firstKey = newKey();
      const first = await upload(user, await smallJpeg(), firstKey);
      expect(first.statusCode).toBe(201);
      const firstID = first.json().data.photoID;
      const kept =
        (await fetchPhoto(user, firstID, 'full')).rawPayload.length +
        (await fetchPhoto(user, firstID, 'preview')).rawPayload.length;
      // The account's earlier photos, as kept: all but 64 KB of the 50 MB.
      const chunk = 7 * MB;
      const room = 64 * 1024;
      let left = 50 * MB - room - kept;
      while (left > 0) {
        const size = Math.min(chunk, left);
        await insertPhoto(
          t.app.db,
          {
            id: crypto.randomUUID(),
            userId: user.id,
            key: null,
            full: Buffer.alloc(size - 1, 7),
            preview: Buffer.alloc(1, 7),
            width: 4000,
            height: 3000,
          },
          Number.POSITIVE_INFINITY,
        );
        left -= size;
      }
      const before = await photosOf(user.id);

      // A photo of a few kilobytes still fits; 400 x 300 random pixels (over 100 KB as WebP) do not.
      expect((await upload(user, await smallJpeg())).statusCode).toBe(201);
      const over = await upload(user, await noiseJpeg(400, 300));
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ isSuccess: false, data: null, sys_message: giftMessages.photoQuotaFull });
      expect((await photosOf(user.id)).length).toBe(before.length + 1);
      expect(PHOTO_QUOTA_BYTES).toBe(50 * MB);
      const used = await photoBytesUsed(t.app.db, user.id);
      expect(used).toBeGreaterThan(PHOTO_QUOTA_BYTES - room);
      expect(used).toBeLessThanOrEqual(PHOTO_QUOTA_BYTES);

      // A retry of a photo already kept is answered, full or not: it adds nothing.
      const replay = await upload(user, await smallJpeg(), firstKey);
      expect(replay.statusCode).toBe(201);
      expect(replay.json().data.photoID).toBe(first.json().data.photoID);

      // Exactly full: refused before the photo is even read.
      await insertPhoto(
        t.app.db,
        {
          id: crypto.randomUUID(),
          userId: user.id,
          key: null,
          full: Buffer.alloc(PHOTO_QUOTA_BYTES - (await photoBytesUsed(t.app.db, user.id)) - 1, 7),
          preview: Buffer.alloc(1, 7),
          width: 4000,
          height: 3000,
        },
        PHOTO_QUOTA_BYTES,
      );
      expect(await photoBytesUsed(t.app.db, user.id)).toBe(PHOTO_QUOTA_BYTES);
      const full = await upload(user, Buffer.from('not even a picture'));
      expect(full.statusCode).toBe(413);
      expect(full.json().sys_message).toBe(giftMessages.photoQuotaFull);

      // Another account's photos are its own business.
      expect((await upload(await createUserWithToken(t.app), await smallJpeg())).statusCode).toBe(201);
    });

    it('defines an unused photo once: no order references it and it is over 30 days old; its bytes go with it', async () => {
      const user = await createUserWithToken(t.app);
      const idOf = async () => {
        const res = await upload(user, await smallJpeg());
        expect(res.statusCode).toBe(201);
        return res.json().data.photoID as string;
      };
      const [ordered, young, old] = [await idOf(), await idOf(), await idOf()];
      const body = orderRequest([{ product: photoCake }]);
      body.OrderItems[0] = { ...body.OrderItems[0], PhotoID: ordered } as (typeof body.OrderItems)[0];
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...user.auth, 'idempotency-key': newKey() },
        payload: body,
      });
      expect(placed.statusCode).toBe(200);

      const now = Date.now();
      const age = async (id: string, days: number) =>
        t.app.db
          .updateTable('cake_photos')
          .set({ created_at: now - days * DAY_MS })
          .where('id', '=', id)
          .execute();
      await age(ordered, 31);
      await age(young, 29);
      await age(old, 31);

      expect(await deleteOrphanPhotos(t.app.db, now)).toBe(1);
      expect(new Set(await photosOf(user.id))).toEqual(new Set([ordered, young]));
      for (const size of ['full', 'preview'] as const) {
        expect((await fetchPhoto(user, old, size)).statusCode).toBe(404);
        expect((await fetchPhoto(user, ordered, size)).statusCode).toBe(200);
        expect((await fetchPhoto(user, young, size)).statusCode).toBe(200);
      }
      // Nothing more is unused until the young one's day comes.
      expect(await deleteOrphanPhotos(t.app.db, now)).toBe(0);
      expect(await deleteOrphanPhotos(t.app.db, now + 2 * DAY_MS)).toBe(1);
      expect(await photosOf(user.id)).toEqual([ordered]);
      // The rule's age: the idempotency keys' life, after which no queued order can bring a photo.
      expect(PHOTO_UNUSED_AFTER_MS).toBe(30 * DAY_MS);
      expect(PHOTO_UNUSED_AFTER_MS).toBe(KEY_RETENTION_MS);
    });

    const save = (user: User, payload: SavedRecipientInput) =>
      t.app.inject({ method: 'POST', url: '/api/my-recipients', headers: user.auth, payload });
    const listed = async (user: User) =>
      (await t.app.inject({ method: 'GET', url: '/api/my-recipients', headers: user.auth })).json().data as {
        id: number;
      }[];

    it('keeps at most 50 recipients per account: the 51st is refused, saving one kept again is not', async () => {
      expect(RECIPIENTS_MAX).toBe(50);
      const user = await createUserWithToken(t.app);
      // Kept with earlier orders (the same function as an order's "Save this recipient").
      for (let i = 1; i <= RECIPIENTS_MAX - 2; i++) await saveRecipient(t.app.db, user.id, recipient(i));
      expect((await save(user, recipient(49))).statusCode).toBe(201);
      expect((await save(user, recipient(50))).statusCode).toBe(201);
      const refused = await save(user, recipient(51));
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({
        isSuccess: false,
        data: null,
        sys_message: giftMessages.recipientsFull,
      });
      const again = await save(user, recipient(7));
      expect(again.statusCode).toBe(201);
      expect(again.json().data).toMatchObject(recipient(7));
      expect(await listed(user)).toHaveLength(RECIPIENTS_MAX);

      // An order's "Save this recipient" at the cap: the order goes, the list stays as it was.
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...user.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: plain }], {
          Recipient: { Name: 'Friend 51', Phone: '9812345678', Save: true },
        }),
      });
      expect(placed.statusCode).toBe(200);
      expect(await listed(user)).toHaveLength(RECIPIENTS_MAX);

      // Removing one makes room for one.
      const [newest] = await listed(user);
      if (!newest) throw new Error('no recipient listed');
      await t.app.inject({ method: 'DELETE', url: `/api/my-recipients/${newest.id}`, headers: user.auth });
      expect((await save(user, recipient(51))).statusCode).toBe(201);
      expect((await save(user, recipient(52))).statusCode).toBe(422);
    });

    it('takes 30 saves an hour per account, saving one kept again included; the 31st is a 429 with Retry-After', async () => {
      const user = await createUserWithToken(t.app);
      for (let i = 1; i <= 20; i++) expect((await save(user, recipient(i))).statusCode).toBe(201);
      // Saving one already kept counts as a save.
      for (let i = 21; i <= 30; i++) {
        expect((await save(user, recipient(1))).statusCode).toBe(201);
      }
      const over = await save(user, recipient(31));
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.json()).toEqual({
        isSuccess: false,
        data: null,
        sys_message: giftMessages.recipientsTooMany,
      });
      expect(await listed(user)).toHaveLength(20);
      // Another account saves as before.
      expect((await save(await createUserWithToken(t.app), recipient(1))).statusCode).toBe(201);
      expect(RECIPIENT_SAVE_RULE).toEqual({ limit: 30, windowMs: 60 * 60 * 1000 });
    });
  });
}
