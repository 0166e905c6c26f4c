import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * The built PWA as the server sees it: the build (vite.config.ts) writes `.br` and
 * `.gz` beside each text asset of 1 KiB or more. The files here are laid out the
 * same way, with bodies large enough to compress, so the tests can tell which file
 * was sent by its bytes.
 */
function writeWebDir(): { dir: string; js: string; sw: string; html: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-assets-'));
  mkdirSync(path.join(dir, 'assets'));
  const js = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;
  const sw = `self.addEventListener('fetch', () => {});\n${'// padding so the worker is compressed\n'.repeat(60)}`;
  const html = `<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div>${'<!-- shell -->'.repeat(100)}</body></html>`;
  const files: [string, string][] = [
    ['assets/index-abc123.js', js],
    ['sw.js', sw],
    ['index.html', html],
  ];
  for (const [name, body] of files) {
    const file = path.join(dir, name);
    writeFileSync(file, body);
    writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(body)));
    writeFileSync(`${file}.gz`, gzipSync(Buffer.from(body)));
  }
  // Small files get no compressed siblings; they must still be served (the server may
  // compress them on the fly).
  writeFileSync(path.join(dir, 'assets', 'tiny-def456.css'), 'a{color:red}');
  return { dir, js, sw, html };
}

for (const dialect of DIALECTS) {
  describe(`built web assets on ${dialect}`, () => {
    let t: TestApp;
    let web: ReturnType<typeof writeWebDir>;
    beforeAll(async () => {
      web = writeWebDir();
      t = await makeTestApp(dialect, { webDir: web.dir });
    });
    afterAll(async () => {
      await t.close();
      rmSync(web.dir, { recursive: true, force: true });
    });

    it('answers a hashed JS asset with the brotli file, cached for a year', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(web.js);
    });

    it('sends the gzip file to a browser without brotli', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(res.rawPayload).toString()).toBe(web.js);
    });

    it('sends the plain file when no encoding is accepted or the header is nonsense', async () => {
      for (const accept of ['identity', 'zstd;q=nonsense, ,,', '']) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/assets/index-abc123.js',
          headers: { 'accept-encoding': accept },
        });
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBeUndefined();
        expect(res.body, accept).toBe(web.js);
      }
    });

    it('serves a small asset that has no compressed sibling', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/tiny-def456.css',
        headers: { 'accept-encoding': 'br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const body =
        res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      expect(body).toBe('a{color:red}');
    });

    it('keeps the worker revalidated and allowed at the root when sent compressed', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['service-worker-allowed']).toBe('/');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(web.sw);
    });

    it('answers a page route with the shell, compressed and revalidated', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/cart?x=1',
        headers: { 'accept-encoding': 'br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      const body = brotliDecompressSync(res.rawPayload).toString();
      // The shell's body as built; its head made for the page (api/pages, tests/api/pages.test.ts).
      expect(body).toContain(web.html.slice(web.html.indexOf('<body>')));
      expect(body).toContain('<title>Your Cart | Bakery &amp; Blooms</title>');
      expect(body).not.toContain('<title>Shop</title>');
    });

    it('answers a missing asset with 404, not the shell', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/missing-000.js',
        headers: { 'accept-encoding': 'br' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<html');
    });

    it('does not serve a compressed file for a path outside the web folder', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/..%2f..%2fetc%2fpasswd',
        headers: { 'accept-encoding': 'br' },
      });
      expect([400, 403, 404]).toContain(res.statusCode);
      expect(res.body).not.toContain('root:');
    });
  });
}
