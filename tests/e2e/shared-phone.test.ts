import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { outboxLogoutMessages as logout } from '../../domain/outbox-logout-messages.js';
import { adminToken, type FeedProduct, type RunningServer, setPrice, submitLogin } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import { cartLine, ordersOf, outboxRows, putRows, queuedRow, SHOPPER_PASSWORD } from '../support/shopper.js';

/**
 * One phone, two shoppers, in real Chromium against the real server. A has
 * an order placed and one waiting for a decision (its price changed before it
 * could be sent), and logs out: the phone shows nothing of A's, keeps none of
 * A's personal data, and keeps the waiting order hidden. B logs in and sees
 * nothing of A's, not even through A's order link. A logs in again and the
 * waiting order is back. The cart stays the phone's throughout.
 */
const SHOTS = '/tmp/shots/shared-phone';

let shop: Shop;
let server: RunningServer;
let page: Page;
let shopperA: LoginData;
let shopperB: LoginData;
let products: FeedProduct[];
const stamp = Date.now();
const emailA = `phone-a-${stamp}@example.test`;
const emailB = `phone-b-${stamp}@example.test`;
const sentKey = randomUUID();
const waitingKey = randomUUID();

const header = () => page.getByRole('banner');
const badge = () => page.getByRole('link', { name: /waiting to be sent/ });
const notice = () => page.getByText(/needs? your attention/);

/** Logs in on the page it is on (/login, or a guarded page that sent the shopper there) or on /login. */
async function logIn(email: string, to = '/home'): Promise<void> {
  if (new URL(page.url()).pathname !== '/login') await page.goto('/login');
  await submitLogin(page, email, SHOPPER_PASSWORD);
  await page.waitForURL(`**${to}`);
  await header().getByText('Account', { exact: true }).waitFor();
}

async function tapLogout(): Promise<void> {
  // The menu's own toggle: its inert stand-in says "Account" too while the menu's code arrives.
  await header()
    .locator('summary', { hasText: /^Account$/ })
    .click();
  await header().getByRole('button', { name: 'Logout' }).click();
}

/** Every row of a store of the device's database, read through the page. */
async function rowsOf(store: string): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result as Record<string, unknown>[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

/** Everything the page's origin keeps in localStorage, as one string to search. */
const localStorageText = () => page.evaluate(() => JSON.stringify({ ...localStorage }));

/** The screens a signed-in shopper meets, with nothing of A's on any of them. */
async function showsNothingOfA(): Promise<void> {
  await page.goto('/home');
  await page.getByRole('heading').first().waitFor();
  // The live queries answer within a frame or two; a shown badge or notice would be there by then.
  await page.waitForTimeout(500);
  expect(await badge().count()).toBe(0);
  expect(await notice().count()).toBe(0);
  for (const key of [waitingKey, sentKey]) {
    await page.goto(`/order-success?order=${key}`);
    await expect.poll(() => page.getByRole('heading', { name: t.successMissing }).count()).toBe(1);
    expect(await page.getByRole('button', { name: t.cancelOrder }).count()).toBe(0);
    expect(await page.getByText(t.repricedTitle).count()).toBe(0);
  }
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({
    smtp: true,
    shoppers: [
      { email: emailA, name: 'Asha Verma' },
      { email: emailB, name: 'Bina Kaur' },
    ],
    phone: true,
  });
  ({
    server,
    phone: { page },
  } = shop);
  [shopperA, shopperB] = shop.shoppers as [LoginData, LoginData];
  products = forSale((await shop.feed()).products, 3);
});

afterAll(() => shop?.close());

describe('a shared phone', () => {
  it("A places an order, another waits for A's decision, and A's history is on the phone", async () => {
    const [placed, repriced, inCart] = products as [FeedProduct, FeedProduct, FeedProduct];
    await logIn(emailA);
    const now = Date.now();
    // The checkout is not under test here (tests/e2e/checkout.test.ts is): A's two orders go into the
    // outbox as the checkout stores them, and the phone's own sender sends them.
    await putRows(page, 'outbox', [queuedRow(shopperA, placed, sentKey, now)]);
    await page.reload();
    await expect
      .poll(async () => (await outboxRows(page)).find((r) => r.key === sentKey)?.state, { timeout: 30_000 })
      .toBe('sent');
    // The price changes before the next one is sent: the server refuses it with the new figures.
    await setPrice(server, await adminToken(server), repriced.productID, repriced.price + 100);
    await putRows(page, 'outbox', [queuedRow(shopperA, repriced, waitingKey, now + 1)]);
    await putRows(page, 'cart', [cartLine(inCart, now)]);
    await page.reload();
    await expect
      .poll(async () => (await outboxRows(page)).find((r) => r.key === waitingKey)?.state, {
        timeout: 30_000,
      })
      .toBe('attention');

    await page.goto('/my-orders');
    await page.getByRole('heading', { name: 'Your Orders' }).waitFor();
    await expect.poll(async () => (await rowsOf('orderHistory')).length, { timeout: 15_000 }).toBe(1);
    await page.goto('/home');
    await expect.poll(() => badge().count()).toBe(1);
    await expect.poll(() => notice().count()).toBe(1);
  });

  it('logout with an order still waiting asks first, in the page, and A may stay', async () => {
    await tapLogout();
    const dialog = page.getByRole('dialog', { name: logout.title });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(logout.waiting(1));
    expect(logout.waiting(1)).toBe(
      '1 order is still waiting to be sent; it will be sent when you log in again.',
    );
    // The safe choice is where focus lands.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(logout.stay);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/logout-waiting.png` });

    await dialog.getByRole('button', { name: logout.stay }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/home');
    expect(await badge().count()).toBe(1);
    // Escape is "stay" too.
    await tapLogout();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await header().getByText('Account', { exact: true }).count()).toBe(1);
  });

  it("A logs out: nothing of A's shows, and only the waiting order stays on the phone", async () => {
    await tapLogout();
    await page.getByRole('dialog').getByRole('button', { name: logout.confirm }).click();
    await page.waitForURL('**/login');
    await header().getByRole('link', { name: 'Login' }).waitFor();

    await expect.poll(async () => (await outboxRows(page)).map((r) => r.key)).toEqual([waitingKey]);
    expect(await rowsOf('orderHistory')).toEqual([]);
    expect(await rowsOf('session')).toEqual([]);
    expect(await localStorageText()).not.toContain(emailA);
    // The cart is the phone's.
    expect((await rowsOf('cart')).length).toBe(1);

    await page.goto('/home');
    await page.getByRole('heading').first().waitFor();
    await page.waitForTimeout(500);
    expect(await badge().count()).toBe(0);
    expect(await notice().count()).toBe(0);
    // A's order link, logged out: the login guard's page, with nothing of the order.
    await page.goto(`/order-success?order=${waitingKey}`);
    await page.waitForURL('**/login');
    expect(await page.getByText(t.repricedTitle).count()).toBe(0);
    expect(await page.getByRole('button', { name: t.cancelOrder }).count()).toBe(0);
  });

  it("B logs in: nothing of A's on any screen, and A's order is never sent with B's session", async () => {
    const aOrdersBefore = (await ordersOf(server, emailA)).size;
    // B logs in on the page A's link led to, and lands on it: it shows what a missing order shows.
    await logIn(emailB, `/order-success?order=${waitingKey}`);
    await expect.poll(() => page.getByRole('heading', { name: t.successMissing }).count()).toBe(1);
    await showsNothingOfA();
    await page.goto('/my-orders');
    await page.getByRole('heading', { name: 'Your Orders' }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByRole('heading', { name: t.queuedHeading }).count()).toBe(0);
    expect(await page.getByText((products[1] as FeedProduct).title).count()).toBe(0);
    expect((await rowsOf('cart')).length).toBe(1);

    expect((await ordersOf(server, emailA)).size).toBe(aOrdersBefore);
    expect((await ordersOf(server, emailB)).size).toBe(0);
    expect((await outboxRows(page)).find((r) => r.key === waitingKey)?.userId).toBe(shopperA.veryOtpLoginID);
    expect(shopperB.veryOtpLoginID).not.toBe(shopperA.veryOtpLoginID);

    // Nothing of B's waits: B's logout asks nothing.
    await tapLogout();
    await page.waitForURL('**/login');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('A logs in again: the waiting order is back, with its decision', async () => {
    await logIn(emailA);
    await expect.poll(() => badge().count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => notice().count()).toBe(1);
    await page.goto(`/order-success?order=${waitingKey}`);
    await expect.poll(() => page.getByText(t.repricedTitle).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole('button', { name: t.cancelOrder }).count()).toBe(1);
    await page.goto('/my-orders');
    await expect.poll(() => page.getByRole('heading', { name: t.queuedHeading }).count()).toBe(1);
  });
});
