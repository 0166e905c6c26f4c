import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import type { Product } from '../../domain/catalogue.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { trackingMessages } from '../../domain/order-tracking.js';
import { orderUpdatePush } from '../../domain/push.js';
import {
  type FeedProduct,
  feedSnapshot,
  GUIDE_PHONE,
  phoneContext,
  type RunningServer,
} from '../support/e2e.js';
import { type DeviceSubscription, deviceSubscription, standInPushService } from '../support/push-stand-in.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import {
  cartLine,
  fillAddress,
  MOHALI_CHARGE,
  openShopOnPhone,
  outboxRows,
  placeCodOrder,
  putRows,
  waitForStore,
  writeSession,
} from '../support/shopper.js';

/**
 * Order updates in real Chromium against the real server. With notifications
 * allowed, the page subscribes this device after an order (against a stand-in for the browser's
 * push service, see `standInPushService`; the server's sends to it fail and retry, and nothing
 * below waits for them; `support/push-stand-in.ts`). An admin's moves show on the open order page and My Orders within seconds, by their
 * ETag polls. Pushes are delivered to the worker through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`) with the payload the server sends (`orderUpdatePush`):
 * the worker shows one notification per order (a newer status replaces the older) and refreshes
 * the device's copy. A tap is a `notificationclick` dispatched inside the worker (Playwright
 * evaluates in it; no protocol command clicks a notification): the open page goes to the order.
 * The order page offline shows the device's copy with its time; axe is clean; screenshots at
 * 412x823 in /tmp/shots/order-updates.
 */
const SHOTS = '/tmp/shots/order-updates';

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
let admin: string;
let orderId = 0;
/** An order left as placed, for the offer (shown only while an order can still move). */
let openOrderId = 0;
let device: DeviceSubscription;
const email = `updates-${Date.now()}@example.test`;

async function move(id: number, status: string, note: string): Promise<void> {
  const res = await fetch(`${server.url}/api/admin/orders/${id}/status`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status, note }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** An order the shop has not moved yet (the offer shows only while an order can still move). */
async function placeOpenOrder(): Promise<number> {
  const p = products[0];
  if (!p) throw new Error('no product');
  return placeCodOrder(server, shopper, p);
}

/** The shop's worker registration as DevTools names it. */
async function workerRegistration(cdp: CDPSession): Promise<string> {
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect
    .poll(() => registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(server.url)))
    .toBeTruthy();
  return registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(server.url))?.registrationId ?? '';
}

const notifications = () =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      url: (n.data as { url?: string } | null)?.url ?? null,
    })),
  );

const keptStatus = (id: number) =>
  page.evaluate(
    (orderID) =>
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('orderDetails').objectStore('orderDetails').get(orderID);
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result as { order?: { status: string } } | undefined)?.order?.status ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    id,
  );

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({
    smtp: true,
    // The stand-in's endpoints are on push.example.test: the operator's list lets the shop take them
    // (sends to it fail to resolve and wait for a retry).
    env: { PUSH_HOSTS: 'push.example.test' },
    shoppers: [email],
    admin: true,
    phone: true,
  });
  ({
    server,
    browser,
    shopper,
    phone: { context, page },
  } = shop);
  admin = shop.admin.token;
  products = forSale((await shop.feed()).products, 2);
  // The shopper said yes to notifications (the browser's own prompt cannot be answered headless).
  await context.grantPermissions(['notifications'], { origin: server.url });
  device = deviceSubscription();
  await context.addInitScript({ content: standInPushService(device) });
});

afterAll(() => shop?.close());

describe('order updates', () => {
  it('after an order is placed, this device subscribes to its updates with the shop key', async () => {
    await writeSession(page, shopper);
    await putRows(
      page,
      'cart',
      products.map((p, i) => cartLine(p, Date.now() + i)),
    );
    await page.goto('/checkout');
    await fillAddress(page, { address: 'House 12, Sector 70, Mohali' });
    const subscribed = page.waitForResponse(
      (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST',
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 20_000 })
      .toBe(1);
    orderId = (await outboxRows(page))[0]?.placed?.orderID ?? 0;
    expect(orderId).toBeGreaterThan(0);

    const answer = await subscribed;
    expect(answer.status()).toBe(201);
    expect((await answer.json()).data).toEqual({ devices: 1 });
    const key = (await (await fetch(`${server.url}/api/push/key`)).json()).data.publicKey as string;
    // Asked once, for notifications the shopper sees, against the shop's VAPID key.
    expect(await page.evaluate(() => (window as unknown as { __pushCalls: unknown[] }).__pushCalls)).toEqual([
      { userVisibleOnly: true, key },
    ]);
    // The server keeps this device's endpoint for the shopper: forgetting it by that endpoint leaves none.
    const forget = await fetch(`${server.url}/api/push/subscriptions`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: device.endpoint }),
    });
    expect((await forget.json()).data).toEqual({ devices: 0 });
  });

  it("shows an admin's move on the open order page and on My Orders within seconds, never the note", async () => {
    await page.getByRole('link', { name: t.myOrders }).click();
    await page.waitForURL(`**/my-orders/${orderId}`);
    await page.getByRole('heading', { name: trackingMessages.title(orderId) }).waitFor();
    const progress = page.locator('.order-timeline');
    await expect.poll(() => progress.locator('.order-timeline__step--done').count()).toBe(1);
    for (const p of products) expect(await page.getByRole('link', { name: p.title }).count()).toBe(1);

    await move(orderId, 'confirmed', 'Secret: the customer is a VIP');
    await expect
      .poll(() => progress.locator('.order-timeline__step--done').allInnerTexts(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('Placed'), expect.stringContaining('Confirmed')]);
    expect(await page.getByText(/VIP/).count()).toBe(0);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-page.png`, fullPage: true });

    await page.goto('/my-orders');
    const card = page.locator('.orders__card', { hasText: `Order #${orderId}` });
    await expect
      .poll(() => card.locator('.orders__status').innerText(), { timeout: 15_000 })
      .toBe('Confirmed');
    await move(orderId, 'out for delivery', '');
    await expect
      .poll(() => card.locator('.orders__status').innerText(), { timeout: 15_000 })
      .toBe('Out for delivery');
  });

  it('a push shows one notification per order with its text and tag; the newer status replaces the older', async () => {
    const cdp = await context.newCDPSession(page);
    const registrationId = await workerRegistration(cdp);
    const push = (status: 'out for delivery' | 'delivered') =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId,
        data: JSON.stringify(orderUpdatePush(orderId, status)),
      });
    const expected = orderUpdatePush(orderId, 'out for delivery');
    await push('out for delivery');
    await expect.poll(notifications, { timeout: 15_000 }).toEqual([
      {
        title: expected?.title,
        body: `Order #${orderId} is out for delivery.`,
        tag: `order-${orderId}`,
        icon: `${server.url}/icons/icon-192.png`,
        url: `/my-orders/${orderId}`,
      },
    ]);

    // The order is delivered; the worker brings the device's copy up to date as it shows the push.
    await move(orderId, 'delivered', '');
    await push('delivered');
    await expect
      .poll(async () => (await notifications()).map((n) => n.body), { timeout: 15_000 })
      .toEqual([`Order #${orderId} has been delivered. Enjoy!`]);
    await expect.poll(() => keptStatus(orderId), { timeout: 15_000 }).toBe('delivered');
    await cdp.detach();
  });

  it("a tap on the notification takes the open shop to the order's page", async () => {
    await page.goto('/home');
    const [worker] = context.serviceWorkers();
    expect(worker).toBeTruthy();
    // A click dispatched in the worker, with the notification the push left (see the file's comment).
    await worker?.evaluate(async (tag) => {
      const scope = self as unknown as ServiceWorkerGlobalScope;
      const [notification] = await scope.registration.getNotifications({ tag });
      if (!notification) throw new Error(`no notification tagged ${tag}`);
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    }, `order-${orderId}`);
    await page.waitForURL(`**/my-orders/${orderId}`, { timeout: 15_000 });
    await page.getByRole('heading', { name: trackingMessages.title(orderId) }).waitFor();
    // Closed by the tap.
    await expect.poll(notifications).toEqual([]);
  });

  it('opens offline from the copy kept on the device, saying from when', async () => {
    await page.goto(`/my-orders/${orderId}`);
    await page.getByRole('heading', { name: trackingMessages.title(orderId) }).waitFor();
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole('heading', { name: trackingMessages.title(orderId) }).waitFor();
      await expect
        .poll(() => page.getByTestId('order-fetched').innerText(), { timeout: 15_000 })
        .toMatch(/^You are offline\. This is the order as it was at /);
      expect(await page.locator('.order-page__title .orders__status').innerText()).toBe('Delivered');
      expect(await page.locator('.order-timeline__step--done').count()).toBe(4);
      for (const p of products) expect(await page.getByRole('link', { name: p.title }).count()).toBe(1);
      await axe(page);
      await page.screenshot({ path: `${SHOTS}/order-page-offline.png`, fullPage: true });
    } finally {
      await context.setOffline(false);
    }
  });

  it('posts the subscription once per session, not on every visit to an order page', async () => {
    const posts: string[] = [];
    const onRequest = (r: Request) => {
      if (r.url().endsWith('/api/push/subscriptions') && r.method() === 'POST') posts.push(r.url());
    };
    page.on('request', onRequest);
    openOrderId = await placeOpenOrder();
    try {
      // A fresh page load posts once (it also repairs a subscription the server dropped) ...
      await page.goto(`/my-orders/${openOrderId}`);
      await page.getByRole('heading', { name: trackingMessages.title(openOrderId) }).waitFor();
      await expect.poll(() => posts.length, { timeout: 15_000 }).toBe(1);
      // ... and going back and forth between the shopper's orders in the app posts nothing more.
      for (let i = 0; i < 2; i++) {
        await page.getByRole('link', { name: '‹ Your Orders' }).click();
        await page.waitForURL('**/my-orders');
        await page.getByRole('link', { name: `Order #${openOrderId}`, exact: true }).click();
        await page.getByRole('heading', { name: trackingMessages.title(openOrderId) }).waitFor();
      }
      await page.waitForTimeout(1000);
      expect(posts).toHaveLength(1);
    } finally {
      page.off('request', onRequest);
    }
  });

  it("My Profile's switch turns this device's order updates off and on again", async () => {
    // Forgetting an endpoint the shopper never had changes nothing and answers how many devices they have.
    const devices = async () =>
      (
        await (
          await fetch(`${server.url}/api/push/subscriptions`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ endpoint: `https://push.example.test/probe/${randomUUID()}` }),
          })
        ).json()
      ).data.devices as number;
    const wanted = async () =>
      (
        await (
          await fetch(`${server.url}/api/push/preferences`, {
            headers: { authorization: `Bearer ${shopper.token}` },
          })
        ).json()
      ).data.orderUpdates as boolean;
    await page.goto('/my-profile');
    const toggle = page.getByRole('switch', { name: trackingMessages.switchLabel });
    await expect.poll(() => toggle.isChecked(), { timeout: 15_000 }).toBe(true);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/profile-switch.png`, fullPage: true });

    const dropped = page.waitForResponse(
      (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'DELETE',
    );
    await toggle.click();
    expect((await dropped).status()).toBe(200);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    expect(await wanted()).toBe(false);
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()),
    ).toBeNull();
    expect(await devices()).toBe(0);

    const posted = page.waitForResponse(
      (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST',
    );
    await toggle.click();
    expect((await posted).status()).toBe(201);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await wanted()).toBe(true);
    // The device's endpoint is the shopper's again.
    expect(await devices()).toBe(1);
  });

  it('"Not now" puts the offer away, and a browser without Web Push is told once', async () => {
    // A phone that never answered the browser's question: the order page offers, "Not now" snoozes.
    const undecided = await openShopOnPhone(browser, server.url);
    const noPush = await phoneContext(browser, server.url, GUIDE_PHONE);
    try {
      await writeSession(undecided.page, shopper);
      await undecided.page.goto(`/my-orders/${openOrderId}`);
      const offer = undecided.page.getByText(trackingMessages.updatesOffer);
      await offer.waitFor({ timeout: 15_000 });
      await axe(undecided.page);
      await undecided.page.screenshot({ path: `${SHOTS}/offer.png`, fullPage: true });
      await undecided.page.getByRole('button', { name: trackingMessages.updatesNo }).click();
      await expect.poll(() => offer.count()).toBe(0);
      await undecided.page.reload();
      await undecided.page.getByRole('heading', { name: trackingMessages.title(openOrderId) }).waitFor();
      await undecided.page.waitForTimeout(500);
      expect(await offer.count()).toBe(0);
      expect(await undecided.page.evaluate(() => Notification.permission)).toBe('default');

      // A browser with no Push API (as iOS Safari outside the installed app): said once, then never.
      await noPush.addInitScript({ content: 'delete window.PushManager;' });
      const p = await noPush.newPage();
      await p.goto('/home');
      await waitForStore(p);
      await writeSession(p, shopper);
      await p.goto(`/my-orders/${openOrderId}`);
      const told = p.getByText(trackingMessages.noPush);
      await told.waitFor({ timeout: 15_000 });
      await axe(p);
      await p.reload();
      await p.getByRole('heading', { name: trackingMessages.title(openOrderId) }).waitFor();
      await p.waitForTimeout(500);
      expect(await told.count()).toBe(0);
    } finally {
      await undecided.context.close();
      await noPush.close();
    }
  });

  it('the order page fits the phone with a long name, a cake message and a gift, and says what was chosen', async () => {
    // The feed's products carry their options too.
    const cake = (
      (await feedSnapshot(server)).products as (FeedProduct & Pick<Product, 'variations'>)[]
    ).find((p) => p.takesMessage && !p.photoCake && p.variations.length > 0 && p.price > 0);
    if (!cake) throw new Error('no cake with options that takes a message');
    // The admin renames it, as the dashboard's edit form does (its options are saved again, with new ids).
    const title =
      'Belgian Dark Chocolate Truffle Celebration Cake with Hazelnut Praline, Ferrero Rocher and Edible Gold Leaf';
    const product = async () =>
      (
        (await (await fetch(`${server.url}/api/GetProductById/${cake.productID}`)).json()) as {
          data: Product;
        }
      ).data;
    const renamed = await fetch(`${server.url}/api/UpdateProductDetails`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...(await product()), title }),
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const option = (await product()).variations[0];
    if (!option) throw new Error(`${cake.title} has no options`);
    const res = await fetch(`${server.url}/api/place-order`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${shopper.token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
        CustomerName: 'Asha Verma',
        CustomerEmail: email,
        CustomerPhone: shopper.phone,
        CustomerAddress: 'House 12, Sector 70, Mohali',
        State: 'Punjab',
        City: 'Mohali',
        CustomerPincode: '160062',
        PaymentMethod: 'Cash on Delivery',
        TotalAmount: option.price * 2 + MOHALI_CHARGE,
        OrderItems: [
          {
            ProductID: cake.productID,
            VariationID: option.variationID,
            ProductName: title,
            Price: option.price,
            Quantity: 2,
            // Typed without a space, as shoppers do: it must wrap, not widen the page.
            CakeMessage: 'HappyBirthdayDadiJiFromYourGrandkids!!',
          },
        ],
        Recipient: { Name: 'Dadi Kaur', Phone: '9876543210' },
        Card: { Occasion: 'Birthday', Message: 'WishingYouTheHappiestOfBirthdaysDadiJiWithAllOurLove' },
      }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const id = body.data.orderID as number;
    await page.goto(`/my-orders/${id}`);
    await page.getByRole('heading', { name: trackingMessages.title(id) }).waitFor();
    await page.getByText(`${option.variationName}: ${option.variationValue}`, { exact: true }).waitFor();
    expect(await page.getByText(`2 × ${formatRupees(option.price)}`, { exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(
      GUIDE_PHONE.width,
    );
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-page-long-gift.png`, fullPage: true });
  });
});
