/**
 * The shop's profile on the server, on SQLite and PostgreSQL: saved with `PUT /admin/settings
 * {profile}`, each bad field a 400 naming it with nothing saved, admin only (the logo's upload
 * too), read at once by a second process on the same database, carried to phones by the feed;
 * and the logo's upload through the image pipeline, its pictures served at the URL `logoUrl`
 * makes, with its bad inputs (not a picture, too big, no file, not a form).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logoMessages } from '../../api/settings/logo.routes.js';
import { LIMITS } from '../../domain/catalogue.js';
import {
  DEFAULT_PROFILE,
  gstinCheckChar,
  LOGO_VERSION,
  LOGO_WIDTHS,
  type Logo,
  logoUrl,
  profileMessages,
  type ShopProfile,
} from '../../domain/shop-profile.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

type Auth = { authorization: string };

const GSTIN_14 = '27AAPFU0939F1Z';
const GSTIN = GSTIN_14 + gstinCheckChar(GSTIN_14);
const WRONG_GSTIN = GSTIN_14 + (GSTIN.endsWith('A') ? 'B' : 'A');

const PROFILE: ShopProfile = {
  ...DEFAULT_PROFILE,
  name: 'Sharma Sweets & Flowers',
  shortName: 'Sharma',
  tagline: 'Fresh every morning',
  care: { phone: '+91 172 400 1234', whatsapp: '9876501234', email: 'care@sharma.example', hours: '9 to 9' },
  stores: [
    {
      name: 'Sector 22',
      address: 'SCO 10, Sector 22-B, Chandigarh',
      pin: '160022',
      phone: '0172 400 1234',
      hours: '9 AM to 9 PM',
      mapUrl: 'https://www.openstreetmap.org/?mlat=30.73&mlon=76.77',
    },
    { name: 'Kharar', address: 'Main Road, Kharar', pin: '140301', phone: '', hours: '', mapUrl: '' },
  ],
  social: { instagram: 'https://instagram.com/sharma', facebook: '', youtube: '' },
  legalName: 'Sharma Foods Pvt. Ltd.',
  fssai: '10012345678901',
  gstin: GSTIN,
  grievance: { name: 'R. Sharma', designation: 'Proprietor', phone: '9876501234', email: 'r@sharma.example' },
};

/** A multipart body as a browser sends it. */
async function form(
  files: { field?: string; filename: string; type: string; data: Buffer }[],
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const body = new FormData();
  for (const [k, value] of Object.entries(fields)) body.append(k, value);
  for (const f of files)
    body.append(f.field ?? 'logo', new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
  const res = new Response(body);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type') ?? '' },
  };
}

/** A square logo: a coloured disc on transparency, as an owner's PNG would be. */
async function squareLogo(size = 800): Promise<Buffer> {
  const disc = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><circle cx="${size / 2}" cy="${size / 2}" r="${size / 2.2}" fill="#b0306a"/></svg>`,
  );
  return sharp(disc).png().toBuffer();
}

for (const dialect of DIALECTS) {
  describe(`the shop profile on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let admin: Auth;
    let shopper: Auth;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'shop-profile-'));
      t = await makeTestApp(dialect, { dataDir });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const profileOf = async (app: FastifyInstance = t.app): Promise<ShopProfile> => {
      const res = await app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
      expect(res.statusCode).toBe(200);
      return res.json().data.profile;
    };
    const save = (profile: unknown, auth: Auth | null = admin, app: FastifyInstance = t.app) =>
      app.inject({ method: 'PUT', url: '/api/admin/settings', headers: auth ?? {}, payload: { profile } });
    const upload = async (
      files: Parameters<typeof form>[0],
      auth: Auth | null = admin,
      fields: Record<string, string> = {},
    ) => {
      const body = await form(files, fields);
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/shop-profile/logo',
        payload: body.payload,
        headers: { ...body.headers, ...(auth ?? {}) },
      });
    };
    const feed = async (since: string | null) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/sync/catalogue${since === null ? '' : `?since=${since}`}`,
      });
      expect(res.statusCode).toBe(200);
      return res.json().data as { cursor: string; settings?: Record<string, unknown> };
    };

    it('saves a whole profile and answers it', async () => {
      expect(await profileOf()).toEqual(DEFAULT_PROFILE);
      const res = await save(PROFILE);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.profile).toEqual(PROFILE);
      expect(await profileOf()).toEqual(PROFILE);
    });

    it('refuses each bad field with a 400 naming it, and saves nothing', async () => {
      expect((await save(PROFILE)).statusCode).toBe(200);
      const { cursor } = await feed(null);
      const bad: [string, ShopProfile, string][] = [
        ['profile.fssai', { ...PROFILE, fssai: '1001234567890' }, profileMessages.fssai],
        ['profile.fssai', { ...PROFILE, fssai: '30012345678901' }, profileMessages.fssai],
        ['profile.gstin', { ...PROFILE, gstin: WRONG_GSTIN }, profileMessages.gstin],
        ['profile.gstin', { ...PROFILE, gstin: 'NOT-A-GSTIN' }, profileMessages.gstinShape],
        [
          'profile.care.email',
          { ...PROFILE, care: { ...PROFILE.care, email: 'care at sharma' } },
          profileMessages.email,
        ],
        [
          'profile.stores.0.pin',
          { ...PROFILE, stores: [{ ...(PROFILE.stores[0] as ShopProfile['stores'][0]), pin: '016002' }] },
          profileMessages.pin,
        ],
        [
          'profile.stores.2.name',
          {
            ...PROFILE,
            stores: [...PROFILE.stores, { ...(PROFILE.stores[1] as ShopProfile['stores'][0]), name: ' ' }],
          },
          profileMessages.storeName,
        ],
        [
          'profile.social.instagram',
          { ...PROFILE, social: { ...PROFILE.social, instagram: 'javascript:alert(1)' } },
          profileMessages.url,
        ],
        ['profile.name', { ...PROFILE, name: '   ' }, profileMessages.name],
        ['profile.shortName', { ...PROFILE, shortName: 'Sharma Sweets' }, profileMessages.shortName],
        [
          'profile.care.whatsapp',
          { ...PROFILE, care: { ...PROFILE.care, whatsapp: '12345' } },
          profileMessages.whatsapp,
        ],
      ];
      for (const [field, profile, message] of bad) {
        const res = await save(profile);
        expect(res.statusCode, field).toBe(400);
        expect(res.json(), field).toEqual({ isSuccess: false, data: { field }, sys_message: message });
      }
      const logo = await save({ ...PROFILE, logo: { stem: '../etc/passwd', version: 1 } });
      expect(logo.statusCode).toBe(400);
      expect(logo.json().data.field).toMatch(/^profile\.logo/);
      expect(await profileOf()).toEqual(PROFILE);
      // Nothing moved: a phone's next sync brings no profile.
      expect((await feed(cursor)).settings).toBeUndefined();
    });

    it('lets only an admin read or save the profile, or upload a logo: 401 logged out, 403 for a shopper', async () => {
      const png = await squareLogo(64);
      const calls: [string, (auth: Auth | null) => Promise<{ statusCode: number; json(): unknown }>][] = [
        ['read', (auth) => t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: auth ?? {} })],
        ['save', (auth) => save({ ...PROFILE, name: 'Taken Over' }, auth)],
        ['logo', (auth) => upload([{ filename: 'logo.png', type: 'image/png', data: png }], auth)],
      ];
      const files = await t.app.media.names();
      for (const [name, call] of calls) {
        expect((await call(null)).statusCode, `${name} logged out`).toBe(401);
        const refused = await call(shopper);
        expect(refused.statusCode, `${name} as a shopper`).toBe(403);
        expect(refused.json()).toMatchObject({ isSuccess: false });
      }
      expect((await profileOf()).name).not.toBe('Taken Over');
      expect(await t.app.media.names()).toEqual(files);
    });

    it('saves through one process what a second one on the same database reads at once', async () => {
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        expect((await save(PROFILE)).statusCode).toBe(200);
        expect(await profileOf(second)).toEqual(PROFILE);
        const changed = {
          ...PROFILE,
          name: 'Sharma Bakers',
          care: { ...PROFILE.care, phone: '0172 411 5555' },
        };
        expect((await save(changed, admin, second)).statusCode).toBe(200);
        expect(await profileOf(t.app)).toEqual(changed);
        expect(await profileOf(second)).toEqual(changed);
      } finally {
        await second.close();
      }
    });

    it('uploads a logo through the image pipeline, served at logoUrl, the profile’s once saved with it', async () => {
      expect((await save(PROFILE)).statusCode).toBe(200);
      const res = await upload([{ filename: 'logo.png', type: 'image/png', data: await squareLogo() }]);
      expect(res.statusCode).toBe(201);
      const logo = res.json().data as NonNullable<Logo>;
      expect(logo).toEqual({
        stem: expect.stringMatching(/^logo[a-z0-9]+-[0-9a-f]{12}$/),
        version: LOGO_VERSION,
      });
      expect(res.json().sys_message).toBe(logoMessages.uploaded);
      // Uploaded is not yet the shop's logo.
      expect((await profileOf()).logo).toBeNull();

      for (const width of LOGO_WIDTHS[LOGO_VERSION] ?? []) {
        const url = logoUrl(logo, width);
        expect(url).toBe(`/media/${logo.stem}-${width}.webp`);
        const pic = await t.app.inject({ method: 'GET', url });
        expect(pic.statusCode, url).toBe(200);
        expect(pic.headers['content-type']).toBe('image/webp');
        const meta = await sharp(pic.rawPayload).metadata();
        expect([meta.width, meta.height, meta.hasAlpha]).toEqual([width, width, true]);
      }
      // A header's 48 px logo on a 3x screen, and the manifest's 512 px icon, each get a made width.
      expect(logoUrl(logo, 144)).toBe(`/media/${logo.stem}-320.webp`);
      expect(logoUrl(logo, 512)).toBe(`/media/${logo.stem}-640.webp`);
      expect(logoUrl(logo, 2000)).toBe(`/media/${logo.stem}-640.webp`);
      expect(logoUrl(null, 320)).toBe('');

      expect((await save({ ...PROFILE, logo })).statusCode).toBe(200);
      expect((await profileOf()).logo).toEqual(logo);
      const removed = await save({ ...PROFILE, logo: null });
      expect(removed.json().data.profile.logo).toBeNull();
      // The old logo's files stay, as a product's removed pictures do: a phone not yet synced still shows it.
      expect((await t.app.inject({ method: 'GET', url: logoUrl(logo, 320) })).statusCode).toBe(200);
    });

    it('refuses a logo that is not a picture, too big, missing or not sent as a form, and keeps no file', async () => {
      const files = await t.app.media.names();
      const notImage = await upload([
        { filename: 'logo.png', type: 'image/png', data: Buffer.from('<svg onload="alert(1)"></svg>') },
      ]);
      expect(notImage.statusCode).toBe(400);
      expect(notImage.json()).toMatchObject({ isSuccess: false, data: { field: 'logo' } });
      expect(notImage.json().sys_message).toMatch(/^The logo is not an image we can read/);

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      expect((await upload([{ filename: 'logo.svg', type: 'image/svg+xml', data: svg }])).statusCode).toBe(
        400,
      );

      const huge = Buffer.concat([await squareLogo(64), Buffer.alloc(LIMITS.imageBytes + 1)]);
      const tooBig = await upload([{ filename: 'logo.png', type: 'image/png', data: huge }]);
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json()).toEqual({
        isSuccess: false,
        data: { field: 'logo' },
        sys_message: logoMessages.tooLarge,
      });

      const none = await upload([], admin, { note: 'no file chosen' });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({
        isSuccess: false,
        data: { field: 'logo' },
        sys_message: logoMessages.noFile,
      });
      const empty = await upload([{ filename: '', type: 'application/octet-stream', data: Buffer.alloc(0) }]);
      expect(empty.json().sys_message).toBe(logoMessages.noFile);

      const wrongField = await upload([
        { field: 'images', filename: 'logo.png', type: 'image/png', data: await squareLogo(64) },
      ]);
      expect(wrongField.statusCode).toBe(400);

      const json = await t.app.inject({
        method: 'POST',
        url: '/api/admin/shop-profile/logo',
        headers: admin,
        payload: { logo: 'data:image/png;base64,AAAA' },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().sys_message).toBe(logoMessages.notMultipart);
      expect(await t.app.media.names()).toEqual(files);
    });

    it('carries the saved profile to phones in the catalogue feed', async () => {
      expect((await save(PROFILE)).statusCode).toBe(200);
      const full = await feed(null);
      expect(full.settings?.profile).toEqual(PROFILE);
      const changed = { ...PROFILE, fssai: '20098765432109', stores: [] };
      expect((await save(changed)).statusCode).toBe(200);
      const delta = await feed(full.cursor);
      expect(delta.settings).toEqual({ profile: changed });
    });

    it('describes the logo’s upload in /api/docs', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
      const op = res.json().paths['/api/admin/shop-profile/logo'];
      expect(Object.keys(op)).toEqual(['post']);
      expect(Object.keys(op.post.responses)).toEqual(
        expect.arrayContaining(['201', '400', '401', '403', '413']),
      );
    });
  });
}
