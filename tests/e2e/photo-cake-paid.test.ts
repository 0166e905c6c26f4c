import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { addDays, indiaClock } from '../../domain/delivery.js';
import { giftMessages } from '../../domain/gifts.js';
import { openShopOnPhone, outboxRows, registerShopper, writeSession } from '../support/checkout-e2e.js';
import {
  adminToken,
  buildWeb,
  feedSnapshot,
  launchChromium,
  type RunningServer,
  startServer,
  tempDir,
} from '../support/e2e.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * A surprise photo cake, paid online, in real Chromium against the real server (test provider,
 * `TEST_PAYMENTS=true`): someone else receives it and there is no price in the box, so Cash on
 * Delivery is closed and online payment is the only way. The checkout uploads the photo under its
 * own key before it asks for the provider order; the order paid for arrives with its photo, and
 * the photo was stored once. Screenshots in /tmp/shots/photo-cake-paid.
 */
const SHOTS = '/tmp/shots/photo-cake-paid';
type FeedProduct = Awaited<ReturnType<typeof feedSnapshot>>['products'][number];

let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let page: Page;
let shopper: LoginData;
let cake: FeedProduct;
const email = `photo-paid-${Date.now()}@example.test`;
const tomorrow = addDays(indiaClock(new Date()).date, 1);

async function axe(p: Page): Promise<void> {
  const result = await new AxeBuilder({ page: p }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  smtp = await startSmtp();
  const webDir = await buildWeb(tempDir('photo-paid-web'));
  server = await startServer({ webDir, env: { SMTP_URL: smtp.url } });
  shopper = await registerShopper(server, smtp, email);
  cake = (await feedSnapshot(server)).products.find((p) => p.photoCake) as FeedProduct;
  browser = await launchChromium();
  ({ page } = await openShopOnPhone(browser, server.url));
  await writeSession(page, shopper);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

describe('a surprise photo cake paid online', () => {
  it('uploads the photo before the payment, once, and the paid order arrives with it', async () => {
    expect(cake).toBeDefined();
    const asked: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'POST' && path.startsWith('/api/')) asked.push(path);
    });

    await page.goto(`/products-details/${cake.productID}`);
    const picker = page.getByLabel('Photo for the cake');
    await picker.waitFor();
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c9885b' } })
      .jpeg({ quality: 85 })
      .toBuffer();
    await picker.setInputFiles({ name: 'dadi.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await expect.poll(() => page.locator('svg.cake-preview image').getAttribute('href')).toMatch(/^blob:/);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => page.getByText(`${cake.title} added to cart!`).count()).toBeGreaterThan(0);

    await page.goto('/checkout');
    const date = page.getByLabel('Preferred Delivery Date');
    await date.waitFor();
    await expect.poll(() => date.inputValue()).toBe(tomorrow);
    await page.getByLabel('Full Name').fill('Asha Verma');
    await page.getByLabel(giftMessages.sendToSomeoneElse).check();
    await page.getByLabel("Recipient's name").fill('Dadi Kaur');
    await page.getByLabel("Recipient's mobile (10 digits)").fill('9812345678');
    await page.getByLabel('State', { exact: true }).selectOption('Punjab');
    await page.getByLabel('City', { exact: true }).selectOption('Mohali');
    await page.getByLabel("Recipient's full shipping address").fill('House 12, Sector 70, Mohali 160062');
    await page.getByLabel('Pincode').fill('160062');
    await page.getByLabel(giftMessages.hidePrice).check();
    expect(await page.locator('input[name="method"][value="cod"]').isDisabled()).toBe(true);
    const online = page.locator('input[name="method"][value="online"]');
    await expect.poll(() => online.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => online.isChecked()).toBe(true);
    await expect
      .poll(() =>
        page.locator('.co-summary .line__photo').evaluate((i) => (i as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await axe(page);

    const total = (await page.locator('.co-total dd').innerText()).replace(/\s*INR$/, '').trim();
    await page.getByRole('button', { name: 'Place Order' }).click();
    const pay = page.getByRole('button', { name: t.payButton(total) });
    await pay.waitFor({ timeout: 20_000 });
    // The photo went first, then the provider order: the payment is for an order that carries it.
    expect(asked.filter((p) => p === '/api/cake-photos' || p === '/api/payments/razorpay/order')).toEqual([
      '/api/cake-photos',
      '/api/payments/razorpay/order',
    ]);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/pay-412.png` });
    await pay.click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-success-412.png`, fullPage: true });

    const row = (await outboxRows(page)).find((r) => r.request.HidePrice === true);
    const photoID = row?.photos?.[0]?.photoID;
    expect(photoID).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.request.OrderItems[0]?.PhotoID).toBe(photoID);
    expect(row?.placed).toMatchObject({ status: 'paid', paymentMethod: 'Razorpay' });
    // Uploaded once: the order was sent with the id the checkout got, not uploaded again.
    expect(asked.filter((p) => p === '/api/cake-photos')).toHaveLength(1);

    const res = await fetch(`${server.url}/api/admin/orders/${row?.placed?.orderID}`, {
      headers: { authorization: `Bearer ${await adminToken(server)}` },
    });
    const order = ((await res.json()) as { data: { status: string; hidePrice: boolean; lines: unknown[] } })
      .data;
    expect(order).toMatchObject({
      status: 'paid',
      hidePrice: true,
      recipient: { name: 'Dadi Kaur', phone: '9812345678' },
      lines: [{ photoID }],
    });
  });
});
