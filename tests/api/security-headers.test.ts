import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Every kind of answer carries the security headers (README "Security headers"):
 * the shell (a page route, and /index.html, which the worker precaches and serves
 * offline), the API, a refusal, media and the worker script. The built shell is
 * laid out as the build writes it: an inlined stylesheet and one inline script,
 * whose hashes the policy must name (computed here from the same texts).
 */
const CSS = 'body{margin:0}.shell-header{min-height:3.25rem}';
const SCRIPT = "\n      window.__first = fetch('/api/sync/catalogue?limit=200');\n    ";
const JSON_LD = '{"@context":"https://schema.org"}';
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function writeWeb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'security-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><title>Shop</title><script type="module" src="/assets/index-a1.js"></script><style>${CSS}</style><script type="application/ld+json">${JSON_LD}</script></head><body><div id="root"></div><script>${SCRIPT}</script></body></html>`,
  );
  writeFileSync(path.join(dir, 'sw.js'), "self.addEventListener('fetch', () => {});\n");
  writeFileSync(path.join(dir, 'assets', 'index-a1.js'), 'export {};\n');
  return dir;
}

function policy(razorpay: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${sha(SCRIPT)}${razorpay ? ' https://checkout.razorpay.com' : ''}`,
    "script-src-attr 'none'",
    `style-src 'self' ${sha(CSS)}`,
    "img-src 'self' data: blob:",
    `connect-src 'self'${razorpay ? ' https://api.razorpay.com' : ''}`,
    `frame-src https://www.openstreetmap.org${razorpay ? ' https://api.razorpay.com' : ''}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join(';');
}

const ROUTES: [string, string][] = [
  ['a page route (the shell with its head)', '/home'],
  ['the plain shell the worker precaches', '/index.html'],
  ['an API answer', '/api/GetCategories'],
  ['an API refusal', '/api/no-such-endpoint'],
  ['a media file', '/media/cake-320.webp'],
  ['the worker script', '/sw.js'],
  ['a hashed asset', '/assets/index-a1.js'],
];

for (const dialect of DIALECTS) {
  describe(`security headers on ${dialect}`, () => {
    let web: string;
    let dataDir: string;
    let plain: TestApp;
    let withRazorpay: TestApp;
    let behindProxy: TestApp;

    beforeAll(async () => {
      web = writeWeb();
      dataDir = mkdtempSync(path.join(tmpdir(), 'security-data-'));
      plain = await makeTestApp(dialect, { webDir: web, dataDir });
      withRazorpay = await makeTestApp(dialect, {
        webDir: web,
        dataDir,
        razorpay: {
          keyId: 'rzp_test_k',
          keySecret: 's3cret',
          webhookSecret: null,
          apiUrl: 'http://127.0.0.1:9',
        },
      });
      behindProxy = await makeTestApp(dialect, { webDir: web, dataDir, trustProxy: true });
      // A picture in each app's store (the folder they share on SQLite, each database on PostgreSQL).
      for (const t of [plain, withRazorpay, behindProxy])
        await t.app.media.put('cake-320.webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 '));
    });
    afterAll(async () => {
      await plain?.close();
      await withRazorpay?.close();
      await behindProxy?.close();
      rmSync(web, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });

    it.each(ROUTES)('%s carries the policy and the other headers', async (_what, url) => {
      const res = await plain.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['content-security-policy']).toBe(policy(false));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['permissions-policy']).toBe(
        'accelerometer=(), camera=(), clipboard-write=(self), display-capture=(), fullscreen=(self), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=()',
      );
      // Plain http: no HSTS.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('serves the files it was asked for (the headers are not on an error page)', async () => {
      const shell = await plain.app.inject({ method: 'GET', url: '/home' });
      expect(shell.statusCode).toBe(200);
      expect(shell.body).toContain(`<style>${CSS}</style>`);
      const media = await plain.app.inject({ method: 'GET', url: '/media/cake-320.webp' });
      expect(media.statusCode).toBe(200);
      expect(media.headers['content-type']).toBe('image/webp');
      const sw = await plain.app.inject({ method: 'GET', url: '/sw.js' });
      expect(sw.statusCode).toBe(200);
      const api = await plain.app.inject({ method: 'GET', url: '/api/GetCategories' });
      expect(api.statusCode).toBe(200);
    });

    it("allows Razorpay Checkout's origins only when its keys are set", async () => {
      for (const url of ['/home', '/api/GetCategories', '/sw.js']) {
        const res = await withRazorpay.app.inject({ method: 'GET', url });
        expect(res.headers['content-security-policy'], url).toBe(policy(true));
        expect(res.headers['permissions-policy']).toContain('payment=(self "https://api.razorpay.com")');
      }
    });

    it('sends HSTS only for a request that came over HTTPS through a trusted proxy', async () => {
      const https = await behindProxy.app.inject({
        method: 'GET',
        url: '/home',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const api = await behindProxy.app.inject({
        method: 'GET',
        url: '/api/GetCategories',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const http = await behindProxy.app.inject({ method: 'GET', url: '/home' });
      expect(http.headers['strict-transport-security']).toBeUndefined();
      // Without TRUST_PROXY anyone could claim https: the header is not believed.
      const untrusted = await plain.app.inject({
        method: 'GET',
        url: '/home',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(untrusted.headers['strict-transport-security']).toBeUndefined();
    });
  });
}
