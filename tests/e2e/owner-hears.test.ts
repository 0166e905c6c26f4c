import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { LIVE_POLL_MS, liveMessages } from '../../domain/admin-live.js';
import { checkoutMessages } from '../../domain/checkout-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays } from '../../domain/india-time.js';
import { type FeedProduct, GUIDE_PHONE, phoneContext, type RunningServer } from '../support/e2e.js';
import { type DeviceSubscription, deviceSubscription, standInPushService } from '../support/push-stand-in.js';
import { axe, forSale, openShop, type Shop, signIn } from '../support/shop.js';
import { cartLine, fillAddress, login, MOHALI_CHARGE, putRows, writeSession } from '../support/shopper.js';

/**
 * The owner hears a new order, in real Chromium against the real server. The owner's laptop
 * (1280x800) has the orders list open; a shopper places an order on a phone through the screens:
 * within 15 s the list shows it without a reload, says "1 new order", chimes (the Web Audio notes
 * counted in the page) and keeps the row the owner was reading where it was. Another admin's move
 * is said; the owner's own is not. The dashboard's figures follow a new order. Hidden, the screen
 * asks nothing; visible again, at once. A shopper's page, and the shop's pages the admin opens,
 * ask no admin endpoint. The owner turns on notifications for this laptop: the device subscribes
 * (the page's push service is the stand-in of `support/push-stand-in.ts`), the server queues the
 * notice of the next order for it, which is delivered to the worker as the server queued it, and
 * a tap opens the admin's order page. axe on each screen; screenshots in /tmp/shots/owner-hears.
 */
const SHOTS = '/tmp/shots/owner-hears';
const LAPTOP = { width: 1280, height: 800 };
/** The promise: a new order on the open screen within 15 s. */
const WITHIN_MS = 15_000;

let shop: Shop;
let server: RunningServer;
let owner: LoginData;
let baker: LoginData;
let shopper: LoginData;
let products: FeedProduct[];
let laptop: BrowserContext;
let page: Page;
let device: DeviceSubscription;
/** Every request the shopper's phone made, pages and worker. */
const phoneRequests: string[] = [];
const email = `hears-${Date.now()}@example.test`;
const bakerEmail = `baker-${Date.now()}@example.test`;

/** Notes the page's chimes played: the Web Audio oscillators started (two a chime). */
const COUNT_NOTES = `(() => {
  window.__notes = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__notes += 1; return start.apply(this, args); };
})();`;
const notes = (p: Page) => p.evaluate(() => (window as unknown as { __notes: number }).__notes);

async function api<T>(method: string, route: string, token: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(route === 'place-order' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await res.json()) as { data: T; sys_message: string };
  expect(res.status, envelope.sys_message).toBe(200);
  return envelope.data;
}

/** A Cash on Delivery order through the API (the list is what is watched, not the shopper's screens). */
async function placeOrder(): Promise<number> {
  const p = products[1] ?? products[0];
  if (!p) throw new Error('no product for sale');
  const placed = await api<{ orderID: number }>('POST', 'place-order', shopper.token, {
    DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
    CustomerName: 'Asha Verma',
    CustomerEmail: email,
    CustomerPhone: shopper.phone,
    CustomerAddress: 'House 12, Sector 70, Mohali',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160062',
    PaymentMethod: 'Cash on Delivery',
    TotalAmount: p.price + MOHALI_CHARGE,
    OrderItems: [{ ProductID: p.productID, ProductName: p.title, Price: p.price, Quantity: 1 }],
  });
  return placed.orderID;
}

const news = (p: Page) => p.getByTestId('live-news').innerText();
const liveAsks = (r: Request) => new URL(r.url()).pathname === '/api/admin/order-changes';

/**
 * Another laptop signed in as the owner, its clock Playwright's (installed before the shop's
 * scripts run, for this context only): the test moves time on instead of waiting for it.
 */
async function laptopOnTheClock(): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await shop.browser.newContext({ baseURL: server.url, viewport: LAPTOP, locale: 'en-IN' });
  await context.clock.install();
  const tab = await context.newPage();
  await signIn(tab, owner);
  return { context, tab };
}

/** The shop's database, for what only the server holds (the queued push). */
function shopDb<T>(read: (db: Database.Database) => T): T {
  const db = new Database(path.join(server.dataDir, 'shop.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({
    shoppers: [email, bakerEmail],
    admin: true,
    phone: true,
    // The stand-in's endpoints are on push.example.test (sends there fail and wait for a retry).
    env: { PUSH_HOSTS: 'push.example.test' },
  });
  ({ server, shopper, admin: owner } = shop);
  products = forSale((await shop.feed()).products, 2);
  // A second admin: the baker, promoted as `npm run admin:create` would.
  const db = new Database(path.join(server.dataDir, 'shop.db'), { fileMustExist: true });
  try {
    db.prepare("update users set role = '1' where email = ?").run(bakerEmail);
  } finally {
    db.close();
  }
  baker = await login(server, bakerEmail);
  shop.phone.context.on('request', (r) => phoneRequests.push(new URL(r.url()).pathname));

  laptop = await shop.browser.newContext({
    baseURL: server.url,
    viewport: LAPTOP,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  await laptop.grantPermissions(['notifications'], { origin: server.url });
  device = deviceSubscription();
  await laptop.addInitScript({ content: standInPushService(device) });
  await laptop.addInitScript({ content: COUNT_NOTES });
  page = await laptop.newPage();
  await signIn(page, owner);
  // A list long enough to scroll: the owner reads a row in the middle of it.
  for (let i = 0; i < 6; i++) await placeOrder();
});

afterAll(async () => {
  await laptop?.close();
  await shop?.close();
});

describe('the owner hears a new order', () => {
  it('the open orders list shows a shopper’s new order within 15 s, says “1 new order”, chimes, and keeps the row being read in place', async () => {
    await page.goto('/all-admin-orders');
    const rows = page.locator('tr[data-live-row]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(6);
    expect(await news(page)).toBe(liveMessages.watching);
    // The browser lets a page play sound once the user has used it: the owner clicks on the page.
    await page.getByRole('heading', { name: 'All User Orders' }).click();
    await axe(page, 'the orders list, watching');

    // The owner reads the fourth row, scrolled to the middle of the screen.
    const reading = rows.nth(3);
    const readingId = await reading.getAttribute('data-live-row');
    await reading.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const before = (await reading.boundingBox())?.y ?? 0;
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const notesBefore = await notes(page);

    // The shopper orders on the phone, through the screens.
    const phone = shop.phone.page;
    await writeSession(phone, shopper);
    const [first] = products;
    if (!first) throw new Error('no product for sale');
    await putRows(phone, 'cart', [cartLine(first, Date.now())]);
    await phone.goto('/checkout');
    await fillAddress(phone, { address: 'House 12, Sector 70, Mohali' });
    await phone.getByRole('button', { name: 'Place Order' }).click();
    await phone.getByRole('heading', { name: checkoutMessages.successTitle }).waitFor({ timeout: 20_000 });

    await expect.poll(() => news(page), { timeout: WITHIN_MS }).toBe('1 new order');
    // The news comes with the answer that reloads the list: the list's own answer may land a moment later.
    await expect.poll(() => rows.count()).toBe(7);
    const placedId = (await rows.first().getAttribute('data-live-row')) ?? '';
    const fresh = page.locator(`tr[data-live-row="${placedId}"]`);
    expect(await fresh.getByText(liveMessages.newTag, { exact: true }).count()).toBe(1);
    // Not reloaded: the same document, and the row the owner reads has not moved.
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    const after = (await page.locator(`tr[data-live-row="${readingId}"]`).boundingBox())?.y ?? 0;
    expect(Math.abs(after - before)).toBeLessThanOrEqual(1);
    // The chime: two notes.
    await expect.poll(() => notes(page)).toBe(notesBefore + 2);
    await axe(page, 'the orders list saying 1 new order');
    await page.screenshot({ path: `${SHOTS}/orders-list-new-order.png` });

    // Show takes the owner to it; Dismiss would only clear the line.
    await page.getByRole('button', { name: liveMessages.showNewest }).click();
    await expect.poll(() => news(page)).toBe(liveMessages.watching);
    // In view, below the top bar and the news line that stay over the page.
    const covered = await page.evaluate(
      () => document.querySelector('.admin-live__news')?.getBoundingClientRect().bottom ?? 0,
    );
    await expect.poll(async () => (await fresh.boundingBox())?.y ?? -1).toBeGreaterThan(covered);
  });

  it('says another admin’s move, never the owner’s own; the sound can be turned off and stays off', async () => {
    await page.goto('/all-admin-orders');
    const rows = page.locator('tr[data-live-row]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(2);
    await page.getByRole('heading', { name: 'All User Orders' }).click();
    const mine = Number(await rows.nth(1).getAttribute('data-live-row'));
    const theirs = Number(await rows.nth(2).getAttribute('data-live-row'));

    // The owner's own move, through the list's button and the confirm.
    await page.getByRole('button', { name: `Move order ${mine} to confirmed` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => page.getByTestId(`status-${mine}`).innerText()).toBe('confirmed');
    // The baker moves another.
    await api('PUT', `admin/orders/${theirs}/status`, baker.token, { status: 'confirmed' });
    await expect.poll(() => news(page), { timeout: WITHIN_MS }).toBe(`Order #${theirs} is now confirmed`);
    // The list is loaded again as the line speaks.
    await expect.poll(() => page.getByTestId(`status-${theirs}`).innerText()).toBe('confirmed');

    // Sound off, remembered on this device: the next new order is said, not played.
    const sound = page.getByRole('switch', { name: liveMessages.soundLabel });
    expect(await sound.isChecked()).toBe(true);
    await sound.click();
    expect(await sound.isChecked()).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'All User Orders' }).click();
    expect(await page.getByRole('switch', { name: liveMessages.soundLabel }).isChecked()).toBe(false);
    await expect.poll(() => page.locator('tr[data-live-row]').count()).toBeGreaterThan(0);
    const quiet = await notes(page);
    await placeOrder();
    await expect.poll(() => news(page), { timeout: WITHIN_MS }).toBe('1 new order');
    expect(await notes(page)).toBe(quiet);
    await page.getByRole('switch', { name: liveMessages.soundLabel }).click();
  });

  it('the dashboard’s figures follow a new order, and it says so', async () => {
    await page.goto('/dashboard');
    const today = page.getByTestId('orders-today');
    await today.waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Dashboard' }).click();
    const count = Number(await today.innerText());
    const played = await notes(page);
    const id = await placeOrder();
    await expect.poll(() => news(page), { timeout: WITHIN_MS }).toBe('1 new order');
    await expect.poll(() => today.innerText()).toBe(String(count + 1));
    await page
      .getByRole('link', { name: `#${id}` })
      .first()
      .waitFor();
    await expect.poll(() => notes(page)).toBe(played + 2);
    await axe(page, 'the dashboard saying 1 new order');
    await page.screenshot({ path: `${SHOTS}/dashboard-new-order.png` });
  });

  it('on the owner’s phone the news line stays just under the top bar, which is taller there', async () => {
    const phone = await phoneContext(shop.browser, server.url, GUIDE_PHONE);
    try {
      const tab = await phone.newPage();
      await signIn(tab, owner);
      await tab.goto('/all-admin-orders');
      await expect
        .poll(() => tab.locator('tr[data-live-row]').count(), { timeout: 15_000 })
        .toBeGreaterThan(2);
      const lineHeight = () =>
        tab.evaluate(() => document.querySelector('.admin-live__news')?.getBoundingClientRect().height ?? 0);
      const quietHeight = await lineHeight();
      await placeOrder();
      await expect.poll(() => news(tab), { timeout: WITHIN_MS }).toBe('1 new order');
      // Speaking does not make the line taller: nothing under it moves.
      expect(Math.abs((await lineHeight()) - quietHeight)).toBeLessThanOrEqual(1);
      await tab
        .locator('tr[data-live-row]')
        .nth(2)
        .evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const edges = () =>
        tab.evaluate(() => ({
          bar: document.querySelector('.admin-top')?.getBoundingClientRect().bottom ?? 0,
          line: document.querySelector('.admin-live__news')?.getBoundingClientRect().top ?? 0,
        }));
      await expect
        .poll(async () => {
          const { bar, line } = await edges();
          return Math.abs(line - bar) <= 1 && bar > 56;
        })
        .toBe(true);
      expect(await tab.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(
        GUIDE_PHONE.width,
      );
      await axe(tab, 'the orders list on a phone saying 1 new order');
      await tab.screenshot({ path: `${SHOTS}/phone-orders-list-new-order.png` });
    } finally {
      await phone.close();
    }
  });

  it('asks nothing while the tab is hidden, and at once when it is visible again', async () => {
    const { context, tab } = await laptopOnTheClock();
    try {
      await tab.goto('/all-admin-orders');
      const asked: string[] = [];
      tab.on('request', (r) => liveAsks(r) && asked.push(r.url()));
      await expect
        .poll(() => tab.locator('tr[data-live-row]').count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
      await tab.clock.runFor(LIVE_POLL_MS + 1000);
      await expect.poll(() => asked.length).toBeGreaterThan(0);

      const visibility = (state: 'hidden' | 'visible') =>
        tab.evaluate((s) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
          document.dispatchEvent(new Event('visibilitychange'));
        }, state);
      await visibility('hidden');
      const hiddenFrom = asked.length;
      await tab.clock.runFor(LIVE_POLL_MS * 10);
      expect(asked.length).toBe(hiddenFrom);
      await visibility('visible');
      await expect.poll(() => asked.length).toBe(hiddenFrom + 1);
    } finally {
      await context.close();
    }
  });

  it('the shop’s pages ask no admin endpoint: the admin’s after leaving the admin area, and a shopper’s', async () => {
    const { context, tab } = await laptopOnTheClock();
    try {
      await tab.goto('/all-admin-orders');
      await expect
        .poll(() => tab.locator('tr[data-live-row]').count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
      const asked: string[] = [];
      tab.on('request', (r) => new URL(r.url()).pathname.startsWith('/api/admin/') && asked.push(r.url()));
      await tab.getByRole('link', { name: 'Back to the shop' }).click();
      await tab.waitForURL('**/home');
      // A minute and more of the shop open: every timer the admin's screens had would have fired.
      await tab.clock.runFor(LIVE_POLL_MS * 12);
      expect(asked).toEqual([]);
    } finally {
      await context.close();
    }
    // The shopper's phone, which placed an order above, never asked an admin endpoint.
    expect(phoneRequests.length).toBeGreaterThan(0);
    expect(phoneRequests.filter((p) => p.startsWith('/api/admin/'))).toEqual([]);
  });

  it('the owner turns on notifications for this laptop: the next order’s notice is queued for it, and a tap opens the order', async () => {
    await page.goto('/all-admin-orders');
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
      timeout: 60_000,
    });
    const toggle = page.getByRole('switch', { name: liveMessages.pushLabel });
    expect(await toggle.isChecked()).toBe(false);
    const marked = page.waitForResponse(
      (r) => r.url().endsWith('/api/admin/new-order-alerts') && r.request().method() === 'PUT',
    );
    await toggle.click();
    const answer = await marked;
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data).toEqual({ on: true, devices: 1 });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    // Subscribed once, for notifications the admin sees, against the shop's VAPID key.
    const key = (await (await fetch(`${server.url}/api/push/key`)).json()).data.publicKey as string;
    expect(await page.evaluate(() => (window as unknown as { __pushCalls: unknown[] }).__pushCalls)).toEqual([
      { userVisibleOnly: true, key },
    ]);
    await axe(page, 'the orders list with notifications on');
    await page.screenshot({ path: `${SHOTS}/orders-list-notifications-on.png` });

    const id = await placeOrder();
    const queued = shopDb((db) =>
      db
        .prepare(
          `select q.payload from push_queue q join push_subscriptions s on s.id = q.subscription_id
           where q.order_id = ? and q.status = 'new-order' and s.endpoint = ?`,
        )
        .get(id, device.endpoint),
    ) as { payload: string } | undefined;
    expect(queued).toBeTruthy();
    const payload = JSON.parse(queued?.payload ?? '{}') as { title: string; url: string };
    expect(payload).toMatchObject({ title: `New order #${id}`, url: `/admin-orders/${id}` });

    // The push as the server queued it, delivered to the laptop's worker.
    const cdp: CDPSession = await laptop.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(server.url)))
      .toBeTruthy();
    const registrationId = registrations.find((r) => !r.isDeleted)?.registrationId ?? '';
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId,
      data: queued?.payload ?? '',
    });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        })),
      );
    await expect.poll(shown, { timeout: 15_000 }).toEqual([
      {
        title: `New order #${id}`,
        body: expect.stringContaining('Cash on Delivery. For '),
        tag: `new-order-${id}`,
      },
    ]);
    await cdp.detach();

    const [worker] = laptop.serviceWorkers();
    await worker?.evaluate(async (tag) => {
      const scope = self as unknown as ServiceWorkerGlobalScope;
      const [notification] = await scope.registration.getNotifications({ tag });
      if (!notification) throw new Error(`no notification tagged ${tag}`);
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    }, `new-order-${id}`);
    await page.waitForURL(`**/admin-orders/${id}`, { timeout: 15_000 });
    await page
      .getByRole('heading', { name: new RegExp(`${id}`) })
      .first()
      .waitFor();

    // Off again: the server drops the mark.
    await page.goto('/all-admin-orders');
    await expect
      .poll(() => page.getByRole('switch', { name: liveMessages.pushLabel }).isChecked())
      .toBe(true);
    // The page said it again when it loaded (on); the switch's answer is the one that says off.
    const off = page.waitForResponse(
      async (r) =>
        r.url().endsWith('/api/admin/new-order-alerts') &&
        r.request().method() === 'PUT' &&
        (await r.json()).data?.on === false,
    );
    await page.getByRole('switch', { name: liveMessages.pushLabel }).click();
    expect((await (await off).json()).data).toEqual({ on: false, devices: 0 });
  });
});
