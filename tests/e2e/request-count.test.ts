import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import type { RunningServer } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';
import { cartLine, login, putRows, writeSession } from '../support/shopper.js';

/**
 * No screen fetches in a loop. A screen whose effect depends on an object made anew at every
 * render asks the server again at every render, hundreds of times a second. Here a signed-in
 * shopper's checkout is watched for 10 s after the page loads, and My Profile for 5 s, every
 * request to `/api/` counted (the page's, its workers' and the service worker's): each endpoint at
 * most once per page load, and at most once more when the session changes (a sign-in in another tab).
 */
const WATCH_MS = 10_000;

let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
const email = `requests-${Date.now()}@example.test`;

/** The page a request came from; null for the service worker's own. */
function pageOf(r: Request): Page | null {
  if (r.serviceWorker()) return null;
  try {
    return r.frame().page();
  } catch {
    // No frame to name (a worker's request, a navigation before its frame): counted as the page's.
    return page;
  }
}

/**
 * Every request to the API from the shopper's page (and its workers) and from the service worker,
 * while `run` goes and for `watchMs` after it, as "METHOD /path" (no query).
 */
async function apiRequestsDuring(run: () => Promise<void>, watchMs = WATCH_MS): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const count = (r: Request) => {
    const url = new URL(r.url());
    if (url.origin !== server.url || !url.pathname.startsWith('/api/')) return;
    const from = pageOf(r);
    if (from !== null && from !== page) return;
    const name = `${r.method()} ${url.pathname}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  // The context hears the pages', their workers' and (in Chromium) the service worker's requests.
  context.on('request', count);
  try {
    await run();
    await page.waitForTimeout(watchMs);
  } finally {
    context.off('request', count);
  }
  return counts;
}

/** The endpoints asked for more than `most` times, with their counts (none is the answer wanted). */
function over(counts: Map<string, number>, most: number): Record<string, number> {
  return Object.fromEntries([...counts].filter(([, n]) => n > most));
}

beforeAll(async () => {
  shop = await openShop({ smtp: true, shoppers: [email], phone: true });
  ({
    server,
    shopper,
    phone: { context, page },
  } = shop);
  const product = (await shop.feed()).products.find((p) => p.price > 0 && !p.photoCake);
  await writeSession(page, shopper);
  if (product) await putRows(page, 'cart', [cartLine(product, Date.now())]);
});

afterAll(() => shop?.close());

describe('requests a screen makes', () => {
  it('the checkout asks each endpoint at most once in 10 s, and once more when the session changes', async () => {
    const loaded = await apiRequestsDuring(async () => {
      await page.goto('/checkout');
      await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    });
    // The screen's own calls happened: the count is of a screen that works, not of one that never asked.
    expect(loaded.get('GET /api/my-recipients')).toBe(1);
    expect(loaded.get('GET /api/payments/methods')).toBe(1);
    expect(over(loaded, 1)).toEqual({});

    // The shopper signs in again in another tab: this tab's session changes once.
    const again = await login(server, email);
    const other = await context.newPage();
    await other.goto('/home');
    const changed = await apiRequestsDuring(() => writeSession(other, again), WATCH_MS / 2);
    await other.close();
    expect(changed.get('GET /api/my-recipients')).toBe(1);
    expect(over(changed, 1)).toEqual({});
  });

  it('My Profile asks each endpoint at most once in 5 s', async () => {
    // Half the checkout's watch: the loop this guards against makes over a hundred requests a second.
    const loaded = await apiRequestsDuring(async () => {
      await page.goto('/my-profile');
      await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    }, WATCH_MS / 2);
    expect(loaded.get('GET /api/my-recipients')).toBe(1);
    // Once, though both the login guard and the screen want to know (the screen's answer is the check).
    expect(loaded.get('GET /api/GetUserProfile')).toBe(1);
    expect(over(loaded, 1)).toEqual({});
  });
});
