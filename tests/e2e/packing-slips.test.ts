import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { addDays, earliestDeliveryDate } from '../../domain/delivery.js';
import { pwaMessages } from '../../domain/pwa-messages.js';
import { registerShopperByMailFolder, writeSession } from '../support/checkout-e2e.js';
import {
  buildWeb,
  feedSnapshot,
  launchChromium,
  type RunningServer,
  startServer,
  tempDir,
} from '../support/e2e.js';

/**
 * A real day's packing in real Chromium against the real server: a 1 kg cake for the buyer and a
 * gift photo cake with no price in the box, for the same day. The owner opens All User Orders at
 * a laptop's width, sees who receives what and when, and prints the day's slips: on paper only
 * the slips, one to a page (the card on its own), each naming who receives it and each line's
 * size, at the page's full width on A4 and within an 80 mm receipt roll. Screenshots and the
 * PDFs in /tmp/shots/packing-slips (`SLIP_SHOTS` to change).
 */
const SHOTS = process.env.SLIP_SHOTS ?? '/tmp/shots/packing-slips';
const LAPTOP = { width: 1280, height: 800 };
/** 80 mm at 96 CSS px to the inch. */
const RECEIPT_PX = 302;
const BUYER_PHONE = '9876543210';
const RECIPIENT = { Name: 'Dadi Kaur', Phone: '9812345678' };
const MESSAGE = 'Happy Birthday Dadi';

type Product = {
  productID: number;
  title: string;
  price: number;
  photoCake: boolean;
  takesMessage: boolean;
  variations: { variationID: number; variationName: string; variationValue: string; price: number }[];
};

let server: RunningServer;
let browser: Browser;
let laptop: BrowserContext;
let page: Page;
let buyer: LoginData;
let cake: Product;
let photoCake: Product;
let kilo: Product['variations'][number];
const ids = { cake: 0, gift: 0 };
const day = addDays(earliestDeliveryDate(new Date()), 1);

async function api<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const { token, headers, ...rest } = init;
  const res = await fetch(`${server.url}/api/${url}`, {
    ...rest,
    headers: {
      ...(typeof rest.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(headers as Record<string, string>),
    },
  });
  const body = (await res.json()) as { isSuccess: boolean; data: T; sys_message: string };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${body.sys_message}`);
  return body.data;
}

function orderBody(
  lines: { product: Product; variation?: Product['variations'][number]; extra?: object }[],
  fields: object,
) {
  const items = lines.map(({ product, variation, extra }) => ({
    ProductID: product.productID,
    VariationID: variation?.variationID ?? null,
    ProductName: product.title,
    Price: variation?.price ?? product.price,
    Quantity: 1,
    ...extra,
  }));
  return {
    DeliveryDate: day,
    CustomerName: 'Asha Verma',
    CustomerEmail: buyer.email,
    CustomerPhone: BUYER_PHONE,
    CustomerAddress: 'House 12, Sector 70',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160062',
    PaymentMethod: 'Cash on Delivery',
    TotalAmount: items.reduce((s, i) => s + i.Price, 0) + 150,
    OrderItems: items,
    ...fields,
  };
}

async function axe(p: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page: p }).analyze();
  const found = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, what).toEqual([]);
}

/** Nothing wider than the page: the document and every slip and table in it. */
function sideways(p: Page): Promise<string[]> {
  return p.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('.admin-slip, .admin-slip table')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
}

/** Words of the slips that a line break cuts in two ("Happ / y"): each word should sit on one line. */
function brokenWords(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const out: string[] = [];
    for (const slip of document.querySelectorAll('.admin-slip')) {
      const walker = document.createTreeWalker(slip, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const tops = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (tops.size > 1) out.push(word[0]);
        }
      }
    }
    return out;
  });
}

/** Pages in a PDF that Chromium wrote (one /Type /Page object each). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const webDir = await buildWeb(tempDir('slips-web'));
  server = await startServer({ webDir });
  browser = await launchChromium();
  buyer = await registerShopperByMailFolder(server, `slips-${Date.now()}@example.test`);
  const products = (await feedSnapshot(server)).products as unknown as Product[];
  cake = products.find(
    (p) => !p.photoCake && p.variations.some((v) => v.variationValue === '1 kg'),
  ) as Product;
  kilo = cake.variations.find((v) => v.variationValue === '1 kg') as Product['variations'][number];
  photoCake = products.find((p) => p.photoCake && p.takesMessage) as Product;

  // The buyer's own 1 kg cake, cash on delivery.
  ids.cake = (
    await api<{ orderID: number }>('place-order', {
      method: 'POST',
      token: buyer.token,
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify(orderBody([{ product: cake, variation: kilo }], {})),
    })
  ).orderID;

  // A gift photo cake for Dadi with a card and no price in the box: paid online, as such a gift must be.
  const form = new FormData();
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d4a373' } })
    .jpeg()
    .toBuffer();
  form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'dadi.jpg');
  const { photoID } = await api<{ photoID: string }>('cake-photos', {
    method: 'POST',
    token: buyer.token,
    body: form,
  });
  const gift = orderBody(
    [
      {
        product: photoCake,
        extra: { PhotoID: photoID, CakeMessage: MESSAGE },
      },
    ],
    {
      PaymentMethod: 'Razorpay',
      Recipient: RECIPIENT,
      HidePrice: true,
      HideSender: true,
      Card: { Occasion: 'Birthday', Message: 'With all our love, from far away.' },
    },
  );
  const key = randomUUID();
  const created = await api<{ razorpayOrderId: string }>('payments/razorpay/order', {
    method: 'POST',
    token: buyer.token,
    headers: { 'idempotency-key': key },
    body: JSON.stringify(gift),
  });
  const proof = await api<Record<string, string>>('payments/test/pay', {
    method: 'POST',
    token: buyer.token,
    body: JSON.stringify({ razorpay_order_id: created.razorpayOrderId }),
  });
  ids.gift = (
    await api<{ orderID: number }>('place-order', {
      method: 'POST',
      token: buyer.token,
      headers: { 'idempotency-key': key },
      body: JSON.stringify({
        ...gift,
        RazorpayPaymentId: proof.razorpay_payment_id,
        RazorpayOrderId: proof.razorpay_order_id,
        RazorpaySignature: proof.razorpay_signature,
      }),
    })
  ).orderID;

  const admin = await api<LoginData>('LoginCustomer', {
    method: 'POST',
    body: JSON.stringify({ email: server.adminEmail, password: server.adminPassword }),
  });
  laptop = await browser.newContext({
    baseURL: server.url,
    viewport: LAPTOP,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  // The print dialog is the browser's: here it only counts, and the page is read as print media.
  await laptop.addInitScript(() => {
    const w = window as unknown as { print(): void; printed: number };
    w.printed = 0;
    w.print = () => {
      w.printed += 1;
    };
  });
  page = await laptop.newPage();
  await page.goto('/home');
  await writeSession(page, admin);
}, 600_000);

afterAll(async () => {
  await laptop?.close();
  await browser?.close();
  await server?.stop();
});

describe("the day's packing slips", () => {
  it('lists the day at a laptop width: delivery, who receives it, each size and the total, one email', async () => {
    await page.goto(`/all-admin-orders?deliveryDate=${day}&sort=slot`);
    const rows = page.locator('.admin-orders tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    const headers = await page.locator('.admin-orders thead th').allInnerTexts();
    expect(headers.filter((h) => /email/i.test(h))).toEqual([]);
    expect(headers).toEqual(expect.arrayContaining(['Delivery', 'Deliver to', 'Total Amount (INR)']));
    const [first, second] = [await rows.nth(0).innerText(), await rows.nth(1).innerText()];
    expect(first).toContain(`1 x ${cake.title} (Weight: 1 kg)`);
    expect(first).toContain('Asha Verma');
    expect(first).toContain('Cash on Delivery');
    expect(second).toContain('Dadi Kaur');
    expect(second).toContain('Gift from Asha Verma');
    expect(second).toContain('Paid online');
    expect(second).not.toContain('Razorpay');
    // The whole row at 1280 px: nothing of the table is off to the side.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(LAPTOP.width);
    // The PWA's strip is on the screen, so its absence on paper below means something.
    await expect
      .poll(() => page.getByText(pwaMessages.catalogueSynced).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await axe(page, 'orders list at 1280');
    await page.screenshot({ path: `${SHOTS}/orders-1280.png`, fullPage: true });
  });

  it('prints only the slips, one to a page, full width on A4 and within an 80 mm roll', async () => {
    await page.getByRole('button', { name: 'Print packing slips' }).click();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    await page.emulateMedia({ media: 'print' });
    const slips = page.getByTestId('packing-slip');
    expect(await slips.count()).toBe(2);
    const [own, gift] = [slips.nth(0), slips.nth(1)];
    expect(await own.isVisible()).toBe(true);

    const ownText = await own.innerText();
    expect(ownText).toContain(`Packing slip: order #${ids.cake}`);
    expect(await own.getByTestId('slip-deliver-to').innerText()).toContain('Asha Verma');
    expect(ownText).toContain(`1 x ${cake.title}, 1 kg`);
    expect(ownText).toContain('Mohali, Punjab 160062');
    expect(ownText).toContain('collect ₹');

    const giftText = await gift.innerText();
    const deliverTo = await gift.getByTestId('slip-deliver-to').innerText();
    expect(deliverTo).toContain('Dadi Kaur');
    expect(deliverTo).toContain(RECIPIENT.Phone);
    expect(deliverTo).not.toContain(BUYER_PHONE);
    expect(deliverTo).toContain('Mohali, Punjab 160062');
    expect(giftText).toContain(`1 x ${photoCake.title}, 0.5 kg`);
    expect(giftText).toContain('Photo cake');
    expect(giftText).toContain('Paid online');
    expect(giftText).not.toContain('₹');
    expect(await gift.locator('.admin-slip__message').innerText()).toContain(MESSAGE);
    const card = gift.getByTestId('slip-card');
    expect(await card.innerText()).toContain('With love');

    // Nothing of the screen on paper.
    for (const furniture of [
      '.admin-filters',
      '.admin-orders',
      '.admin-pager',
      '.admin-top',
      '.admin-side',
      '.admin-crumbs',
      '.pwa-status',
      'h1',
    ]) {
      expect(await page.locator(furniture).first().isVisible(), furniture).toBe(false);
    }
    expect(await page.getByText(pwaMessages.catalogueSynced).isVisible()).toBe(false);

    // Each slip begins a page, and the card is a page of its own.
    expect(await gift.evaluate((el) => getComputedStyle(el).breakBefore)).toBe('page');
    expect(await card.evaluate((el) => getComputedStyle(el).breakBefore)).toBe('page');

    // The page's width, not the sidebar's column; words whole.
    expect((await own.boundingBox())?.width).toBeGreaterThan(700);
    expect(await sideways(page)).toEqual([]);
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/print-1280.png`, fullPage: true });
    const a4 = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(`${SHOTS}/slips-a4.pdf`, a4);
    // Two slips and the card.
    expect(pdfPages(a4)).toBe(3);

    // Printing took the slips away (the browser's afterprint): the roll is a second print.
    await expect.poll(() => slips.count()).toBe(0);
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: RECEIPT_PX, height: 800 });
    await page.getByRole('button', { name: 'Print packing slips' }).click();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 2);
    await page.emulateMedia({ media: 'print' });
    expect(await slips.count()).toBe(2);
    expect(await page.locator('.admin-orders').isVisible()).toBe(false);
    expect(await sideways(page)).toEqual([]);
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/print-80mm.png`, fullPage: true });
    const roll = await page.pdf({ width: '80mm', printBackground: true });
    writeFileSync(`${SHOTS}/slips-80mm.pdf`, roll);
    expect(pdfPages(roll)).toBeGreaterThanOrEqual(3);
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(LAPTOP);
  });

  it("shows each line's size and how it was paid on the order's page, accessible at 1280 and 412", async () => {
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(LAPTOP);
    await page.goto(`/admin-orders/${ids.gift}`);
    const slip = page.getByTestId('packing-slip');
    await slip.waitFor({ timeout: 20_000 });
    const items = page.getByRole('region', { name: 'Items table' });
    expect(await items.innerText()).toContain('0.5 kg');
    expect(await page.locator('.admin-dl').filter({ hasText: 'Method' }).innerText()).toContain(
      'Paid online',
    );
    await axe(page, 'order page at 1280');
    await page.screenshot({ path: `${SHOTS}/order-1280.png`, fullPage: true });
    await page.emulateMedia({ media: 'print' });
    expect((await slip.boundingBox())?.width).toBeGreaterThan(700);
    await page.emulateMedia({ media: 'screen' });

    await page.setViewportSize({ width: 412, height: 823 });
    await page.goto(`/admin-orders/${ids.cake}`);
    await page.getByTestId('packing-slip').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('region', { name: 'Items table' }).innerText()).toContain('Weight: 1 kg');
    await axe(page, 'order page at 412');
    await page.screenshot({ path: `${SHOTS}/order-412.png`, fullPage: true });
    await page.goto(`/all-admin-orders?deliveryDate=${day}&sort=slot`);
    await expect.poll(() => page.locator('.admin-orders tbody tr').count(), { timeout: 20_000 }).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await axe(page, 'orders list at 412');
    await page.screenshot({ path: `${SHOTS}/orders-412.png`, fullPage: true });
  });
});
