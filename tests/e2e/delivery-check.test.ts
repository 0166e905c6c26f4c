/**
 * "Check delivery" in real Chromium against the real server, on a logged-out shopper's phone
 * (412x823): the product page answers a pincode of the shop's areas with its city, charge and day,
 * and refuses one outside them with the areas it does deliver to; the pincode checked shows in the
 * header, stays after a reload and offline, and the box answers offline from the device alone. The
 * header's chip changes the pincode, and the product page's answer follows. Screenshots in
 * /tmp/shots/delivery-check (`DELIVERY_SHOTS` to change).
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedProduct } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';

const SHOTS = process.env.DELIVERY_SHOTS ?? '/tmp/shots/delivery-check';

let shop: Shop;
let context: BrowserContext;
let page: Page;
let product: FeedProduct;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ phone: true });
  ({ context, page } = shop.phone);
  const [first] = forSale((await shop.feed()).products.filter((p) => !p.photoCake));
  if (!first) throw new Error('The demo catalogue has no product for sale that is not a photo cake.');
  product = first;
});

afterAll(() => shop?.close());

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const box = () => page.getByRole('region', { name: 'Check delivery' });
const answer = (where: Locator) => where.getByRole('status');
const chip = () =>
  page.getByRole('banner').getByRole('button', { name: /^(Delivering to \d{6}|Check delivery)$/ });

async function check(where: Locator, pincode: string): Promise<void> {
  await where.getByLabel('Pincode').fill(pincode);
  await where.getByRole('button', { name: 'Check' }).click();
}

describe('check delivery by pincode, logged out', () => {
  it('the product page answers 160062 with its city and charge, and the header shows it', async () => {
    await page.goto(`/products-details/${product.productID}`);
    await box().waitFor();
    // Nothing saved yet: the chip invites a pincode, and the box waits for one.
    expect(await chip().textContent()).toBe('Check delivery');
    expect(await box().getByLabel('Pincode').inputValue()).toBe('');

    await check(box(), '160062');
    await answer(box())
      .getByText(/^Delivers to Mohali \(160062\) · .+ · ₹150/)
      .waitFor();
    await chip().getByText('160062').waitFor();
    expect(await chip().getAttribute('aria-expanded')).toBe('false');
    expect(await chip().textContent()).toBe('Delivering to 160062');
    await axe(page, 'product page, a pincode delivered to');
    await box().scrollIntoViewIfNeeded();
    await shot('product-delivers');
  });

  it('refuses 110001 with the areas it does deliver to, and keeps 160062 as the saved pincode', async () => {
    await check(box(), '110001');
    const said = answer(box());
    await said.getByText("We don't deliver to 110001 yet.").waitFor();
    await said.getByText(/^Same-day delivery in Chandigarh, .*Mohali.*, ₹150-₹300\.$/).waitFor();
    await said.getByRole('listitem').filter({ hasText: 'Panchkula' }).getByText('₹300').waitFor();
    // An outside pincode is answered, not saved: the header does not promise it.
    expect(await chip().textContent()).toBe('Delivering to 160062');
    await axe(page, 'product page, a pincode outside the areas');
    await said.getByRole('list').scrollIntoViewIfNeeded();
    await shot('product-outside');

    // Not a pincode at all: said at the box, the field marked.
    await check(box(), '01234');
    await answer(box()).getByText('A pincode is 6 digits and does not start with 0.').waitFor();
    expect(await box().getByLabel('Pincode').getAttribute('aria-invalid')).toBe('true');
  });

  it('keeps the pincode after a reload and offline, and the box answers from the device', async () => {
    await page.reload();
    await chip().getByText('160062').waitFor();
    // The box starts from the saved pincode and answers at once.
    expect(await box().getByLabel('Pincode').inputValue()).toBe('160062');
    await answer(box())
      .getByText(/^Delivers to Mohali \(160062\)/)
      .waitFor();

    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByText('You are offline', { exact: false }).waitFor();
      await chip().getByText('160062').waitFor();
      await answer(box())
        .getByText(/^Delivers to Mohali \(160062\) · .+ · ₹150/)
        .waitFor();
      await check(box(), '110001');
      await answer(box()).getByText("We don't deliver to 110001 yet.").waitFor();
      await check(box(), '134109');
      await answer(box())
        .getByText(/^Delivers to Panchkula \(134109\) · .+ · ₹300/)
        .waitFor();
      await chip().getByText('134109').waitFor();
      await axe(page, 'product page offline');
      await shot('product-offline');
    } finally {
      await context.setOffline(false);
    }
  });

  it("the header's chip changes the pincode, and the product page's answer follows", async () => {
    await chip().click();
    const popover = page.getByRole('region', { name: 'Where should we deliver?' });
    await popover.waitFor();
    // Opened to type: the field has the focus and the saved pincode.
    expect(await popover.getByLabel('Pincode').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await popover.getByLabel('Pincode').inputValue()).toBe('134109');
    await check(popover, '140301');
    await answer(popover)
      .getByText(/^Delivers to Kharar \(140301\) · .+ · ₹200/)
      .waitFor();
    await chip().getByText('140301').waitFor();
    await axe(page, 'the pincode popover');
    await shot('header-popover');

    // Escape closes it and gives the focus back to the chip.
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await chip().evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await chip().getAttribute('aria-expanded')).toBe('false');
    // The product page's box followed the header.
    expect(await box().getByLabel('Pincode').inputValue()).toBe('140301');
    await answer(box())
      .getByText(/^Delivers to Kharar \(140301\)/)
      .waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('header-chip');

    // Keyboard only: the chip opens the popover with Enter, and a tap outside closes it.
    await chip().focus();
    await page.keyboard.press('Enter');
    await popover.waitFor();
    await page.mouse.click(200, 700);
    await popover.waitFor({ state: 'detached' });
  });
});
