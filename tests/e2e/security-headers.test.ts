import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeCspViolations } from '../support/csp-guard.js';
import { phoneContext, type RunningServer, waitForController } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';

/**
 * The security headers on the real build and server, and the policy in Chromium:
 * the built shell's inline stylesheet and start-up script are the hashes the
 * policy names; the worker's offline shell is answered with the same policy; the
 * browser enforces it online and offline; and the guard every browser test runs
 * under (tests/support/csp-guard.ts) sees a violation (so its silence elsewhere
 * means something).
 */
let shop: Shop;
let webDir: string;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  shop = await openShop();
  ({ server, browser, webDir } = shop);
  context = await phoneContext(browser, server.url);
  page = await context.newPage();
});

afterAll(() => shop?.close());

/** Runs an inline script the way an injected one would arrive, and says whether it ran. */
async function inlineScriptRuns(p: Page): Promise<boolean> {
  return p.evaluate(async () => {
    const w = window as unknown as { __ranInline?: boolean };
    // Read back through a function, so TypeScript does not narrow it to the false set here.
    const ran = () => w.__ranInline === true;
    w.__ranInline = false;
    const script = document.createElement('script');
    script.textContent = 'window.__ranInline = true;';
    document.body.append(script);
    await new Promise((r) => setTimeout(r, 200));
    return ran();
  });
}

describe('security headers on the real build', () => {
  it('names the hashes of the built shell’s inline stylesheet and script, and nothing inline else', async () => {
    const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
    const css = html.match(/<style>([\s\S]*?)<\/style>/)?.[1];
    // The catalogue's early download, and the start of the app's code after the first paint.
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(css, 'the build inlines the entry stylesheet').toBeTruthy();
    expect(scripts, 'the shell has its two start-up scripts').toHaveLength(2);
    const sha = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
    // The login form's shell (api/pages/screen-shells.ts) brings its stylesheet inline: allowed on pages.
    const login = await (await fetch(`${server.url}/login`)).text();
    const shellCss = [...login.matchAll(/<div class="shell-screen"[^>]*><style>([\s\S]*?)<\/style>/g)].map(
      (m) => m[1] ?? '',
    );
    expect(shellCss, "the login page's HTML has the form's shell").toHaveLength(1);
    const onPages = ` ${shellCss.map(sha).join(' ')}`;
    const res = await fetch(`${server.url}/home`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`style-src 'self' ${sha(css ?? '')}${onPages};`);
    expect(csp).toContain(`script-src 'self' ${scripts.map(sha).join(' ')};`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('razorpay');
    // A style attribute would need 'unsafe-inline': the shell has none.
    expect(html).not.toMatch(/\sstyle=/);
    expect((await fetch(`${server.url}/login`)).headers.get('content-security-policy')).toBe(csp);
    // Anything but a page: the same policy without the shells' stylesheets (the worker's offline
    // shell, /index.html, has none of them).
    // (helmet writes the emptied source as a space before the `;`, which CSP's grammar allows).
    const bare = csp.replace(onPages, ' ');
    expect(bare).not.toBe(csp);
    for (const url of ['/sw.js', '/api/GetCategories', '/index.html', '/manifest.webmanifest']) {
      const other = await fetch(`${server.url}${url}`);
      expect(other.headers.get('content-security-policy'), url).toBe(bare);
      expect(other.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    const { products } = await shop.feed();
    const image = products.find((p) => p.images[0])?.images[0]?.thumb;
    expect(image).toBeTruthy();
    const media = await fetch(`${server.url}${image}`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-security-policy')).toBe(bare);
  });

  it('the guard of every browser test sees a violation: an injected inline script is refused and reported', async () => {
    await page.goto('/home');
    await waitForController(page);
    await page.getByRole('banner').waitFor();
    expect(takeCspViolations()).toEqual([]);
    expect(await inlineScriptRuns(page)).toBe(false);
    await expect.poll(() => takeCspViolations().join('\n')).toMatch(/script-src/);
  });

  it('answers the offline shell from the worker with the same policy, and the browser enforces it', async () => {
    const online = await page.goto('/products');
    const policy = online?.headers()['content-security-policy'];
    expect(policy).toBeTruthy();
    // What the worker precached: the shell response with its headers.
    const cached = await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (new URL(request.url).pathname === '/index.html') {
            return (await cache.match(request))?.headers.get('content-security-policy') ?? 'no header';
          }
        }
      }
      return 'no cached shell';
    });
    expect(cached).toBe(policy);

    await context.setOffline(true);
    try {
      const offline = await page.goto('/all-categories');
      expect(offline?.fromServiceWorker()).toBe(true);
      expect(offline?.headers()['content-security-policy']).toBe(policy);
      await page.getByRole('banner').waitFor();
      expect(takeCspViolations()).toEqual([]);
      expect(await inlineScriptRuns(page)).toBe(false);
      await expect.poll(() => takeCspViolations().join('\n')).toMatch(/script-src/);
    } finally {
      await context.setOffline(false);
    }
  });

  it('refuses to be framed by another page', async () => {
    const res = await fetch(`${server.url}/dashboard`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
