import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../api/images/media-store.js';
import type { Product } from '../../domain/catalogue.js';
import { CATEGORIES } from '../../domain/shop.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * `POST /api/AddProductForDash`: the spec's multipart form, real images
 * through sharp, and the ways an upload goes wrong. A product whose images
 * fail is not created and leaves no file behind.
 */
type Auth = { authorization: string };

/** A photo-like JPEG (gradient plus noise, so it does not compress to nothing). */
async function photo(width = 1600, height = 1200): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#888',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: { r: 220, g: 120, b: 60 } },
  })
    .composite([{ input: noise, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

interface FormInput {
  fields?: Record<string, string | string[]>;
  files?: { name?: string; filename: string; type: string; data: Buffer }[];
}

async function multipart(input: FormInput): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(input.fields ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  }
  for (const f of input.files ?? []) {
    form.append(f.name ?? 'images', new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

const FIELDS = {
  /** Set to the ids of the categories each database's run adds. */
  CategoryID: [] as string[],
  Title: 'Midnight Chocolate Cake',
  Description:
    '<p>Dark and <em>rich</em>.</p><script>alert(1)</script><a href="javascript:alert(1)" onmouseover="x()">more</a>',
  LabelHeading: 'Eggless',
  LabelDescription: 'Baked fresh',
  Price: '799',
  SizeOrWeight: '1 kg',
  variationsJson: JSON.stringify([
    { VariationName: 'Weight', VariationType: '1 kg', Price: 799 },
    { VariationName: 'Weight', VariationType: '2 kg', Price: 1499 },
  ]),
};

for (const dialect of DIALECTS) {
  describe(`uploads on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let mediaDir: string;
    let admin: Auth;
    let jpeg: Buffer;

    const productCount = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('products')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const files = () => t.app.media.names();
    const post = async (input: FormInput, headers: Auth | Record<string, never> = admin) => {
      const body = await multipart(input);
      return t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        payload: body.payload,
        headers: { ...body.headers, ...headers },
      });
    };

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'h1-uploads-'));
      mediaDir = mediaDirOf(dataDir);
      t = await makeTestApp(dialect, { dataDir });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      jpeg = await photo();
      const ids: string[] = [];
      for (const c of [CATEGORIES.chocolate, CATEGORIES.allCakes]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: c.categoryName },
        });
        expect(res.statusCode).toBe(201);
        ids.push(String(res.json().data.categoryID));
      }
      // The form names categories this database has: an unknown one is refused before any image is read.
      FIELDS.CategoryID = ids;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('adds a product from the form: sanitized description, variations, WebP variants under budget', async () => {
      const cats = (await t.app.inject({ method: 'GET', url: '/api/GetCategories' })).json().data as {
        categoryID: number;
      }[];
      const res = await post({
        fields: { ...FIELDS, CategoryID: cats.map((c) => String(c.categoryID)) },
        files: [
          { filename: 'cake.jpg', type: 'image/jpeg', data: jpeg },
          { filename: 'side.png', type: 'image/png', data: await sharp(jpeg).resize(300).png().toBuffer() },
        ],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().sys_message).toBe('Product added successfully!');
      const p = res.json().data as Product;
      expect(p.title).toBe('Midnight Chocolate Cake');
      expect(p.price).toBe(799);
      expect(p.sizeOrWeight).toBe('1 kg');
      expect(p.categories.map((c) => c.categoryID)).toEqual(cats.map((c) => c.categoryID));
      expect(p.description).toContain('<em>rich</em>');
      for (const evil of ['script', 'alert', 'javascript:', 'onmouseover'])
        expect(p.description).not.toContain(evil);
      expect(p.variations.map((v) => [v.variationName, v.variationValue, v.price])).toEqual([
        ['Weight', '1 kg', 799],
        ['Weight', '2 kg', 1499],
      ]);
      expect(p.images).toHaveLength(2);
      expect(p.imagePath.split(',')).toEqual(p.images.map((i) => i.src));
      const [big] = p.images;
      expect(big?.width).toBe(640);
      expect(big?.height).toBe(480);
      // The second image was 300 px wide: it is never enlarged.
      expect(p.images[1]?.width).toBe(300);

      for (const url of [big?.thumb, big?.src]) {
        const media = await t.app.inject({ method: 'GET', url: url as string });
        expect(media.statusCode).toBe(200);
        expect(media.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(media.headers['content-type']).toBe('image/webp');
        const meta = await sharp(media.rawPayload).metadata();
        expect(meta.format).toBe('webp');
        if (url === big?.thumb) {
          expect(meta.width).toBe(320);
          expect(media.rawPayload.length).toBeLessThan(15 * 1024);
        } else {
          expect(meta.width).toBe(640);
          expect(media.rawPayload.length).toBeLessThan(60 * 1024);
        }
      }
      // Generated names only: nothing of the client's file name reaches the disk.
      expect((await files()).some((f) => f.includes('cake'))).toBe(false);
      expect(await files()).toHaveLength(4);
      // In the database on PostgreSQL: nothing on this process's disk, which another process could not read.
      if (t.app.media.kind === 'database')
        expect(existsSync(mediaDir) ? readdirSync(mediaDir) : []).toEqual([]);
    });

    it('refuses a file that is not an image (400) and keeps nothing', async () => {
      const before = [await productCount(), await files()];
      const res = await post({
        fields: FIELDS,
        files: [
          { filename: 'ok.jpg', type: 'image/jpeg', data: jpeg },
          {
            filename: 'evil.jpg',
            type: 'image/jpeg',
            data: Buffer.from('<html><script>alert(1)</script></html>'),
          },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ isSuccess: false, data: null });
      expect(res.json().sys_message).toContain('Image 2 (evil.jpg) is not an image');
      expect([await productCount(), await files()]).toEqual(before);
    });

    it('refuses an SVG (a document, not a picture) and a truncated JPEG', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      );
      for (const [filename, data] of [
        ['a.svg', svg],
        ['half.jpg', jpeg.subarray(0, 2000)],
      ] as const) {
        const before = await files();
        const res = await post({ fields: FIELDS, files: [{ filename, type: 'image/jpeg', data }] });
        expect(res.statusCode, filename).toBe(400);
        expect(res.json().isSuccess).toBe(false);
        expect(await files()).toEqual(before);
      }
    });

    it('answers 413 for a file over 5 MB, for more than 6 files, and for too many pixels', async () => {
      const big = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 1 - jpeg.length, 1)]);
      const tooBig = await post({
        fields: FIELDS,
        files: [{ filename: 'big.jpg', type: 'image/jpeg', data: big }],
      });
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'An uploaded file is too large.',
      });

      const seven = Array.from({ length: 7 }, (_, i) => ({
        filename: `${i}.jpg`,
        type: 'image/jpeg',
        data: jpeg,
      }));
      const tooMany = await post({ fields: FIELDS, files: seven });
      expect(tooMany.statusCode).toBe(413);
      expect(tooMany.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'Too many files were uploaded.',
      });

      // 8000 x 6000 = 48 megapixels of one colour: tiny as a PNG, huge once decoded.
      const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      const pixels = await post({
        fields: FIELDS,
        files: [{ filename: 'bomb.png', type: 'image/png', data: bomb }],
      });
      expect(pixels.statusCode).toBe(413);
      expect(pixels.json().sys_message).toContain('megapixels');
    });

    it('refuses missing or bad fields with the field message, before touching any image', async () => {
      const before = [await productCount(), await files()];
      const image = [{ filename: 'ok.jpg', type: 'image/jpeg', data: jpeg }];
      const cases: [FormInput, string][] = [
        [{ fields: FIELDS }, 'Please fill all required fields and select an image.'],
        [{ fields: { ...FIELDS, Title: '' }, files: image }, 'Title is required.'],
        [{ fields: { ...FIELDS, CategoryID: [] }, files: image }, 'Choose at least one category.'],
        [
          { fields: { ...FIELDS, CategoryID: ['abc'] }, files: image },
          'The id must be a positive whole number.',
        ],
        [{ fields: { ...FIELDS, CategoryID: ['999'] }, files: image }, 'Category 999 does not exist.'],
        [{ fields: { ...FIELDS, Price: '-5' }, files: image }, 'Price must be a whole number of rupees.'],
        [{ fields: { ...FIELDS, LabelHeading: ' ' }, files: image }, 'Label heading is required.'],
        [{ fields: { ...FIELDS, variationsJson: '[{' }, files: image }, 'variationsJson is not valid JSON.'],
        [
          {
            fields: { ...FIELDS, variationsJson: '[{"VariationName":"W","VariationType":"","Price":1}]' },
            files: image,
          },
          'Variation type is required.',
        ],
        [
          { fields: { ...FIELDS, Description: '<script>x</script>' }, files: image },
          'Description is required.',
        ],
        [
          { fields: FIELDS, files: [{ ...image[0], name: 'avatar' } as never] },
          'Unexpected file field "avatar": send images as "images".',
        ],
      ];
      for (const [input, message] of cases) {
        const res = await post(input);
        expect(res.statusCode, message).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
      }
      expect([await productCount(), await files()]).toEqual(before);
    });

    it('wants multipart and an admin', async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        headers: admin,
        payload: FIELDS,
      });
      expect(json.statusCode).toBe(400);
      expect(json.json().isSuccess).toBe(false);
      const image = [{ filename: 'ok.jpg', type: 'image/jpeg', data: jpeg }];
      expect((await post({ fields: FIELDS, files: image }, {})).statusCode).toBe(401);
      const shopper = (await createUserWithToken(t.app, { role: '0' })).auth;
      expect((await post({ fields: FIELDS, files: image }, shopper)).statusCode).toBe(403);
    });

    it('serves unknown media as a plain 404', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/media/nope-320.webp' });
      expect(res.statusCode).toBe(404);
      const traversal = await t.app.inject({ method: 'GET', url: '/media/..%2f..%2fetc%2fpasswd' });
      expect([403, 404]).toContain(traversal.statusCode);
    });
  });
}
