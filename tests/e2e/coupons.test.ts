import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { couponDiscount } from '../../domain/coupon-terms.js';
import { couponMessages } from '../../domain/coupons.js';
import { formatRupees } from '../../domain/money.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop, signedInContext } from '../support/shop.js';
import { cartLine, fillAddress, MOHALI_CHARGE, ordersOf, putRows, writeSession } from '../support/shopper.js';

/**
 * Coupons the owner runs, in real Chromium against the real server: the owner makes a percentage
 * coupon with a minimum on the Coupons screen (1280 px, and looked at on a phone too) and advertises
 * it; the shopper's phone shows the banner; a basket under the minimum is told why; a basket over it
 * gets the discount, online and queued offline (its likely effect from the phone's terms, decided
 * by the server when sent); the owner ends it and the banner goes. Screenshots in /tmp/shots/coupons.
 */
const SHOTS = '/tmp/shots/coupons';
const CODE = 'DIWALI10';
const MIN = 999;
const OFF = { kind: 'percent', percent: 10, cap: 300 } as const;
const email = `coupons-${Date.now()}@example.test`;
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let laptop: BrowserContext;
let owner: Page;
let product: FeedProduct;

const banner = () => page.locator('.offers');
const alerts = (p: Page) => p.locator('.alerts');
/** The phone's catalogue sync brings settings; a reload of the product page asks for them at once. */
async function bannerText(): Promise<string> {
  await page.goto(`/products-details/${product.productID}`);
  await page.getByRole('heading', { name: product.title, level: 1 }).waitFor();
  // The banner comes from the device's settings, read a moment after the product.
  const shown = await banner()
    .waitFor({ timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (!shown) return '';
  await page.getByText('Offers').click();
  return banner().innerText();
}
async function checkoutWith(quantity: number) {
  await putRows(page, 'cart', [{ ...cartLine(product, Date.now()), quantity }]);
  await page.goto('/checkout');
  await fillAddress(page);
}
async function applyCoupon(code: string) {
  await page.getByPlaceholder(t.couponLabel).fill(code);
  await page.getByRole('button', { name: t.couponApply }).click();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ admin: true, shoppers: [email], phone: true });
  ({
    server,
    phone: { context, page },
  } = shop);
  await writeSession(page, shop.shopper);
  // One is under the minimum, two are over it.
  product = forSale((await shop.feed()).products).find(
    (p) => p.price < MIN && p.price * 2 >= MIN,
  ) as FeedProduct;
  laptop = await signedInContext(shop, shop.admin, { width: 1280, height: 800 });
  owner = await laptop.newPage();
});
afterAll(() => shop?.close());

describe('coupons the owner runs', () => {
  it('the owner makes a percentage coupon with a minimum on the Coupons screen and advertises it', async () => {
    await owner.goto('/coupons');
    await owner.getByRole('button', { name: 'New coupon' }).click();
    await owner.getByLabel('Code').fill(CODE.toLowerCase());
    await owner.getByLabel('A percentage').check();
    await owner.getByLabel('Percentage off').fill(String(OFF.percent));
    await owner.getByLabel('Up to (₹)').fill(String(OFF.cap));
    await owner.getByLabel('Minimum order, items (₹)').fill(String(MIN));
    await owner.getByLabel('Uses per account').fill('2');
    // A percentage over 100 is stopped at its field, and nothing is sent.
    await owner.getByLabel('Percentage off').fill('150');
    await owner.getByRole('button', { name: 'Create coupon' }).click();
    expect(await owner.getByLabel('Percentage off').getAttribute('aria-invalid')).toBe('true');
    await owner.getByLabel('Percentage off').fill(String(OFF.percent));
    await axe(owner, 'the coupon form');
    await owner.screenshot({ path: `${SHOTS}/coupon-form-1280.png`, fullPage: true });
    await owner.getByRole('button', { name: 'Create coupon' }).click();
    const row = owner.getByRole('row', { name: new RegExp(CODE) });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/10% up to ₹300[\s\S]*items from ₹999[\s\S]*Live/);
    await axe(owner, 'the Coupons screen');
    await owner.screenshot({ path: `${SHOTS}/coupons-1280.png`, fullPage: true });

    // The same screen on the owner's phone, between deliveries.
    const small = await signedInContext(shop, shop.admin, { width: 412, height: 823 });
    const p = await small.newPage();
    await p.goto('/coupons');
    await p.getByRole('row', { name: new RegExp(CODE) }).waitFor();
    await axe(p, 'the Coupons screen on a phone');
    await p.screenshot({ path: `${SHOTS}/coupons-412.png`, fullPage: true });
    await small.close();

    await owner.goto('/shop-settings');
    await owner.getByLabel('Advertised coupon').selectOption({ value: CODE });
    await owner.getByRole('button', { name: 'Save offer' }).click();
    await alerts(owner).getByText(`Product pages now advertise ${CODE}.`).waitFor();
  });

  it("the shopper's phone shows the banner in the coupon's own words", async () => {
    await expect
      .poll(bannerText, { timeout: 30_000 })
      .toContain('10% (up to ₹300) off your order of ₹999 or more');
    expect(await page.locator('.offers__code').innerText()).toBe(CODE);
    await axe(page, 'the product page with the offer');
    await page.screenshot({ path: `${SHOTS}/banner-412.png` });
  });

  it('a basket under the minimum is told why; one over it gets 10% off and the order carries it', async () => {
    await checkoutWith(1);
    await applyCoupon(CODE);
    await alerts(page).getByText(couponMessages.minimum(CODE, MIN)).waitFor();
    await page.screenshot({ path: `${SHOTS}/under-minimum-412.png` });

    await checkoutWith(2);
    const discount = couponDiscount(OFF, product.price * 2);
    await applyCoupon(CODE);
    const said = couponMessages.applied(OFF, discount);
    await page.locator('.co-coupon-applied').getByText(said).waitFor();
    await axe(page, 'the checkout with a percentage coupon');
    await page.screenshot({ path: `${SHOTS}/checkout-discount-412.png`, fullPage: true });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: t.successTitle }).waitFor({ timeout: 20_000 });
    const orders = await ordersOf(server, email);
    expect([...orders.values()]).toEqual([product.price * 2 + MOHALI_CHARGE - discount]);
  });

  it('offline, the phone gives the likely effect from its terms, and the server decides when the order is sent', async () => {
    await checkoutWith(2);
    await context.setOffline(true);
    const discount = couponDiscount(OFF, product.price * 2);
    await applyCoupon(CODE.toLowerCase());
    await page.locator('.co-coupon-applied').getByText(couponMessages.likely(CODE, discount)).waitFor();
    await axe(page, 'the checkout offline with a likely coupon');
    await page.screenshot({ path: `${SHOTS}/checkout-offline-likely-412.png`, fullPage: true });
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: t.successQueuedTitle }).waitFor();
    await context.setOffline(false);
    await page.getByRole('heading', { name: t.successTitle }).waitFor({ timeout: 30_000 });
    const totals = [...(await ordersOf(server, email)).values()];
    expect(totals).toEqual([
      product.price * 2 + MOHALI_CHARGE - discount,
      product.price * 2 + MOHALI_CHARGE - discount,
    ]);
  });

  it('the owner ends it while an order with it waits offline: the order waits with the new total, never silently; the banner goes', async () => {
    await checkoutWith(2);
    await context.setOffline(true);
    await applyCoupon(CODE);
    await page.locator('.co-coupon-applied').waitFor();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: t.successQueuedTitle }).waitFor();

    await owner.goto('/coupons');
    await owner.getByRole('button', { name: `End ${CODE} now` }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'End now' }).click();
    await alerts(owner).getByText(`${CODE} has ended: shoppers can no longer use it.`).waitFor();
    const row = owner.getByRole('row', { name: new RegExp(CODE) });
    await expect.poll(() => row.innerText()).toMatch(/Ended/);
    // Its uses and the rupees it took off stay with it.
    const discount = couponDiscount(OFF, product.price * 2);
    expect(await row.innerText()).toContain(formatRupees(discount * 2));
    await axe(owner, 'the Coupons screen with an ended coupon');
    await owner.screenshot({ path: `${SHOTS}/coupon-ended-1280.png`, fullPage: true });

    await context.setOffline(false);
    await page.getByRole('heading', { name: t.repricedTitle }).waitFor({ timeout: 30_000 });
    const full = product.price * 2 + MOHALI_CHARGE;
    await page.getByText(/ended on \d+ [A-Z][a-z]{2}, so the coupon no longer applies\./).waitFor();
    await axe(page, 'a queued order whose coupon ended');
    await page.screenshot({ path: `${SHOTS}/queued-coupon-ended-412.png`, fullPage: true });
    expect((await ordersOf(server, email)).size).toBe(2);
    await page.getByRole('button', { name: t.confirmNew(formatRupees(full)) }).click();
    await page.getByRole('heading', { name: t.successTitle }).waitFor({ timeout: 30_000 });
    expect([...(await ordersOf(server, email)).values()]).toContain(full);

    await expect.poll(bannerText, { timeout: 30_000 }).toBe('');
  });
});
