/**
 * Checkout from the pincode in real Chromium against the real server, on a 412x823 phone: 160062
 * fills Mohali, Punjab and a ₹150 delivery charge; 110001 is refused under the field the moment it
 * is typed and Place Order sends nothing; and an order queued offline to a pincode the shop stops
 * delivering to meanwhile waits for the shopper (the server's 422), who sends it to a new address.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { areaMessages, deliveryAreasText, findArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { formatRupees } from '../../domain/money.js';
import { slotMessages } from '../../domain/slot-messages.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import { cartLine, fillAddress, ordersOf, outboxRows, putRows, writeSession } from '../support/shopper.js';

const SHOTS = '/work/wt/shots';
const MOHALI = findArea(SEED_AREAS, '160062')?.charge ?? 0;

let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
const email = `pincode-${Date.now()}@example.test`;
/** Every order the page sent to the shop. */
const orderPosts: string[] = [];

async function adminCall(method: string, path: string): Promise<number> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${shop.admin.token}` },
  });
  return res.status;
}

/** The phone's screen (412x823) from the top of `what`, as the shopper sees it there, and the whole page. */
async function shot(name: string, what = '.checkout h1'): Promise<void> {
  await page
    .locator(what)
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.scrollBy(0, -130));
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
  await page.screenshot({ path: `${SHOTS}/${name}-full.png`, fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ shoppers: [email], admin: true, phone: true });
  ({
    server,
    shopper,
    phone: { context, page },
  } = shop);
  products = forSale((await shop.feed()).products, 3);
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/place-order') orderPosts.push(r.url());
  });
  await writeSession(page, shopper);
}, 300_000);

afterAll(() => shop?.close());

describe('checkout from the pincode', () => {
  it('160062 fills Mohali, Punjab and ₹150 delivery; 110001 is refused at once and no order is sent', async () => {
    const [cake] = products as [FeedProduct];
    await putRows(page, 'cart', [cartLine(cake, Date.now())]);
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    const summary = page.locator('.co-summary');
    // No pincode yet: the charge waits for it rather than reading as free.
    await expect.poll(() => summary.getByText(t.pincodeFirst).count()).toBe(1);

    expect(await fillAddress(page, { pincode: '160062' })).toEqual({ city: 'Mohali', state: 'Punjab' });
    expect(await page.getByLabel('City', { exact: true }).getAttribute('readonly')).not.toBeNull();
    await expect.poll(() => summary.locator('.co-totals').innerText()).toContain(formatRupees(MOHALI));
    expect(await summary.locator('.co-total dd').innerText()).toContain(formatRupees(cake.price + MOHALI));
    // A delivery charge applies: the Standard slot costs nothing more, and is not called "Free".
    const slots = page.locator('.co-slots');
    if (await slots.count()) {
      expect(await slots.innerText()).toContain(slotMessages.noSurcharge);
      expect(await slots.innerText()).not.toMatch(/\bFree\b/);
    }
    await axe(page, 'checkout, 160062');
    await shot('checkout-pincode-160062');

    await page.getByLabel('Pincode').fill('110001');
    const refusal = `${areaMessages.outside('110001')} ${deliveryAreasText(SEED_AREAS)}.`;
    // Said under the field before any Place Order.
    await page.getByText(refusal).waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('Pincode').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('City', { exact: true }).inputValue()).toBe('');
    await axe(page, 'checkout, 110001');
    await shot('checkout-pincode-110001');

    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete')))
      .toBe('postal-code');
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).pathname).toBe('/checkout');
    expect(orderPosts).toEqual([]);
    expect(await outboxRows(page)).toEqual([]);
    expect((await ordersOf(server, email)).size).toBe(0);

    // Back to a pincode we deliver to: the order goes, with the State and City the pincode names.
    await fillAddress(page, { pincode: '160062', name: null });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const [row] = await outboxRows(page);
    expect(row?.request).toMatchObject({ CustomerPincode: '160062', State: 'Punjab', City: 'Mohali' });
    expect(row?.placed?.totalAmount).toBe(cake.price + MOHALI);
    // The pincode typed at checkout is the shopper's pincode everywhere now.
    expect(await page.evaluate(() => localStorage.getItem('deliveryPincode'))).toBe('160062');
  });

  it('a queued order whose pincode was removed while the phone was offline waits for a new address', async () => {
    const [, roses] = products as [FeedProduct, FeedProduct];
    await putRows(page, 'cart', [cartLine(roses, Date.now())]);
    await page.goto('/checkout');
    await fillAddress(page, { pincode: '160071', name: null, address: 'House 9, Sector 71, Mohali' });
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order-success/);
    const key = new URL(page.url()).searchParams.get('order') ?? '';
    const before = (await ordersOf(server, email)).size;

    // The owner stops delivering to 160071 while the phone is offline.
    expect(await adminCall('DELETE', '/admin/delivery-areas/160071')).toBeLessThan(300);
    await context.setOffline(false);
    await page.getByRole('heading', { name: t.undeliverableTitle }).waitFor({ timeout: 30_000 });
    const waiting = (await outboxRows(page)).find((r) => r.key === key);
    expect(waiting).toMatchObject({ state: 'attention', problem: { kind: 'undeliverable', status: 422 } });
    expect(await page.getByText(areaMessages.outside('160071')).count()).toBeGreaterThan(0);
    expect((await ordersOf(server, email)).size).toBe(before);
    await axe(page, 'an order waiting for a new address');
    await shot('checkout-pincode-queued-refused', '.co-attention');

    const attention = page.locator('.co-attention');
    await attention.getByLabel('Pincode').fill('160059');
    await attention.getByText(t.areaFound('Mohali', 'Punjab', formatRupees(MOHALI))).waitFor();
    await attention.getByRole('button', { name: t.addressSend }).click();
    await expect
      .poll(async () => (await outboxRows(page)).find((r) => r.key === key)?.placed?.orderID, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const sent = (await outboxRows(page)).find((r) => r.key === key);
    expect(sent?.request).toMatchObject({ CustomerPincode: '160059', City: 'Mohali', State: 'Punjab' });
    expect((await ordersOf(server, email)).size).toBe(before + 1);
  });
});
