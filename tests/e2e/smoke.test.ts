import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/e2e.js';

/**
 * The smoke test of `npm start`: the real server (`tsx api/server.ts`) on a
 * fresh data folder serves the built PWA's shell to real Chromium, and its
 * start-up loaded the demo catalogue. The build is `dist/` when present (as
 * `npm start` leaves it), otherwise a fresh Vite build into a temp folder.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORT = 4103;
const BASE = `http://127.0.0.1:${PORT}`;
const run = promisify(execFile);

let server: ChildProcess | null = null;
let browser: Browser | null = null;
const temp: string[] = [];
let serverLog = '';

async function waitForHealth(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) {
      throw new Error(`server exited with ${server.exitCode}:\n${serverLog}`);
    }
    try {
      const res = await fetch(`${BASE}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /api/health in time:\n${serverLog}`);
}

describe('npm start serves the shop', () => {
  beforeAll(async () => {
    let webDir = path.join(ROOT, 'dist');
    if (!existsSync(path.join(webDir, 'index.html'))) {
      webDir = mkdtempSync(path.join(tmpdir(), 'smoke-web-'));
      temp.push(webDir);
      await run(
        path.join(ROOT, 'node_modules/.bin/vite'),
        ['build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'],
        {
          cwd: ROOT,
          env: { ...process.env, NODE_ENV: 'production' },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'smoke-data-'));
    temp.push(dataDir);
    server = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['api/server.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIR: webDir,
        SEED_DEMO: 'true',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => {
      serverLog += d;
    });
    server.stderr?.on('data', (d) => {
      serverLog += d;
    });
    // The demo catalogue is drawn and loaded before the server listens.
    await waitForHealth(Date.now() + 120_000);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  it('loads the shell in Chromium', async () => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${BASE}/`, { waitUntil: 'domcontentloaded' });
    expect(res?.status()).toBe(200);
    // The shell is revalidated on every visit, so a new build reaches the shopper.
    expect(res?.headers()['cache-control']).toMatch(/no-cache|max-age=0/);
    await expect(page.title()).resolves.toBe('Bakery & Blooms');
    // The React shell renders the header's logo text.
    await page.getByText('Bakery & Blooms').first().waitFor({ state: 'visible', timeout: 30_000 });
    // A page route (not a file) gets the shell too.
    const route = await page.goto(`${BASE}/products-by-category/All%20Cakes`, {
      waitUntil: 'domcontentloaded',
    });
    expect(route?.status()).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('started with the demo catalogue and serves its pictures', async () => {
    const cats = (await (await fetch(`${BASE}/api/GetCategories`)).json()) as { data: unknown[] };
    expect(cats.data).toHaveLength(14);
    const products = (await (await fetch(`${BASE}/api/ABCGetProducts`)).json()) as {
      data: { images: { thumb: string }[] }[];
    };
    expect(products.data.length).toBeGreaterThanOrEqual(80);
    const thumb = await fetch(`${BASE}${products.data[0]?.images[0]?.thumb}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(thumb.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${BASE}/api/NoSuchEndpoint`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ isSuccess: false });
  });
});
