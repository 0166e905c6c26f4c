import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { addDays, indiaClock } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { slotMessages } from '../../domain/slot-messages.js';
import type { DeliverySlot } from '../../domain/slots.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop, signIn } from '../support/shop.js';
import {
  cartLine,
  fillAddress,
  MOHALI_CHARGE,
  ordersOf,
  outboxRows,
  putRows,
  writeSession,
} from '../support/shopper.js';

/**
 * Delivery slots in real Chromium against the real server, on the
 * shopper's phone (412x823): tomorrow's Midnight booked at ₹250 more, the admin
 * seeing it under tomorrow's Midnight on the dashboard, and an order queued
 * offline whose slot filled meanwhile: it waits for the shopper with the next
 * free slots and is placed in the one they pick, once. Screenshots in /tmp/shots/slots.
 */
const SHOTS = '/tmp/shots/slots';
const MIDNIGHT = 6;

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
let admin: string;
const email = `slots-${Date.now()}@example.test`;
const today = indiaClock(new Date()).date;
const tomorrow = addDays(today, 1);

async function fillForm(date: string): Promise<void> {
  await fillAddress(page, { address: 'House 12, Sector 70, Mohali 160062' });
  await page.getByLabel('Preferred Delivery Date').fill(date);
}

async function api(method: string, path: string, body?: unknown): Promise<{ data: unknown }> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { isSuccess: boolean; data: unknown; sys_message: string };
  if (!json.isSuccess) throw new Error(`${method} ${path}: ${res.status} ${json.sys_message}`);
  return json;
}

async function setCapacity(slotID: number, capacity: number | null): Promise<void> {
  const { data } = (await api('GET', '/admin/delivery-slots')) as { data: { slots: DeliverySlot[] } };
  const slot = data.slots.find((s) => s.slotID === slotID);
  if (!slot) throw new Error(`no slot ${slotID}`);
  const { slotID: _id, isDefault: _d, retired: _r, ...input } = slot;
  await api('PUT', `/admin/delivery-slots/${slotID}`, { ...input, capacity });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ smtp: true, shoppers: [email], admin: true, phone: true });
  ({
    server,
    browser,
    shopper,
    phone: { context, page },
  } = shop);
  admin = shop.admin.token;
  products = forSale((await shop.feed()).products, 3);
  await writeSession(page, shopper);
});

afterAll(() => shop?.close());

describe('delivery slots', () => {
  it("books tomorrow's Midnight and pays ₹250 more; the admin sees it under tomorrow's Midnight", async () => {
    const cake = products[0] as FeedProduct;
    await putRows(page, 'cart', [cartLine(cake, Date.now())]);
    await page.goto('/checkout');
    await page.getByRole('group', { name: slotMessages.legend }).waitFor();
    await fillForm(tomorrow);
    const midnight = page.getByRole('radio', { name: /Midnight/ });
    await expect.poll(() => midnight.isEnabled()).toBe(true);
    await midnight.check();
    const line = page.locator('.co-summary').getByText('Midnight delivery (11 PM – 12 AM)');
    await expect.poll(() => line.count()).toBe(1);
    const total = cake.price + MOHALI_CHARGE + 250;
    expect(await page.locator('.co-total dd').innerText()).toContain(formatRupees(total));
    await axe(page);
    await page.locator('.co-slots').screenshot({ path: `${SHOTS}/slot-picker.png` });
    await page.screenshot({ path: `${SHOTS}/checkout-midnight.png`, fullPage: true });

    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 20_000 })
      .toBe(1);
    expect(await page.getByText('Midnight, 11 PM – 12 AM').count()).toBe(1);
    const placed = (await outboxRows(page))[0]?.placed;
    expect(placed).toMatchObject({ slotCharge: 250, totalAmount: total, deliverySlot: { name: 'Midnight' } });
    expect((await ordersOf(server, email)).get(placed?.orderID ?? 0)).toBe(total);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-success.png`, fullPage: true });

    // The admin, on the same phone size: tomorrow's Midnight counts the order.
    const adminContext = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 412, height: 823 },
    });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, shop.admin);
    await adminPage.goto('/dashboard');
    const row = adminPage.getByTestId(`slot-${tomorrow}-${MIDNIGHT}`);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => row.innerText()).toMatch(/Midnight[\s\S]*1 of 10/);
    await axe(adminPage);
    await adminPage.goto('/delivery-slots');
    await adminPage.getByRole('heading', { name: 'Delivery slots' }).waitFor();
    await expect.poll(() => adminPage.getByText('9 PM on the day').count()).toBe(1);
    await axe(adminPage);
    await adminPage.screenshot({ path: `${SHOTS}/admin-slots.png`, fullPage: true });
    await adminPage.goto(`/all-admin-orders?deliveryDate=${tomorrow}&slotId=${MIDNIGHT}`);
    await expect
      .poll(() => adminPage.getByRole('link', { name: `Order ${placed?.orderID}` }).count())
      .toBe(1);
    await adminContext.close();
  });

  it('an order queued offline whose slot filled meanwhile waits, offers the next free slots, and is placed in the one picked, once', async () => {
    const day = addDays(today, 2);
    const cake = products[1] as FeedProduct;
    await putRows(page, 'cart', [cartLine(cake, Date.now())]);
    await page.goto('/checkout');
    await page.getByRole('group', { name: slotMessages.legend }).waitFor();
    await fillForm(day);
    const midnight = page.getByRole('radio', { name: /Midnight/ });
    await expect.poll(() => midnight.isEnabled()).toBe(true);
    await midnight.check();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successQueuedTitle }).count())
      .toBeGreaterThan(0);
    const before = (await ordersOf(server, email)).size;

    // Meanwhile the shop's Midnight fills up.
    await setCapacity(MIDNIGHT, 0);
    await context.setOffline(false);
    await expect.poll(() => page.getByText(slotMessages.attentionTitle).count(), { timeout: 30_000 }).toBe(1);
    expect((await ordersOf(server, email)).size).toBe(before);
    const offers = page.locator('.co-slot-offers input[type="radio"]');
    expect(await offers.count()).toBeGreaterThan(0);
    expect(await page.locator('.co-slot-offers').innerText()).not.toMatch(/Midnight/);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/slot-attention.png`, fullPage: true });
    const row = (await outboxRows(page)).find((r) => r.state === 'attention');
    const refusal = row?.problem?.data as { next: { date: string; slotID: number; surcharge: number }[] };
    const offered = refusal.next;
    const pick = offered[1] ?? offered[0];
    await offers.nth(offered[1] ? 1 : 0).check();
    await page.getByRole('button', { name: slotMessages.attentionSend }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const sent = (await outboxRows(page)).find((r) => r.key === row?.key);
    const total = cake.price + MOHALI_CHARGE + (pick?.surcharge ?? 0);
    expect(sent?.placed).toMatchObject({
      deliveryDate: pick?.date,
      deliverySlot: { slotID: pick?.slotID },
      totalAmount: total,
    });
    const after = await ordersOf(server, email);
    expect(after.size).toBe(before + 1);
    expect(after.get(sent?.placed?.orderID ?? 0)).toBe(total);
    await setCapacity(MIDNIGHT, 10);
  });
});
