// @vitest-environment jsdom
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processImage } from '../../api/images/images.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { DEFAULT_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { BACKGROUND_COLOR, BUILT_ICONS } from '../../domain/web-manifest.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * The shop's profile reaching what the server writes about the shop: the web manifest (name,
 * short name, description, icons made from the logo) and every page's head (title suffix,
 * og:site_name, application-name, the JSON-LD's Bakery), at once after the owner saves it.
 */
const SHELL = `<!doctype html>
<html lang="en-IN">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The shell's own description." />
    <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
    <link rel="manifest" href="/manifest.webmanifest" />
    <meta name="application-name" content="Bakery &amp; Blooms" />
    <meta name="apple-mobile-web-app-title" content="Bakery" />
    <title>Bakery &amp; Blooms</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

const OWN: ShopProfile = {
  ...DEFAULT_PROFILE,
  name: 'Chai & Crumbs',
  shortName: 'Chai',
  tagline: 'Tea-time cakes, baked at dawn',
  legalName: 'Crumbs Foods Private Limited',
  care: { phone: '+91 172 400 1234', whatsapp: '', email: 'care@chai.example', hours: '' },
  stores: [
    { name: 'Old Town', address: '12 Mall Road, Shimla', pin: '171001', phone: '', hours: '', mapUrl: '' },
    { name: 'Lakkar Bazar', address: '3 Lakkar Bazar, Shimla', pin: '', phone: '', hours: '', mapUrl: '' },
  ],
  social: { instagram: 'https://www.instagram.com/chai.crumbs/', facebook: '', youtube: '' },
};

const parseHtml = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const metaOf = (doc: Document, key: string) =>
  doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
const jsonLdOf = (doc: Document) =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>,
  );

it("is named the default profile's name when the page head has no profile to pass", () => {
  expect(SITE_NAME).toBe(DEFAULT_PROFILE.name);
});

for (const dialect of DIALECTS) {
  describe(`the shop's manifest and page heads on ${dialect}`, () => {
    let t: TestApp;
    let dataDir: string;
    let webDir: string;
    let admin: { authorization: string };
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', ...headers } });
    const saveProfile = async (profile: ShopProfile) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin,
        payload: { profile },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'manifest-data-'));
      webDir = mkdtempSync(path.join(tmpdir(), 'manifest-web-'));
      writeFileSync(path.join(webDir, 'index.html'), SHELL);
      // An older build's own manifest in the folder never answers for the server's.
      writeFileSync(path.join(webDir, 'manifest.webmanifest'), '{"name":"A build-time name"}');
      t = await makeTestApp(dialect, { dataDir, webDir, allowedHosts: ['shop.test'] });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(webDir, { recursive: true, force: true });
    });

    it("serves the default shop's manifest with the built icons, revalidated by its ETag", async () => {
      const res = await get('/manifest.webmanifest');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const manifest = res.json();
      expect(manifest).toMatchObject({
        name: DEFAULT_PROFILE.name,
        short_name: DEFAULT_PROFILE.shortName,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: BACKGROUND_COLOR,
        theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      });
      expect(manifest.description).toContain(DEFAULT_PROFILE.name);
      expect(manifest.icons).toEqual(BUILT_ICONS);
      const etag = String(res.headers.etag);
      expect((await get('/manifest.webmanifest', { 'if-none-match': etag })).statusCode).toBe(304);
      // Without a logo, a logo icon's address leads to the built icon.
      const icon = await get('/icons/shop-192.png?v=1');
      expect(icon.statusCode).toBe(302);
      expect(icon.headers.location).toBe('/icons/icon-192.png');
    });

    it('follows a saved profile at once: the manifest and every page head', async () => {
      const before = String((await get('/manifest.webmanifest')).headers.etag);
      await saveProfile(OWN);
      const res = await get('/manifest.webmanifest', { 'if-none-match': before });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: OWN.name,
        short_name: OWN.shortName,
        description: OWN.tagline,
      });

      const home = parseHtml((await get('/home')).body);
      expect(home.title).toBe(OWN.name);
      expect(metaOf(home, 'og:site_name')).toBe(OWN.name);
      expect(metaOf(home, 'application-name')).toBe(OWN.name);
      expect(metaOf(home, 'apple-mobile-web-app-title')).toBe(OWN.shortName);
      // The shell's own names are replaced, not doubled.
      expect(home.querySelectorAll('meta[name="application-name"]')).toHaveLength(1);
      expect(home.querySelectorAll('meta[name="apple-mobile-web-app-title"]')).toHaveLength(1);
      expect(home.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href')).toBe(
        '/apple-touch-icon.png',
      );
      expect(metaOf(home, 'description')).toContain(OWN.name);
      const bakeries = jsonLdOf(home).filter((d) => d['@type'] === 'Bakery');
      expect(bakeries).toHaveLength(2);
      expect(bakeries[0]).toMatchObject({
        name: `${OWN.name}, Old Town`,
        legalName: OWN.legalName,
        telephone: OWN.care.phone,
        email: OWN.care.email,
        address: { streetAddress: '12 Mall Road, Shimla', postalCode: '171001', addressCountry: 'IN' },
        sameAs: [OWN.social.instagram],
      });
      expect(bakeries[1]?.address).not.toHaveProperty('postalCode');
      // None of the demo's stores or contacts (the delivery areas are the database's, Mohali among them).
      expect(JSON.stringify(bakeries)).not.toMatch(/Sector 17|Phase 7|98765|bakeryandblooms/);
      expect(jsonLdOf(home).find((d) => d['@type'] === 'WebSite')).toMatchObject({ name: OWN.name });

      const products = parseHtml((await get('/products')).body);
      expect(products.title).toBe(`All Products | ${OWN.name}`);
      expect(metaOf(products, 'description')).toContain(OWN.name);
      const cart = parseHtml((await get('/cart')).body);
      expect(cart.title).toBe(`Your Cart | ${OWN.name}`);

      // A profile without stores or social links claims no address and no sameAs.
      await saveProfile({ ...OWN, stores: [], social: { instagram: '', facebook: '', youtube: '' } });
      const bare = jsonLdOf(parseHtml((await get('/home')).body)).filter((d) => d['@type'] === 'Bakery');
      expect(bare).toHaveLength(1);
      expect(bare[0]).not.toHaveProperty('address');
      expect(bare[0]).not.toHaveProperty('sameAs');
    });

    it('makes the 192, 512 and maskable 512 icons from the logo, once per logo version', async () => {
      const source = await sharp({
        create: { width: 600, height: 300, channels: 4, background: { r: 200, g: 20, b: 60, alpha: 1 } },
      })
        .png()
        .toBuffer();
      const logo = await processImage(source, t.app.media, 'logo.png');
      await saveProfile({ ...OWN, logo: { stem: logo.stem, version: 1 } });
      const v = `${logo.stem}.1`;
      const manifest = (await get('/manifest.webmanifest')).json() as {
        icons: { src: string; sizes: string; purpose: string; type: string }[];
      };
      expect(manifest.icons.map((i) => `${i.src} ${i.sizes} ${i.purpose}`)).toEqual([
        `/icons/shop-192.png?v=${v} 192x192 any`,
        `/icons/shop-512.png?v=${v} 512x512 any`,
        `/icons/shop-maskable-512.png?v=${v} 512x512 maskable`,
      ]);
      const home = parseHtml((await get('/home')).body);
      expect(metaOf(home, 'og:image')).toBe(`http://shop.test/icons/shop-512.png?v=${v}`);
      // iOS's home-screen icon: the logo on the shop's colour, once.
      expect(
        [...home.querySelectorAll('link[rel="apple-touch-icon"]')].map((l) => l.getAttribute('href')),
      ).toEqual([`/icons/shop-maskable-512.png?v=${v}`]);

      for (const icon of manifest.icons) {
        const res = await get(icon.src);
        expect(res.statusCode, icon.src).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(res.rawPayload).metadata();
        const size = Number(icon.sizes.split('x')[0]);
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: 'png',
          width: size,
          height: size,
        });
        const { data, info } = await sharp(res.rawPayload)
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const pixel = (x: number, y: number) => [
          ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
        ];
        const centre = pixel(size / 2, size / 2);
        expect(centre.slice(0, 3).map((c) => Math.round(c / 10))).toEqual([20, 2, 6]);
        if (icon.purpose === 'maskable') {
          // Padded to the safe zone on the shop's background, opaque to the corners.
          expect(pixel(2, 2)).toEqual([255, 248, 244, 255]);
          // The logo's edge stays inside the safe circle (40% of the size around the centre).
          expect(pixel(Math.round(size * 0.12), size / 2).slice(0, 3)).toEqual([255, 248, 244]);
        } else {
          // Transparent around a logo that is not square.
          expect(pixel(size / 2, 2)[3]).toBe(0);
        }
        expect((await get(icon.src, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
      }
      // An address naming another logo gets the current icon, revalidated each time.
      const stale = await get('/icons/shop-192.png?v=pold-logo.1');
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['cache-control']).toBe('no-cache');

      // A new logo (a new upload: a new stem) is a new address, and its own picture.
      const blue = await sharp({
        create: { width: 300, height: 300, channels: 4, background: { r: 20, g: 40, b: 220, alpha: 1 } },
      })
        .png()
        .toBuffer();
      const next = await processImage(blue, t.app.media, 'logo.png');
      await saveProfile({ ...OWN, logo: { stem: next.stem, version: 1 } });
      const renamed = (await get('/manifest.webmanifest')).json() as { icons: { src: string }[] };
      expect(renamed.icons[0]?.src).toBe(`/icons/shop-192.png?v=${next.stem}.1`);
      const { data } = await sharp((await get(renamed.icons[0]?.src ?? '')).rawPayload)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const centre = (96 * 192 + 96) * 4;
      expect([...data.subarray(centre, centre + 3)].map((c) => Math.round(c / 10))).toEqual([2, 4, 22]);
    });
  });
}
