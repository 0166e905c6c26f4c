import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, tempDir } from '../support/e2e.js';

/**
 * The built worker, read as the browser gets it: its precache list must hold
 * the shell, every storefront screen's chunk, the placeholder and the icons,
 * each once, and no admin code; no manifest of the build's (the server writes it from the shop's
 * profile: tests/api/shop-manifest.test.ts), which a precached copy would shadow.
 */
let dir: string;
let sw: string;
let precache: { url: string; revision: string | null }[];

beforeAll(async () => {
  dir = await buildWeb(tempDir('sw-build'));
  sw = readFileSync(path.join(dir, 'sw.js'), 'utf8');
  const list = /\[(\{"revision":[^\]]*)\]/.exec(sw)?.[0];
  if (!list) throw new Error('No precache manifest in sw.js');
  precache = JSON.parse(list);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the built service worker', () => {
  it('precaches the shell, the placeholder and the icons, each once, and no manifest', () => {
    const urls = precache.map((e) => e.url);
    expect(urls.filter((u) => /manifest/.test(u))).toEqual([]);
    for (const url of [
      'index.html',
      'placeholder.svg',
      'icons/icon-192.png',
      'icons/icon-512.png',
      'icons/maskable-512.png',
    ]) {
      expect(urls, url).toContain(url);
    }
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('precaches every built script and style, so every screen opens offline', () => {
    const assets = readdirSync(path.join(dir, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    const urls = new Set(precache.map((e) => e.url));
    const missing = assets.filter((f) => !urls.has(`assets/${f}`) && !/admin|dashboard/i.test(f));
    expect(missing).toEqual([]);
    expect(assets.some((f) => /^ProductDetails-/.test(f))).toBe(true);
  });

  it('is a classic script that answers navigations with the shell but never the API or media', () => {
    expect(sw.startsWith('(function')).toBe(true);
    expect(sw).toContain('index.html');
    expect(sw).toContain('SKIP_WAITING');
    expect(sw).not.toMatch(/\bimport\s*\(/);
  });

  it('writes no web manifest of its own and links the one the server writes', () => {
    expect(existsSync(path.join(dir, 'manifest.webmanifest'))).toBe(false);
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html.match(/<link rel="manifest" href="\/manifest.webmanifest"/g)).toHaveLength(1);
    // No application-name in the offline shell: the app would take it for the profile's name, which
    // only the server's pages say (the app keeps the last one it learned).
    expect(html).not.toContain('name="application-name"');
  });
});
