import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { pageTitle } from '../../domain/page-head.js';
import {
  buildWeb,
  deviceCounts,
  deviceProducts,
  phoneContext,
  type RunningServer,
  setPrice,
  waitForController,
} from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';

/**
 * The offline plumbing in real Chromium against the real server: the worker
 * takes the first visit, fills the catalogue and the card images, serves the
 * shell and stored images with the network cut, picks up a price change
 * after reconnecting, and offers (never forces) a new build.
 */
let shop: Shop;
let webDir: string;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let token: string;

beforeAll(async () => {
  shop = await openShop({ build: { VITE_BUILD_ID: 'build-1' }, admin: true });
  ({ server, webDir } = shop);
  token = shop.admin.token;
  context = await phoneContext(shop.browser, server.url);
  page = await context.newPage();
});

afterAll(() => shop?.close());

async function readProduct(p: Page, id: number): Promise<{ price: number } | null> {
  return (await deviceProducts(p)).find((row) => row.productID === id) ?? null;
}

describe('the PWA in Chromium', () => {
  it('first visit: a worker takes the page and the catalogue and card images land on the device', async () => {
    const feed = await shop.feed();
    expect(feed.products.length).toBeGreaterThanOrEqual(3);
    await page.goto('/');
    await waitForController(page);
    await expect
      .poll(async () => (await deviceCounts(page)).products, { timeout: 60_000, interval: 250 })
      .toBe(feed.products.length);
    const withThumbs = feed.products.filter((p) => p.images[0]?.thumb.startsWith('/media/')).length;
    await expect
      .poll(async () => (await deviceCounts(page)).images, { timeout: 60_000, interval: 250 })
      .toBeGreaterThanOrEqual(withThumbs);
    const counts = await deviceCounts(page);
    expect(counts.categories).toBe(feed.categories.length);
    expect(counts.lastSyncedAt).toBeTypeOf('number');
    await expect
      .poll(() => page.getByText(/Catalogue synced/).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await page.locator('link[rel="manifest"]').count()).toBe(1);
    // The browser reads the manifest the server writes from the profile (the demo's), without errors.
    const cdp = await context.newCDPSession(page);
    const { errors, data } = (await cdp.send('Page.getAppManifest')) as {
      errors: { message: string }[];
      data?: string;
    };
    expect(errors).toEqual([]);
    expect(JSON.parse(data ?? '{}')).toMatchObject({ name: 'Bakery & Blooms', short_name: 'Bakery' });
    await cdp.detach();
    expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe('build-1');
  });

  it('offline: every route loads from the shell, images come from IndexedDB, missing ones are the placeholder', async () => {
    const feed = await shop.feed();
    const product = feed.products.find((p) => p.images[0]?.thumb.startsWith('/media/'));
    await context.setOffline(true);
    try {
      await page.reload();
      await expect.poll(() => page.getByText('You are offline', { exact: false }).count()).toBeGreaterThan(0);
      // The shell's own title is the shop's name; each screen then sets its own once it has read the
      // device. Reading the title right after the load raced that render (it failed whenever the screen was
      // quicker), so each route waits for its screen's title: the screen itself came up offline.
      const first = feed.products[0];
      for (const [route, title] of [
        ['/home', pageTitle(null)],
        [`/products-details/${first?.productID}`, pageTitle(first?.title)],
        ['/search?q=cake', pageTitle(messages.searchResultsFor('cake'))],
        ['/cart', pageTitle('Your Cart')],
      ] as const) {
        const response = await page.goto(route);
        expect(response?.status(), route).toBe(200);
        await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(title);
        expect(await page.locator('#root').count()).toBe(1);
      }
      if (product) {
        const stored = await page.evaluate(async (url) => {
          const res = await fetch(url);
          return {
            status: res.status,
            type: res.headers.get('content-type'),
            from: res.headers.get('x-served-from'),
          };
        }, product.images[0]?.thumb ?? '');
        expect(stored).toMatchObject({ status: 200, from: 'indexeddb' });
        expect(stored.type).toMatch(/^image\//);
        // A width the device does not hold (a srcset choice on a dense screen) falls back to a stored one.
        const otherWidth = (product.images[0]?.thumb ?? '').replace(/-\d+\.webp$/, '-9999.webp');
        const fallback = await page.evaluate(async (url) => {
          const res = await fetch(url);
          return {
            status: res.status,
            type: res.headers.get('content-type'),
            from: res.headers.get('x-served-from'),
          };
        }, otherWidth);
        expect(fallback).toMatchObject({ status: 200, from: 'indexeddb' });
      }
      const missing = await page.evaluate(async () => {
        const res = await fetch('/media/not-on-this-device-320.webp');
        return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
      });
      expect(missing.status).toBe(200);
      expect(missing.type).toMatch(/image\/svg\+xml/);
      expect(missing.body).toContain('<svg');
      // The API is never answered with the shell: offline it is a network error the screens handle.
      const api = await page.evaluate(() =>
        fetch('/api/GetCategories').then(
          (r) => r.status,
          () => 'network error',
        ),
      );
      expect(api).toBe('network error');
    } finally {
      await context.setOffline(false);
    }
  });

  it('back online: a price changed by the admin reaches the device without a reload', async () => {
    await page.goto('/');
    await waitForController(page);
    const feed = await shop.feed();
    const target = feed.products[0];
    if (!target) throw new Error('no product');
    await context.setOffline(true);
    const newPrice = target.price + 111;
    await setPrice(server, token, target.productID, newPrice);
    const marker = await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 42;
      return 42;
    });
    // Reconnecting fires the page's online event, which asks the worker to sync.
    await context.setOffline(false);
    await expect
      .poll(async () => (await readProduct(page, target.productID))?.price, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(newPrice);
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(marker);
  });

  it('a periodic background sync (dispatched through DevTools) refreshes the catalogue on its own', async () => {
    // No navigation here: the page stays as the last test left it, with no sync pending.
    const feed = await shop.feed();
    const target = feed.products[1] ?? feed.products[0];
    if (!target) throw new Error('no product');
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.filter((r) => !r.isDeleted).length).toBeGreaterThan(0);
    const registration = registrations.find((r) => !r.isDeleted);
    // Nothing on the page asks for a sync now (its timer is minutes away): only the event can bring the price.
    const newPrice = target.price + 77;
    await setPrice(server, token, target.productID, newPrice);
    expect((await readProduct(page, target.productID))?.price).toBe(target.price);
    await cdp.send('ServiceWorker.dispatchPeriodicSyncEvent', {
      origin: server.url,
      registrationId: registration?.registrationId ?? '',
      tag: 'catalogue-sync',
    });
    await expect
      .poll(async () => (await readProduct(page, target.productID))?.price, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(newPrice);
    await cdp.detach();
  });

  it('a new build is offered, waits through Later, and takes over only on Reload', async () => {
    await buildWeb(webDir, { VITE_BUILD_ID: 'build-2' });
    // A deploy: the server starts again over the new files (it lists its static files at start).
    await server.restart();
    await page.reload();
    const prompt = page.getByText('A new version is ready');
    await prompt.waitFor({ timeout: 60_000 });
    // Still the old version: the new worker waits for the shopper.
    expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe('build-1');
    await page.getByRole('button', { name: 'Later' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await page.reload();
    await prompt.waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe('build-1');
    // A second tab of the old version, which declines for now.
    const other = await context.newPage();
    await other.goto('/cart');
    await other.getByText('A new version is ready').waitFor({ timeout: 60_000 });
    await other.getByRole('button', { name: 'Later' }).click();
    await other.getByText('A new version is ready').waitFor({ state: 'hidden' });
    await Promise.all([
      page.waitForEvent('load', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Reload' }).click(),
    ]);
    // The first tab's Reload activated the new worker: the old tab is offered the reload again.
    await other.getByText('A new version is ready').waitFor({ timeout: 30_000 });
    expect(await other.evaluate(() => document.documentElement.dataset.build)).toBe('build-1');
    await Promise.all([other.waitForEvent('load'), other.getByRole('button', { name: 'Reload' }).click()]);
    await expect.poll(() => other.evaluate(() => document.documentElement.dataset.build)).toBe('build-2');
    await other.close();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.build), { timeout: 30_000 })
      .toBe('build-2');
    expect(await page.getByText('A new version is ready').count()).toBe(0);
    // The catalogue on the device survived the update.
    expect((await deviceCounts(page)).products).toBeGreaterThan(0);
  });
});
