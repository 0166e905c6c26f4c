import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { giftMessages } from '../../domain/gifts.js';
import { addDays } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { pwaMessages } from '../../domain/pwa-messages.js';
import { adminToken, type RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signIn } from '../support/shop.js';
import { fillAddress, outboxRows, writeSession } from '../support/shopper.js';

/**
 * The owner's day, in real Chromium against the real server. On a phone (412x823) a shopper
 * orders a 1 kg cake for herself (Cash on Delivery) and a surprise photo cake for Dadi, with no
 * price in the box, paid online (the test provider): the checkout uploads the photo under its
 * own key before it asks for the provider order, so the order paid for carries its photo. Order
 * success shows each line's size and a bill that adds up. Then the owner, at a laptop's width,
 * sees the day on All User Orders, prints the day's slips (on paper only the slips, one to a page,
 * the card on its own, each naming who receives it and each line's size, at the page's full width
 * on A4 and within an 80 mm receipt roll), and opens the CSV. Then she cancels both: the cancel
 * dialog says what each button does, the day's slips never print a cancelled order (the button
 * says how many it prints), a cancelled order's own slip says CANCELLED, and the refunded payment
 * says it is refunded. Screenshots and the PDFs in /tmp/shots/owners-day (`OWNERS_DAY_SHOTS` to
 * change).
 */
const SHOTS = process.env.OWNERS_DAY_SHOTS ?? '/tmp/shots/owners-day';
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

let shop: Shop;
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

/** RFC 4180: fields separated by commas, rows by CRLF, quoted fields may hold both and "" for a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Pages in a PDF that Chromium wrote (one /Type /Page object each). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;

let shopper: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ shoppers: [`owners-day-${Date.now()}@example.test`], admin: true, phone: true });
  ({
    server,
    browser,
    shopper: buyer,
    phone: { page: shopper },
  } = shop);
  const products = (await shop.feed()).products as unknown as Product[];
  cake = products.find(
    (p) => !p.photoCake && p.variations.some((v) => v.variationValue === '1 kg'),
  ) as Product;
  kilo = cake.variations.find((v) => v.variationValue === '1 kg') as Product['variations'][number];
  photoCake = products.find((p) => p.photoCake && p.takesMessage) as Product;
  await writeSession(shopper, buyer);

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
  await signIn(page, shop.admin);
}, 600_000);

afterAll(async () => {
  await laptop?.close();
  await shop?.close();
});

/** The checkout's address fields for Mohali (₹150 delivery), as a shopper fills them in. */
async function mohali(p: Page, address: string): Promise<void> {
  await fillAddress(p, { name: null, addressLabel: address, address: 'House 12, Sector 70, Mohali 160062' });
}

describe("the owner's day", () => {
  it('a shopper orders a 1 kg cake on her phone: order success names the size and the bill adds up', async () => {
    await shopper.goto(`/products-details/${cake.productID}`);
    const size = shopper.locator(`option[value="${kilo.variationID}"]`).locator('xpath=..');
    await size.waitFor();
    await size.selectOption(String(kilo.variationID));
    await shopper.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => shopper.getByText(`${cake.title} added to cart!`).count()).toBeGreaterThan(0);

    await shopper.goto('/checkout');
    const date = shopper.getByLabel('Preferred Delivery Date');
    await date.waitFor();
    await date.fill(day);
    await shopper.getByLabel('Full Name').fill('Asha Verma');
    await mohali(shopper, 'Full Shipping Address');
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => shopper.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const success = await shopper.locator('main').innerText();
    expect(success).toContain('Weight: 1 kg');
    // Items, delivery and total, adding up.
    expect(success).toContain(formatRupees(kilo.price));
    expect(success).toContain(formatRupees(150));
    expect(success).toContain(formatRupees(kilo.price + 150));
    await axe(shopper, 'order success');
    await shopper.screenshot({ path: `${SHOTS}/order-success-412.png`, fullPage: true });
    await shopper.setViewportSize(LAPTOP);
    await shopper.screenshot({ path: `${SHOTS}/order-success-1280.png`, fullPage: true });
    await shopper.setViewportSize({ width: 412, height: 823 });
    const row = (await outboxRows(shopper)).find((r) => r.placed && !r.request.HidePrice);
    ids.cake = row?.placed?.orderID ?? 0;
    expect(ids.cake).toBeGreaterThan(0);
  });

  it('a surprise photo cake for Dadi is paid online: the photo goes first, once, and the paid order carries it', async () => {
    const asked: string[] = [];
    shopper.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'POST' && path.startsWith('/api/')) asked.push(path);
    });
    await shopper.goto(`/products-details/${photoCake.productID}`);
    await shopper.getByLabel('Message on the cake').fill(MESSAGE);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c9885b' } })
      .jpeg({ quality: 85 })
      .toBuffer();
    await shopper
      .getByLabel('Photo for the cake')
      .setInputFiles({ name: 'dadi.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await expect.poll(() => shopper.locator('svg.cake-preview image').getAttribute('href')).toMatch(/^blob:/);
    await shopper.getByRole('button', { name: 'Add to Cart' }).click();
    await expect
      .poll(() => shopper.getByText(`${photoCake.title} added to cart!`).count())
      .toBeGreaterThan(0);

    await shopper.goto('/checkout');
    const date = shopper.getByLabel('Preferred Delivery Date');
    await date.waitFor();
    await date.fill(day);
    await shopper.getByLabel('Full Name').fill('Asha Verma');
    await shopper.getByLabel(giftMessages.sendToSomeoneElse).check();
    await shopper.getByLabel("Recipient's name").fill(RECIPIENT.Name);
    await shopper
      .getByLabel("Recipient's mobile (10 digits)")
      .fill(`+91 ${RECIPIENT.Phone.slice(0, 5)} ${RECIPIENT.Phone.slice(5)}`);
    await mohali(shopper, "Recipient's full shipping address");
    await shopper.getByLabel(giftMessages.hidePrice).check();
    await shopper.getByLabel(giftMessages.hideSender).check();
    await shopper.getByLabel(giftMessages.card).check();
    await shopper.getByLabel('Occasion').selectOption('Birthday');
    await shopper.getByLabel('Message on the card').fill('With all our love, from far away.');
    // Someone else and no price in the box: online payment is the only way.
    expect(await shopper.locator('input[name="method"][value="cod"]').isDisabled()).toBe(true);
    const online = shopper.locator('input[name="method"][value="online"]');
    await expect.poll(() => online.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => online.isChecked()).toBe(true);
    await axe(shopper, 'checkout with a photo cake gift');

    const total = (await shopper.locator('.co-total dd').innerText()).replace(/\s*INR$/, '').trim();
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    const pay = shopper.getByRole('button', { name: t.payButton(total) });
    await pay.waitFor({ timeout: 20_000 });
    expect(asked.filter((p) => p === '/api/cake-photos' || p === '/api/payments/razorpay/order')).toEqual([
      '/api/cake-photos',
      '/api/payments/razorpay/order',
    ]);
    await pay.click();
    await expect
      .poll(() => shopper.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const success = await shopper.locator('main').innerText();
    expect(success).toContain('0.5 kg');
    expect(success).toContain('Paid online');
    expect(success).not.toContain('Razorpay');
    await axe(shopper, 'order success, paid');
    await shopper.screenshot({ path: `${SHOTS}/order-success-paid-412.png`, fullPage: true });

    const row = (await outboxRows(shopper)).find((r) => r.request.HidePrice === true);
    const photoID = row?.photos?.[0]?.photoID;
    expect(photoID).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.placed).toMatchObject({ status: 'paid', paymentMethod: 'Razorpay' });
    // Uploaded once: the order was sent with the id the checkout got, not uploaded again.
    expect(asked.filter((p) => p === '/api/cake-photos')).toHaveLength(1);
    ids.gift = row?.placed?.orderID ?? 0;
    const res = await fetch(`${server.url}/api/admin/orders/${ids.gift}`, {
      headers: { authorization: `Bearer ${await adminToken(server)}` },
    });
    const order = ((await res.json()) as { data: object }).data;
    expect(order).toMatchObject({
      status: 'paid',
      hidePrice: true,
      recipient: { name: RECIPIENT.Name, phone: RECIPIENT.Phone },
      lines: [{ photoID, variationValue: expect.any(String) }],
    });
  });

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
    await page.getByRole('button', { name: 'Print 2 slips' }).click();
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
    // The shopper typed "…Mohali 160062" into the address too: the slip writes the place once.
    expect(ownText.match(/160062/g)).toHaveLength(1);
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
    await page.getByRole('button', { name: 'Print 2 slips' }).click();
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

  it("opens the day's CSV: UTF-8 with a BOM, India time, the address in parts, every charge, each size, the photo's link", async () => {
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(LAPTOP);
    await page.goto(`/all-admin-orders?deliveryDate=${day}&sort=slot`);
    await expect.poll(() => page.locator('.admin-orders tbody tr').count(), { timeout: 20_000 }).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const bytes = readFileSync((await download.path()) as string);
    writeFileSync(`${SHOTS}/orders.csv`, bytes);
    // Excel keeps ₹, Hindi and emoji only behind a byte order mark.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(bytes.toString('utf8').slice(1));
    const at = (row: string[] | undefined, column: string) => row?.[header?.indexOf(column) ?? -1];
    for (const column of ['City', 'State', 'PIN', 'Delivery Charge (INR)', 'Slot Charge (INR)', 'Cake Photo'])
      expect(header).toContain(column);
    const own = rows.find((r) => r[0] === String(ids.cake));
    const gift = rows.find((r) => r[0] === String(ids.gift));
    expect(at(own, 'Products')).toBe(`1 x ${cake.title}, 1 kg`);
    expect(at(gift, 'Products')).toBe(`1 x ${photoCake.title}, 0.5 kg`);
    expect([at(own, 'City'), at(own, 'State'), at(own, 'PIN')]).toEqual(['Mohali', 'Punjab', '160062']);
    expect(at(own, 'Delivery Charge (INR)')).toBe('150');
    expect(at(own, 'Total Amount (INR)')).toBe(String(kilo.price + 150));
    expect(at(gift, 'Payment')).toBe('Paid online');
    expect(at(gift, 'Recipient Name')).toBe(RECIPIENT.Name);
    expect(at(gift, 'Cake Photo')).toBe(`${server.url}/admin-orders/${ids.gift}#cake-photo`);
    expect(at(own, 'Cake Photo')).toBe('');
    // The time of day in India: the order was made within the last few minutes there.
    const when = at(own, 'Order Date (India time)') ?? '';
    const india = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(Math.abs(Date.parse(`${when}Z`) - Date.parse(`${india}Z`))).toBeLessThan(15 * 60_000);
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
  it("cancels both: the dialog says what it does, the day's slips leave them out, a cancelled slip says CANCELLED", async () => {
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(LAPTOP);
    const dialog = page.locator('dialog.admin-dialog[open]');
    const cancelFromPage = async (id: number, yes: string) => {
      await page.goto(`/admin-orders/${id}`);
      await page.getByTestId('packing-slip').waitFor({ timeout: 20_000 });
      await page.getByLabel('Move to').selectOption('cancelled');
      await page.getByRole('button', { name: 'Update status' }).click();
      await dialog.waitFor();
      // Each button says what it does: never a bare "Cancel" that keeps the order.
      expect(await dialog.getByRole('button').allInnerTexts()).toEqual(['Keep the order', yes]);
    };

    // Cash on Delivery: "Cancel the order"; "Keep the order" keeps it.
    await cancelFromPage(ids.cake, 'Cancel the order');
    await axe(page, 'the cancel dialog, Cash on Delivery');
    await page.screenshot({ path: `${SHOTS}/cancel-dialog-cod-1280.png` });
    await dialog.getByRole('button', { name: 'Keep the order' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('order-status').innerText()).toBe('placed');
    await page.getByRole('button', { name: 'Update status' }).click();
    await dialog.getByRole('button', { name: 'Cancel the order' }).click();
    await expect
      .poll(() => page.getByTestId('order-status').innerText(), { timeout: 15_000 })
      .toBe('cancelled');

    // Its own slip is still printable for the record, and says CANCELLED across it.
    const slip = page.getByTestId('packing-slip');
    await expect.poll(() => slip.locator('.admin-slip__stamp').count(), { timeout: 15_000 }).toBe(1);
    expect(await slip.getByRole('heading').innerText()).toContain('CANCELLED');
    // The address once, and the times as India writes them.
    expect((await page.getByTestId('order-address').innerText()).match(/160062/g)).toHaveLength(1);
    const ordered = page
      .locator('.admin-dl dt', { hasText: 'Ordered' })
      .locator('xpath=following-sibling::dd[1]');
    expect(await ordered.innerText()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m$/);
    await axe(page, 'a cancelled order at 1280');
    await page.screenshot({ path: `${SHOTS}/order-cancelled-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Print packing slip' }).click();
    await page.emulateMedia({ media: 'print' });
    expect(await slip.locator('.admin-slip__stamp').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/slip-cancelled-print-1280.png`, fullPage: true });
    // On an 80 mm roll and on a phone the stamp stays within the slip.
    await page.setViewportSize({ width: RECEIPT_PX, height: 800 });
    expect(await slip.locator('.admin-slip__stamp').isVisible()).toBe(true);
    expect(await sideways(page)).toEqual([]);
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 412, height: 823 });
    expect(await sideways(page)).toEqual([]);
    await axe(page, 'a cancelled order at 412');
    await page.screenshot({ path: `${SHOTS}/order-cancelled-412.png`, fullPage: true });
    await page.setViewportSize(LAPTOP);

    // The day: the list still shows both, the print takes only the one to deliver.
    await page.goto(`/all-admin-orders?deliveryDate=${day}&sort=slot`);
    await expect.poll(() => page.locator('.admin-orders tbody tr').count(), { timeout: 20_000 }).toBe(2);
    const printed = await page.evaluate(() => (window as unknown as { printed: number }).printed);
    await page.getByRole('button', { name: 'Print 1 slip' }).click();
    await page.waitForFunction((n) => (window as unknown as { printed: number }).printed === n + 1, printed);
    const slips = page.getByTestId('packing-slip');
    await expect.poll(() => slips.count()).toBe(1);
    expect(await slips.first().innerText()).toContain(`order #${ids.gift}`);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `${SHOTS}/slips-day-1280.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => dispatchEvent(new Event('afterprint')));

    // Paid online: "Cancel and refund ₹…", then the page says the payment is refunded.
    const paid = (await (
      await fetch(`${server.url}/api/admin/orders/${ids.gift}`, {
        headers: { authorization: `Bearer ${await adminToken(server)}` },
      })
    ).json()) as { data: { payment: { paid: number } } };
    await cancelFromPage(
      ids.gift,
      adminMessages.cancelDialog(ids.gift, { left: paid.data.payment.paid, paid: paid.data.payment.paid })
        .yes,
    );
    await axe(page, 'the cancel dialog, paid online');
    await page.screenshot({ path: `${SHOTS}/cancel-dialog-paid-1280.png` });
    await dialog.getByRole('button', { name: /^Cancel and refund ₹/ }).click();
    await expect
      .poll(() => page.getByTestId('order-status').innerText(), { timeout: 15_000 })
      .toBe('cancelled');
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('payment-state').innerText({ timeout: 15_000 });
        },
        { timeout: 30_000 },
      )
      .toBe(`Refunded in full, ${formatRupees(paid.data.payment.paid)}`);
    await axe(page, 'a refunded order at 1280');
    await page.screenshot({ path: `${SHOTS}/order-refunded-1280.png`, fullPage: true });

    // Nothing left to deliver that day: nothing to print.
    await page.goto(`/all-admin-orders?deliveryDate=${day}&sort=slot`);
    await expect.poll(() => page.locator('.admin-orders tbody tr').count(), { timeout: 20_000 }).toBe(2);
    const none = page.getByRole('button', { name: 'No slips to print' });
    await none.waitFor();
    expect(await none.isDisabled()).toBe(true);
  });
});
