import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { noResultsMessages } from '../../domain/search-nearest.js';
import {
  deviceCounts,
  type FeedProduct,
  phoneContext,
  type RunningServer,
  setPrice,
  waitForController,
} from '../support/e2e.js';
import { axe, openShop, type Shop } from '../support/shop.js';

/**
 * The shopper's day with a bad connection, in real Chromium on a phone-sized
 * screen against the real server: one visit online, then with the network cut
 * every screen still works from the device (home, a category, a product by its
 * URL, search, the cart with quantities, a reload), and once back online a
 * price the admin changed shows up on the open page without a reload.
 * Set E2E_SCREENSHOTS=<folder> to keep screenshots of each screen.
 */
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let token: string;
let product: FeedProduct;
const shots = process.env.E2E_SCREENSHOTS;
const SEARCH_SHOTS = '/tmp/shots/search-words';

async function shot(name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

beforeAll(async () => {
  shop = await openShop({ admin: true });
  server = shop.server;
  token = shop.admin.token;
  const feed = await shop.feed();
  // A product whose title has a searchable word and that belongs to a category.
  const found = feed.products.find((p) => p.categories.length > 0 && /[a-z]{4,}/i.test(p.title));
  if (!found) throw new Error('The catalogue has no product to shop for');
  product = found;
  mkdirSync(SEARCH_SHOTS, { recursive: true });
  context = await phoneContext(shop.browser, server.url);
  page = await context.newPage();
});

afterAll(() => shop?.close());

const cards = () => page.locator('article.card');

describe('shopping offline in Chromium', () => {
  it('first visit online leaves the whole catalogue on the device', async () => {
    const feed = await shop.feed();
    await page.goto('/');
    await expect.poll(() => page.url()).toMatch(/\/home$/);
    await waitForController(page);
    await expect
      .poll(async () => (await deviceCounts(page)).products, { timeout: 60_000, interval: 250 })
      .toBe(feed.products.length);
    await page.getByText(/Catalogue synced/).waitFor();
    await cards().first().waitFor();
    await shot('home-online');
  });

  it('offline: home, a category, a product by its URL and search all show from the device', async () => {
    await context.setOffline(true);
    await page.reload();
    await page.getByText('You are offline', { exact: false }).waitFor();
    await cards().first().waitFor();
    expect(await cards().count()).toBeGreaterThan(0);
    await shot('home-offline');

    const category = product.categories[0]?.categoryName ?? '';
    await page.goto(`/products-by-category/${encodeURIComponent(category)}`);
    await page.getByRole('heading', { level: 1, name: category }).waitFor();
    await cards().filter({ hasText: product.title }).first().waitFor();

    await page.goto(`/products-details/${product.productID}`);
    await page.getByRole('heading', { level: 1, name: product.title }).waitFor();
    await page.locator('.details__price').getByText(formatRupees(product.price)).waitFor();
    await shot('product-offline');

    const word = (product.title.match(/[a-z]{4,}/i)?.[0] ?? product.title).toLowerCase();
    await page.getByLabel('Search products').fill(`  ${word} `);
    await page.getByLabel('Search products').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(word);
    await page.getByRole('heading', { level: 1, name: messages.searchResultsFor(word) }).waitFor();
    await cards().filter({ hasText: product.title }).first().waitFor();
    expect(await page.getByLabel('Search products').inputValue()).toBe('');
    await shot('search-offline');

    await page.goto('/search?q=zzzz-no-such-thing');
    await page.getByText(messages.noResultsFound).waitFor();
  });

  it('offline: a short form finds the birthday cakes, and a search with no match offers occasions and categories', async () => {
    // The server's answer (the same rule, the same default words) is what the phone must show.
    const answer = await fetch(`${server.url}/api/search?q=bday`);
    const birthday = ((await answer.json()) as { data: Product[] }).data;
    expect(birthday.length).toBeGreaterThan(1);
    expect(birthday.every((p) => p.occasions?.includes('Birthday') || /birthday/i.test(p.description))).toBe(
      true,
    );
    await page.goto('/search?q=bday');
    await page.getByText(`${birthday.length} products`).waitFor();
    expect(await cards().first().locator('h2, h3').first().textContent()).toBe(birthday[0]?.title);
    await axe(page, 'search by a short form, offline');
    await page.screenshot({ path: `${SEARCH_SHOTS}/short-form-offline-412.png` });

    await page.goto('/search?q=brthdy%20caek%20zzz');
    await page.getByText(messages.noResultsFound).waitFor();
    const occasions = page.getByRole('region', { name: noResultsMessages.occasions });
    await occasions.getByRole('link', { name: 'Birthday' }).waitFor();
    const categories = page.getByRole('region', { name: noResultsMessages.categories });
    expect(await categories.getByRole('link').count()).toBeGreaterThan(0);
    expect(
      await page.getByRole('region', { name: noResultsMessages.products }).locator('article.card').count(),
    ).toBe(4);
    await axe(page, 'a search with no match, offline');
    await page.screenshot({ path: `${SEARCH_SHOTS}/no-results-offline-412.png`, fullPage: true });
    // An offered occasion leads to its products, offline too.
    await occasions.getByRole('link', { name: 'Birthday' }).click();
    await page.getByRole('heading', { level: 1, name: messages.searchResultsFor('Birthday') }).waitFor();
    await cards().first().waitFor();
  });

  it('offline: add to cart, change quantities, reload, and the cart is all there', async () => {
    await page.goto(`/products-details/${product.productID}`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await page.getByText(messages.addedToCart(product.title)).first().waitFor();

    await page.goto('/cart');
    await page.getByText(product.title).first().waitFor();
    const increase = page.getByRole('button', { name: `Increase quantity of ${product.title}` });
    await increase.click();
    await increase.click();
    await page.getByText(`× 3 = ${formatRupees(product.price * 3)}`).waitFor();
    await page.getByRole('button', { name: `Decrease quantity of ${product.title}` }).click();
    await page.getByText(`× 2 = ${formatRupees(product.price * 2)}`).waitFor();
    await page
      .locator('.cart-page__total')
      .getByText(formatRupees(product.price * 2))
      .waitFor();
    await shot('cart-offline');

    await page.reload();
    await page.getByText('You are offline', { exact: false }).waitFor();
    await page.getByText(`× 2 = ${formatRupees(product.price * 2)}`).waitFor();
    await page
      .locator('.cart-page__total')
      .getByText(formatRupees(product.price * 2))
      .waitFor();
    const mirror = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
    expect(mirror).toEqual([
      expect.objectContaining({ productID: product.productID, quantity: 2, price: product.price }),
    ]);

    // A second tab sees the same cart.
    const other = await context.newPage();
    await other.goto('/cart');
    await other.getByText(`× 2 = ${formatRupees(product.price * 2)}`).waitFor();
    await other.close();
  });

  it('back online: the admin’s new price appears on the open product page without a reload', async () => {
    await page.goto(`/products-details/${product.productID}`);
    await page.getByRole('heading', { level: 1, name: product.title }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    const newPrice = product.price + 125;
    await setPrice(server, token, product.productID, newPrice);
    await context.setOffline(false);
    await page.locator('.details__price').getByText(formatRupees(newPrice)).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(await page.getByText('You are offline', { exact: false }).count()).toBe(0);
    await shot('product-online-new-price');
  });
});
