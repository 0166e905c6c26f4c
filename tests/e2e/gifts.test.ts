import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { giftMessages } from '../../domain/gifts.js';
import { addDays, indiaClock } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signIn } from '../support/shop.js';
import { cartLine, fillAddress, ordersOf, outboxRows, putRows, writeSession } from '../support/shopper.js';

/**
 * Gifts in real Chromium against the real server, on the shopper's phone (412x823): a
 * photo cake for tomorrow with a Hindi message, a card and a recipient, ordered OFFLINE; back
 * online it arrives once (one order, one photo) with its photo, and the admin sees all of it. A
 * second gift, to the recipient saved with the first (two taps), with no price in the box, is paid
 * online only, and its packing slip shows no price. Screenshots in /tmp/shots/gifts (`GIFT_SHOTS` to change).
 */
const SHOTS = process.env.GIFT_SHOTS ?? '/tmp/shots/gifts';
const MESSAGE = 'जन्मदिन मुबारक दादी';
const CARD = 'Happy birthday, Dadi! With all our love.';

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
const email = `gifts-${Date.now()}@example.test`;
const tomorrow = addDays(indiaClock(new Date()).date, 1);

/** A small photo as a phone would take it: a JPEG with a picture in it. */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <rect width="640" height="480" fill="#f4c27a"/><circle cx="320" cy="220" r="150" fill="#8a4b2a"/>
    <circle cx="270" cy="190" r="18" fill="#fff"/><circle cx="370" cy="190" r="18" fill="#fff"/>
    <path d="M250 280 Q320 340 390 280" stroke="#fff" stroke-width="14" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

function shopDb(): Database.Database {
  return new Database(path.join(server.dataDir, 'shop.db'), { readonly: true, fileMustExist: true });
}

async function adminPage(): Promise<{ adminContext: BrowserContext; admin: Page }> {
  const adminContext = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 412, height: 823 },
  });
  const admin = await adminContext.newPage();
  await signIn(admin, shop.admin);
  return { adminContext, admin };
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
  products = (await shop.feed()).products;
  await writeSession(page, shopper);
});

afterAll(() => shop?.close());

describe('gifts', () => {
  let orderID = 0;

  it('orders a photo cake for tomorrow offline, with a Hindi message, a card and a recipient; back online it arrives once with its photo', async () => {
    const cake = products.find((p) => p.photoCake && p.takesMessage) as FeedProduct;
    expect(cake).toBeDefined();

    // The product page: the message with its live counter, the photo on the cake's shape.
    await page.goto(`/products-details/${cake.productID}`);
    const field = page.getByLabel('Message on the cake');
    await field.waitFor();
    await field.fill(MESSAGE);
    const count = await page.evaluate(
      (m) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(m)].length,
      MESSAGE,
    );
    expect(count).toBeLessThan(MESSAGE.length);
    await expect.poll(() => page.locator('.cake-message__count').innerText()).toContain(`${count}/40`);
    // Said at the photo picker (and among the page's benefits and shipping details, never "same day").
    expect(await page.locator('.cake-photo').getByText(giftMessages.photoCakeNotice()).count()).toBe(1);
    expect(await page.locator('.benefits').innerText()).not.toMatch(/same-day/i);
    await page.getByLabel('Photo for the cake').setInputFiles({
      name: 'dadi.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(),
    });
    const preview = page.locator('svg.cake-preview image');
    await expect.poll(() => preview.getAttribute('href')).toMatch(/^blob:/);
    await axe(page);
    await page.locator('.cake-gift').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/product-photo-cake-412.png` });
    await page.screenshot({ path: `${SHOTS}/product-photo-cake-412-full.png`, fullPage: true });
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => page.getByText(`${cake.title} added to cart!`).count()).toBeGreaterThan(0);

    // The cart reads the message back and keeps the photo with the line.
    await page.goto('/cart');
    const onCake = page.locator('.lines').getByText(giftMessages.onTheCake(MESSAGE));
    await expect.poll(() => onCake.count()).toBe(1);
    await expect
      .poll(() => page.locator('.line__photo').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await axe(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/cart-photo-cake-412.png` });

    // Offline from here: the checkout comes from the worker's cache, the order goes to the outbox.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Proceed to checkout' }).click();
    const date = page.getByLabel('Preferred Delivery Date');
    await date.waitFor();
    await expect.poll(() => date.inputValue()).toBe(tomorrow);
    expect(await date.getAttribute('min')).toBe(tomorrow);
    await fillAddress(page, { address: 'House 12, Sector 70, Mohali 160062' });
    await page.getByLabel(giftMessages.sendToSomeoneElse).check();
    await page.getByLabel("Recipient's name").fill('Dadi Kaur');
    await page.getByLabel("Recipient's mobile (10 digits)").fill('9876543210');
    await page.getByLabel('Save this recipient').check();
    await page.getByLabel(giftMessages.card).check();
    await page.getByLabel('Occasion').selectOption('Birthday');
    await page.getByLabel('Message on the card').fill(CARD);
    const summary = page.locator('.co-summary');
    expect(await summary.getByText(giftMessages.onTheCake(MESSAGE)).count()).toBe(1);
    expect(await summary.innerText()).toContain(CARD);
    await axe(page);
    await page.locator('.co-gift').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/checkout-photo-cake-412.png` });
    await page.locator('.co-summary').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/checkout-summary-412.png` });
    await page.screenshot({ path: `${SHOTS}/checkout-photo-cake-412-full.png`, fullPage: true });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successQueuedTitle }).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await page.getByText(giftMessages.onTheCake(MESSAGE)).count()).toBeGreaterThan(0);
    // Where it goes: the recipient's name and phone at the address typed; the photo, from the phone.
    expect(await page.locator('.co-deliver-to > span').allTextContents()).toEqual([
      'Dadi Kaur (a gift from you)',
      // Typed with its town and pincode: they are said once, after it.
      'House 12, Sector 70',
      'Mohali, Punjab 160062',
      '9876543210',
    ]);
    const photoShown = (p: typeof page) =>
      p.getByTestId('shopper-cake-photo').evaluate((img) => (img as HTMLImageElement).naturalWidth);
    await expect.poll(() => photoShown(page)).toBeGreaterThan(0);
    expect(await page.getByText(`Birthday: ${CARD}`).count()).toBe(1);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-queued-412.png`, fullPage: true });
    const queued = (await outboxRows(page)).find((r) => r.state !== 'sent');
    expect(queued?.photos?.length).toBe(1);
    expect(queued?.request.OrderItems[0]?.CakeMessage).toBe(MESSAGE);
    const before = (await ordersOf(server, email)).size;
    expect(before).toBe(0);

    // Back online: the photo goes first, then the order, once.
    await context.setOffline(false);
    await expect
      .poll(async () => (await outboxRows(page)).find((r) => r.key === queued?.key)?.state, {
        timeout: 45_000,
      })
      .toBe('sent');
    const sent = (await outboxRows(page)).find((r) => r.key === queued?.key);
    orderID = sent?.placed?.orderID ?? 0;
    expect(orderID).toBeGreaterThan(0);
    expect(sent?.photos?.[0]?.blob).toBeUndefined();
    const photoID = sent?.photos?.[0]?.photoID;
    expect(photoID).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ordersOf(server, email)).size).toBe(1);
    const db = shopDb();
    try {
      const user = db.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: number };
      expect(db.prepare('SELECT count(*) AS n FROM orders WHERE user_id = ?').get(user.id)).toEqual({ n: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM cake_photos WHERE user_id = ?').get(user.id)).toEqual({
        n: 1,
      });
      expect(
        db.prepare('SELECT cake_message, photo_id FROM order_items WHERE order_id = ?').all(orderID),
      ).toEqual([{ cake_message: MESSAGE, photo_id: photoID }]);
    } finally {
      db.close();
    }
    // The order's page shows the photo to the shopper who chose it, from the shop now (the phone's
    // copy left with the placed order).
    await page.goto(`/my-orders/${orderID}`);
    await expect.poll(() => photoShown(page), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/my-order-photo-cake-412.png`, fullPage: true });
  });

  it('the admin sees the recipient, the card, the message and the photo; the slip shows the message', async () => {
    const { adminContext, admin } = await adminPage();
    await admin.goto(`/admin-orders/${orderID}`);
    const gift = admin.getByTestId('gift-panel');
    await gift.waitFor({ timeout: 20_000 });
    const giftText = await gift.innerText();
    expect(giftText).toContain('Dadi Kaur, 9876543210');
    expect(giftText).toContain('Birthday');
    expect(giftText).toContain(CARD);
    expect(giftText).toContain('Prices may be shown');
    expect(await admin.getByTestId('cake-message').innerText()).toBe(giftMessages.onTheCake(MESSAGE));
    const img = admin.getByTestId('cake-photo');
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    const slip = admin.getByTestId('packing-slip');
    await slip.waitFor();
    expect(await slip.locator('.admin-slip__message').innerText()).toContain(MESSAGE);
    expect(await slip.getByTestId('slip-card').innerText()).toContain(CARD);
    await axe(admin);
    await admin.screenshot({ path: `${SHOTS}/admin-order-gift-412.png`, fullPage: true });
    await adminContext.close();
  });

  it('a second gift to the saved recipient (two taps) with no price in the box is paid online only; its slip has no price', async () => {
    const plain = products.find((p) => p.price > 0 && !p.photoCake && !p.takesMessage) as FeedProduct;
    await putRows(page, 'cart', [cartLine(plain, Date.now())]);
    await page.goto('/checkout');
    await page.getByLabel('Full Name').waitFor();
    await page.getByLabel('Full Name').fill('Asha Verma');
    await page.getByLabel(giftMessages.sendToSomeoneElse).check();
    const saved = page
      .getByRole('list', { name: 'Saved recipients' })
      .getByRole('button', { name: /Dadi Kaur/ });
    await expect.poll(() => saved.count(), { timeout: 20_000 }).toBe(1);
    await saved.click();
    expect(await page.getByLabel("Recipient's mobile (10 digits)").inputValue()).toBe('9876543210');
    expect(await page.getByLabel('Full Shipping Address').inputValue()).toBe(
      'House 12, Sector 70, Mohali 160062',
    );
    await page.getByLabel(giftMessages.hidePrice).check();
    const cod = page.locator('input[name="method"][value="cod"]');
    expect(await cod.isDisabled()).toBe(true);
    expect(await page.getByText(giftMessages.giftCod).count()).toBe(1);
    await expect.poll(() => page.locator('input[name="method"][value="online"]').isChecked()).toBe(true);
    await axe(page);
    const total = await page.locator('.co-total dd').innerText();
    await page.getByRole('button', { name: 'Place Order' }).click();
    const pay = page.getByRole('button', { name: t.payButton(total.replace(/\s*INR$/, '').trim()) });
    await pay.waitFor({ timeout: 20_000 });
    await pay.click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const second = (await outboxRows(page)).find((r) => r.request.HidePrice === true)?.placed?.orderID ?? 0;
    expect(second).toBeGreaterThan(orderID);

    const { adminContext, admin } = await adminPage();
    await admin.goto(`/admin-orders/${second}`);
    const slip = admin.getByTestId('packing-slip');
    await slip.waitFor({ timeout: 20_000 });
    const text = await slip.innerText();
    expect(text).toContain('Dadi Kaur');
    expect(text).toContain('No price in the box');
    expect(text).not.toContain('₹');
    expect(text).not.toContain(formatRupees(plain.price));
    expect(await admin.getByTestId('gift-panel').innerText()).toContain('No price in the box');
    await adminContext.close();

    // My Profile lists the recipient saved with the first order (the device's copy replaced by the server's list) and deletes it.
    await page.goto('/my-profile');
    const list = page.getByRole('region', { name: 'Saved recipients' });
    await expect.poll(() => list.getByText('Dadi Kaur').count(), { timeout: 20_000 }).toBe(1);
    await axe(page);
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/profile-recipients-412.png` });
    await list.getByRole('button', { name: 'Delete Dadi Kaur from saved recipients' }).click();
    await expect.poll(() => list.getByText('Dadi Kaur').count()).toBe(0);
    const left = await fetch(`${server.url}/api/my-recipients`, {
      headers: { authorization: `Bearer ${shopper.token}` },
    });
    expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
