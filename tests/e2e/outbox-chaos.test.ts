import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { outboxShellMessages } from '../../domain/outbox-messages.js';
import { buildWeb, type FeedProduct, type RunningServer } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';
import {
  type ChaosProxy,
  cartLine,
  fillAddress,
  openShopOnPhone,
  ordersOf,
  outboxRows,
  putRows,
  queuedRow,
  startChaosProxy,
  writeSession,
} from '../support/shopper.js';

/**
 * The outbox under a bad network, in real Chromium against the real server,
 * through a proxy that resets connections and loses the answers of committed
 * orders: whatever happens, every queued order arrives exactly once.
 */
let shop: Shop;
let server: RunningServer;
let proxy: ChaosProxy;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
let webDir: string;
const email = `chaos-${Date.now()}@example.test`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function placeThroughForm(p: Page, product: FeedProduct): Promise<void> {
  await putRows(p, 'cart', [cartLine(product, Date.now())]);
  await p.goto('/checkout');
  const name = p.getByLabel('Full Name');
  await name.waitFor();
  if (!(await name.inputValue())) {
    await name.fill('Asha Verma');
    await fillAddress(p, { name: null, address: 'House 12, Sector 70, Mohali' });
  }
  await p.getByRole('button', { name: 'Place Order' }).click();
  await p.waitForURL(/\/order-success/);
}

async function allSent(p: Page, keys: readonly string[], timeout = 120_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const rows = await outboxRows(p);
        return keys.filter((k) => rows.find((r) => r.key === k)?.state === 'sent').length;
      },
      { timeout, interval: 500 },
    )
    .toBe(keys.length);
}

async function workerStates(p: Page): Promise<string> {
  return p
    .evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return JSON.stringify({
        controller: navigator.serviceWorker.controller?.scriptURL ?? null,
        active: r?.active?.state ?? null,
        waiting: r?.waiting?.state ?? null,
        installing: r?.installing?.state ?? null,
        build: document.documentElement.dataset.build,
      });
    })
    .catch((e: unknown) => `unreadable (${String(e)})`);
}

beforeAll(async () => {
  shop = await openShop({
    smtp: true,
    build: { VITE_BUILD_ID: 'build-1' },
    // One phone's dozens of queued orders in a minute: place-order's rate limit is not what this tests.
    env: { PLACE_ORDER_LIMITS: '1000000/1000000' },
    shoppers: [email],
  });
  ({ server, webDir, shopper } = shop);
  proxy = await startChaosProxy(server);
  // A photo cake is refused without its photo: these orders are plain ones.
  products = (await shop.feed()).products.filter((p) => p.price > 0 && !p.photoCake);
  // The phone talks to the shop through the proxy.
  ({ context, page } = await openShopOnPhone(shop.browser, proxy.url));
  await writeSession(page, shopper);
});

afterAll(async () => {
  await proxy?.close();
  await shop?.close();
});

describe('the order outbox under chaos', () => {
  it('20 orders offline, 5 flaps, 3 s of resets, 3 lost answers, a server restart: exactly 20 arrive', async () => {
    await context.setOffline(true);
    const keys: string[] = [];
    // Two through the form (the page's own path), eighteen stored as the form stores them.
    for (const product of products.slice(0, 2)) {
      await placeThroughForm(page, product);
      keys.push(new URL(page.url()).searchParams.get('order') ?? '');
    }
    const start = Date.now();
    const rows = products.slice(2, 20).map((p, i) => queuedRow(shopper, p, randomUUID(), start + i));
    await putRows(page, 'outbox', rows);
    keys.push(...rows.map((r) => r.key));
    expect(new Set(keys).size).toBe(20);

    proxy.loseAnswers = 3;
    for (let i = 0; i < 5; i++) {
      await context.setOffline(false);
      await sleep(250);
      await context.setOffline(true);
      await sleep(150);
    }
    // Online as far as the phone can tell, but every connection is reset for 3 s.
    proxy.resetAll = true;
    await context.setOffline(false);
    await sleep(3_000);
    proxy.resetAll = false;
    // The shop goes down and comes back (a deploy, a crash) while orders are still arriving.
    await server.restart();
    await allSent(page, keys);

    const orders = await ordersOf(server, email);
    const placed = (await outboxRows(page)).filter((r) => keys.includes(r.key)).map((r) => r.placed?.orderID);
    expect(new Set(placed).size).toBe(20);
    expect(orders.size).toBe(20);
    for (const id of placed) expect(orders.has(id ?? 0)).toBe(true);
    expect(proxy.lost).toBe(3);
    expect(proxy.resets).toBeGreaterThan(0);
  });

  it('a tab closed while offline: its order is sent by the next start', async () => {
    const before = (await ordersOf(server, email)).size;
    await context.setOffline(true);
    const tab = await context.newPage();
    await tab.goto('/home');
    await placeThroughForm(tab, products[20] as FeedProduct);
    const key = new URL(tab.url()).searchParams.get('order') ?? '';
    await tab.close();
    await context.setOffline(false);
    const next = await context.newPage();
    await next.goto('/home');
    await allSent(next, [key], 60_000);
    await next.close();
    expect((await ordersOf(server, email)).size).toBe(before + 1);
  });

  it('two tabs at once send each order once (one sender at a time)', async () => {
    const before = (await ordersOf(server, email)).size;
    await context.setOffline(true);
    const second = await context.newPage();
    await second.goto('/home');
    const start = Date.now();
    const rows = products.slice(21, 27).map((p, i) => queuedRow(shopper, p, randomUUID(), start + i));
    await putRows(page, 'outbox', rows);
    const asked = proxy.orderRequests.length;
    // Both tabs hear `online` at once and both try.
    await context.setOffline(false);
    await allSent(
      page,
      rows.map((r) => r.key),
      60_000,
    );
    const sent = proxy.orderRequests.slice(asked);
    expect(sent.filter((k) => rows.some((r) => r.key === k)).sort()).toEqual(rows.map((r) => r.key).sort());
    expect((await ordersOf(server, email)).size).toBe(before + rows.length);
    await second.close();
  });

  it('an app update while orders are queued: the new version sends them, once', async () => {
    const before = (await ordersOf(server, email)).size;
    await context.setOffline(true);
    const start = Date.now();
    const rows = products.slice(27, 29).map((p, i) => queuedRow(shopper, p, randomUUID(), start + i));
    await putRows(page, 'outbox', rows);
    // Back online, but the shop answers 503 to orders: they stay queued, retrying, through the update.
    proxy.orderStatus = 503;
    await context.setOffline(false);
    await buildWeb(webDir, { VITE_BUILD_ID: 'build-2' });
    await server.restart();
    await page.goto('/home');
    await page.getByText('A new version is ready').waitFor({ timeout: 60_000 });
    expect(
      (await outboxRows(page)).filter((r) => r.state === 'sent' && rows.some((q) => q.key === r.key)),
    ).toEqual([]);
    await Promise.all([
      page.waitForEvent('load', { timeout: 120_000 }).catch(async (err: unknown) => {
        // Once seen on a loaded CI machine: say which worker held the update back, if it happens again.
        throw new Error(`no reload after Reload: ${await workerStates(page)}`, { cause: err });
      }),
      page.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.build)).toBe('build-2');
    // The new version reads the rows the old one wrote: both still wait, shown in the header.
    await expect
      .poll(() => page.getByRole('link', { name: outboxShellMessages.badgeLabel(2) }).count())
      .toBe(1);
    proxy.orderStatus = null;
    await allSent(
      page,
      rows.map((r) => r.key),
      90_000,
    );
    expect((await ordersOf(server, email)).size).toBe(before + rows.length);
  });
});
