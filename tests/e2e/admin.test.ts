import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays, indiaDayStart } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { takeCspViolations } from '../support/csp-guard.js';
import { phoneContext, type RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signIn } from '../support/shop.js';

/**
 * The admin area in real Chromium against the real server: the
 * owner signs in and runs the shop at laptop size; a shopper's phone sees
 * what the owner did. One build, one server, one browser for the whole file.
 */
const LAPTOP = { width: 1280, height: 800 };
/** Where the product form's screenshot goes (`ADMIN_SHOTS` to change). */
const SHOTS = process.env.ADMIN_SHOTS ?? '/tmp/shots/admin';

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;
let shopper: LoginData;
let laptop: BrowserContext;
let page: Page;
let orderId: number;

async function api<T>(
  method: string,
  url: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/api/${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as { isSuccess: boolean; data: T; sys_message: string },
  };
}

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 480, height: 360, channels: 3, background: color } })
    .png()
    .toBuffer();
}

async function alertText(p: Page, text: string): Promise<void> {
  await p.locator('.alerts').getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
}

/** Answers the in-page confirmation dialog. */
async function confirmDialog(p: Page, text: string, answer: 'confirm' | 'cancel'): Promise<void> {
  const dialog = p.locator('dialog.admin-dialog[open]');
  await dialog.getByText(text).waitFor();
  await dialog
    .getByRole('button', { name: answer === 'cancel' ? 'Cancel' : /^(Yes|Delete|Move|Leave)$/ })
    .click();
  await dialog.waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
  await p.locator('dialog.admin-dialog[open]').waitFor({ state: 'hidden' });
}

function shopDb(): Database.Database {
  return new Database(path.join(server.dataDir, 'shop.db'), { readonly: true, fileMustExist: true });
}

describe('the admin area in Chromium', () => {
  beforeAll(async () => {
    shop = await openShop({ shoppers: [`admin-e2e-${Date.now()}@example.test`], admin: true });
    ({ server, browser, admin, shopper } = shop);
    // The shopper's order, placed through the API as a device's outbox sends it.
    const product = (
      await api<{ productID: number; title: string; price: number }[]>('GET', 'ABCGetProducts')
    ).body.data[0];
    if (!product) throw new Error('the demo catalogue is empty');
    const placed = await api<{ orderID: number }>(
      'POST',
      'place-order',
      {
        DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
        CustomerName: 'Asha Verma',
        CustomerEmail: shopper.email,
        CustomerPhone: '9876543210',
        CustomerAddress: '12 Rose Lane',
        State: 'Punjab',
        City: 'Mohali',
        CustomerPincode: '160055',
        PaymentMethod: 'Cash on Delivery',
        TotalAmount: product.price + 150,
        OrderItems: [
          { ProductID: product.productID, ProductName: product.title, Price: product.price, Quantity: 1 },
        ],
      },
      shopper.token,
      { 'idempotency-key': randomUUID() },
    );
    expect(placed.status, placed.body.sys_message).toBe(200);
    orderId = placed.body.data.orderID;
    laptop = await browser.newContext({
      baseURL: server.url,
      viewport: LAPTOP,
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    page = await laptop.newPage();
  }, 240_000);

  afterAll(async () => {
    await laptop?.close();
    await shop?.close();
  });

  it("sends a shopper's token on an admin route to /home", async () => {
    const ctx = await phoneContext(browser, server.url);
    const p = await ctx.newPage();
    await signIn(p, shopper);
    await p.goto('/dashboard');
    await p.waitForURL('**/home', { timeout: 15_000 });
    await p.goto('/product-list');
    await p.waitForURL('**/home', { timeout: 15_000 });
    await ctx.close();
  });

  it("logs the admin in to the dashboard, whose figures are the database's", async () => {
    await page.goto('/login');
    const email = page.getByLabel('Email', { exact: true });
    // The login screen is the accounts issue's; without it the session is written as saveSession does.
    if (
      await email.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await email.fill(server.adminEmail);
      await page.getByLabel('Password', { exact: true }).fill(server.adminPassword);
      await page.locator('form').filter({ has: email }).locator('button[type="submit"]').click();
      await page.waitForURL('**/dashboard', { timeout: 15_000 });
    } else {
      await signIn(page, admin);
      await page.goto('/dashboard');
    }
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByTestId('products').waitFor();
    expect(await page.title()).toBe(`Dashboard | ${adminMessages.titleSuffix(SITE_NAME)}`);

    const db = shopDb();
    const today = indiaDayStart(Date.now());
    const one = <T>(q: string, ...args: unknown[]) => db.prepare(q).get(...args) as T;
    const products = one<{ n: number }>('select count(*) as n from products where deleted_at is null').n;
    const categories = one<{ n: number }>('select count(*) as n from categories where deleted_at is null').n;
    const todays = one<{ n: number; s: number | null }>(
      "select count(*) as n, sum(total) as s from orders where created_at >= ? and status != 'cancelled'",
      today,
    );
    const placed = one<{ n: number }>("select count(*) as n from orders where status = 'placed'").n;
    db.close();
    expect(todays.n).toBe(1);
    expect(await page.getByTestId('products').textContent()).toBe(String(products));
    expect(await page.getByTestId('categories').textContent()).toBe(String(categories));
    expect(await page.getByTestId('orders-today').textContent()).toBe(String(todays.n));
    expect(await page.getByTestId('revenue-today').textContent()).toBe(formatRupees(todays.s ?? 0));
    expect(await page.getByTestId('waiting-placed').textContent()).toBe(String(placed));
    await axe(page, 'dashboard');
  });

  it('adds a category, then a product with two categories, two images and a variation', async () => {
    await page.getByRole('link', { name: 'Add Category' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add Category' }).waitFor();
    await page.getByRole('button', { name: 'Add Category' }).click();
    await alertText(page, messages.categoryNameRequired);
    await page.getByLabel('Category name').fill('E2E Tea Cakes');
    await page.getByRole('button', { name: 'Add Category' }).click();
    await alertText(page, messages.categoryAdded);
    await page.locator('.admin-chips').getByText('E2E Tea Cakes').waitFor();
    await axe(page, 'add category');

    await page.getByRole('link', { name: 'Category List' }).click();
    await page.getByRole('cell', { name: 'E2E Tea Cakes', exact: true }).waitFor();
    await axe(page, 'category list');

    await page.getByRole('link', { name: 'Add Product' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Add Product' }).waitFor();
    await page.getByRole('button', { name: 'Add Product' }).click();
    await alertText(page, messages.productFieldsRequired);
    await page.getByLabel('E2E Tea Cakes').check();
    await page.getByLabel('Gifts').check();
    await page.getByLabel('Title').fill('E2E Rosewater Cake');
    await page
      .getByLabel('Description (HTML)')
      .fill(
        '<p>Fresh <strong>rosewater</strong> sponge</p><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>',
      );
    await page.locator('.admin-preview__body strong').getByText('rosewater').waitFor();
    expect(await page.locator('.admin-preview__body script').count()).toBe(0);
    expect(await page.locator('.admin-preview__body [onerror]').count()).toBe(0);
    // DOMPurify parses the typed attack under the page's Content-Security-Policy, which refuses its
    // onerror handler and reports each refusal: the policy's second line of defence at work, and the
    // only violations this step may cause (the guard fails the test on any other).
    const refused: string[] = [];
    await expect
      .poll(() => {
        refused.push(...takeCspViolations());
        return refused.length;
      })
      .toBeGreaterThan(0);
    // Reports arrive a moment after the parse that caused them.
    await page.waitForTimeout(500);
    refused.push(...takeCspViolations());
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss ?? 0)).toBe(0);
    expect(refused.filter((v) => !v.includes('script-src-attr') || !v.includes('/assets/purify'))).toEqual(
      [],
    );
    await page.getByLabel('Highlight heading').fill('Baked today');
    await page.getByLabel('Highlight text').fill('Eggless on request');
    await page.getByLabel('Price (₹)').fill('777');
    await page.getByLabel('Size or Weight').fill('1 kg');
    await page.locator('#pf-images').setInputFiles([
      { name: 'first.png', mimeType: 'image/png', buffer: await png('#d94f70') },
      { name: 'second.png', mimeType: 'image/png', buffer: await png('#4f8fd9') },
    ]);
    await page.locator('.admin-images li').nth(1).waitFor();
    // The second picture becomes the main one.
    await page.getByRole('button', { name: 'Move second.png earlier' }).click();
    expect(await page.locator('.admin-images li').first().locator('img').getAttribute('alt')).toContain(
      'second.png',
    );
    await page.getByRole('button', { name: 'Add an option' }).click();
    await page.getByLabel('Option name').fill('Weight');
    await page.getByLabel('Option value').fill('Half kg');
    await page.locator('#pf-variations-0-price').fill('450');

    // Leaving with unsaved changes asks first; staying keeps everything typed.
    await page.locator('#admin-sidebar').getByRole('link', { name: 'Product List' }).click();
    await confirmDialog(page, adminMessages.unsavedChanges, 'cancel');
    expect(page.url()).toContain('/add-product');
    // The browser's Back asks the same, and staying puts the address back.
    await page.evaluate(() => history.back());
    await confirmDialog(page, adminMessages.unsavedChanges, 'cancel');
    await page.waitForFunction(() => location.pathname === '/add-product');
    expect(await page.getByLabel('Title').inputValue()).toBe('E2E Rosewater Cake');
    await axe(page, 'add product');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/product-form-1280.png`, fullPage: true });

    await page.getByRole('button', { name: 'Add Product' }).click();
    await alertText(page, messages.productAdded);
    expect(await page.getByLabel('Title').inputValue()).toBe('');

    const found = await api<{
      items: { productID: number; categories: { categoryName: string }[]; images: unknown[] }[];
    }>('GET', 'admin/products?q=E2E%20Rosewater', undefined, admin.token);
    const made = found.body.data.items[0];
    expect(made?.categories.map((c) => c.categoryName).sort()).toEqual(['E2E Tea Cakes', 'Gifts']);
    expect(made?.images).toHaveLength(2);
    const full = await api<{
      variations: { variationName: string; variationValue: string; price: number }[];
      description: string;
    }>('GET', `GetProductById/${made?.productID}`);
    expect(full.body.data.variations).toEqual([
      expect.objectContaining({ variationName: 'Weight', variationValue: 'Half kg', price: 450 }),
    ]);
    expect(full.body.data.description).not.toContain('script');
  });

  it("a shopper's phone finds the new product by search, with its picture", async () => {
    const ctx = await phoneContext(browser, server.url);
    const p = await ctx.newPage();
    await p.goto('/search?q=Rosewater');
    const card = p.locator('article.card').filter({ hasText: 'E2E Rosewater Cake' });
    await card.waitFor({ timeout: 30_000 });
    const img = card.locator('img').first();
    await expect
      .poll(async () => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).not.toContain('placeholder');
    await ctx.close();
  });

  it('edits the price, then deletes the product after the confirmation', async () => {
    await page.locator('#admin-sidebar').getByRole('link', { name: 'Product List' }).click();
    await page.getByLabel('Search title or ID').fill('E2E Rosewater');
    const row = page.getByRole('row').filter({ hasText: 'E2E Rosewater Cake' });
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    // Categories in id order, comma separated (the spec's column).
    expect(await row.textContent()).toContain('Gifts, E2E Tea Cakes');
    await axe(page, 'product list');
    await row.getByRole('link', { name: 'Edit E2E Rosewater Cake' }).click();
    await page.getByRole('heading', { level: 1, name: /^Edit Product #\d+$/ }).waitFor();
    const id = Number(/(\d+)$/.exec(page.url())?.[1]);
    await page.getByLabel('Price (₹)').fill('799');
    await axe(page, 'edit product');
    await page.getByRole('button', { name: 'Update Product' }).click();
    await alertText(page, messages.productUpdated);
    expect((await api<{ price: number }>('GET', `GetProductById/${id}`)).body.data.price).toBe(799);

    await page.locator('#admin-sidebar').getByRole('link', { name: 'Product List' }).click();
    await page.getByLabel('Search title or ID').fill('E2E Rosewater');
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete E2E Rosewater Cake' }).click();
    await confirmDialog(page, messages.productDeleteConfirm, 'confirm');
    await alertText(page, messages.productDeleted);
    await page.getByText(messages.noProductsFound).waitFor();
    expect((await api('GET', `GetProductById/${id}`)).status).toBe(404);
  });

  it("moves the shopper's order to out for delivery, and the shopper sees it", async () => {
    await page.locator('#admin-sidebar').getByRole('link', { name: 'All User Orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'All User Orders' }).waitFor();
    await page.getByLabel('Order ID, email or phone').fill(String(orderId));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await axe(page, 'all orders');
    for (const step of ['confirmed', 'out for delivery']) {
      await page.getByRole('button', { name: `Move order ${orderId} to ${step}` }).click();
      await confirmDialog(page, adminMessages.statusMoveConfirm(orderId, step), 'confirm');
      await alertText(page, adminMessages.statusMoved(orderId, step));
      await expect.poll(() => page.getByTestId(`status-${orderId}`).textContent()).toBe(step);
    }
    const history = await api<{ orderID: number; status: string }[]>(
      'GET',
      `GetOrderHistoryByEmail?email=${encodeURIComponent(shopper.email)}`,
      undefined,
      shopper.token,
    );
    expect(history.body.data.find((r) => r.orderID === orderId)?.status).toBe('out for delivery');

    // My Orders is the accounts issue's screen: asserted when it shows the order's status.
    const ctx = await phoneContext(browser, server.url);
    const p = await ctx.newPage();
    await signIn(p, shopper);
    await p.goto('/my-orders');
    const shown = await p
      .getByText(/out for delivery/i)
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if ((await p.locator('main').textContent())?.includes(String(orderId))) expect(shown).toBe(true);
    await ctx.close();

    await page.getByRole('link', { name: `Order ${orderId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Order #${orderId}` }).waitFor();
    const timeline = page.locator('.admin-timeline li');
    await expect.poll(() => timeline.count()).toBe(3);
    expect(await timeline.nth(2).textContent()).toContain(`by ${server.adminEmail}`);
    await page.getByText('Packing slip: order').waitFor();
    await axe(page, 'order page');
  });

  it('says each screen needs a connection when offline, keeping the layout', async () => {
    await laptop.setOffline(true);
    try {
      await page.locator('#admin-sidebar').getByRole('link', { name: 'Dashboard' }).click();
      await page.getByText(adminMessages.needsConnection).waitFor();
      await page.locator('#admin-sidebar').getByRole('link', { name: 'Add Product' }).click();
      await page.getByText(adminMessages.needsConnection).waitFor();
      expect(await page.locator('.admin-top').isVisible()).toBe(true);
      expect(await page.getByPlaceholder('Search here...').isVisible()).toBe(true);
      await axe(page, 'offline screen');
    } finally {
      await laptop.setOffline(false);
    }
    await page.getByRole('heading', { level: 1, name: 'Add Product' }).waitFor();
    await page.getByLabel('Title').waitFor();
  });

  it('opens the sidebar as a drawer on a phone, and closes it on navigation', async () => {
    const ctx = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 412, height: 823 },
      isMobile: true,
      hasTouch: true,
    });
    const p = await ctx.newPage();
    await signIn(p, admin);
    await p.goto('/dashboard');
    await p.getByTestId('products').waitFor();
    const side = p.locator('#admin-sidebar');
    const left = () => side.evaluate((el) => el.getBoundingClientRect().right);
    expect(await left()).toBeLessThanOrEqual(0);
    await p.getByRole('button', { name: 'Show menu' }).click();
    await expect.poll(left, { timeout: 2000 }).toBeGreaterThan(200);
    await axe(p, 'phone drawer');
    await side.getByRole('link', { name: 'All User Orders' }).click();
    await p.getByRole('heading', { level: 1, name: 'All User Orders' }).waitFor();
    await expect.poll(left, { timeout: 2000 }).toBeLessThanOrEqual(0);

    // The wide tables read as cards on a phone: nothing scrolls sideways, each value has its label.
    const sideways = () =>
      p.evaluate(() =>
        [document.documentElement, ...document.querySelectorAll('.admin-table-wrap')].some(
          (el) => el.scrollWidth > el.clientWidth + 1,
        ),
      );
    await p.locator('.admin-orders tbody tr td[data-label="Order ID"]').first().waitFor();
    expect(await sideways()).toBe(false);
    await axe(p, 'orders on a phone');
    await p.goto('/product-list');
    await p.locator('.admin-products tbody tr td[data-label="Title"]').first().waitFor();
    expect(await sideways()).toBe(false);
    const card = p.locator('.admin-products tbody tr').first();
    expect(
      await card.locator('td[data-label="Price"]').evaluate((td) => getComputedStyle(td, '::before').content),
    ).toBe('"Price"');
    await axe(p, 'products on a phone');
    await ctx.close();
  });
});
