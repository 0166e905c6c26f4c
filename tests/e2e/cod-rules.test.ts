import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { codMessages } from '../../domain/cod-rules.js';
import { formatRupees } from '../../domain/money.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import { settingMessages } from '../../domain/settings.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop, signedInContext } from '../support/shop.js';
import {
  cartLine,
  fillAddress,
  MOHALI_CHARGE,
  ordersOf,
  outboxRows,
  putRows,
  rowsOf,
  writeSession,
} from '../support/shopper.js';

/**
 * Cash on Delivery a bakery can afford, in real Chromium against the real server (TEST_PAYMENTS on,
 * as every browser test's shop): the owner lowers the limit on Shop settings, a phone's checkout
 * over it shows Cash on Delivery off with the reason; a Cash on Delivery order queued offline above
 * a limit lowered while the phone was away waits with the server's reason, is paid online from its
 * row through the test provider (the same order under its own key) and arrives once. Screenshots in /tmp/shots/cod-rules.
 */
const SHOTS = '/tmp/shots/cod-rules';
const email = `cod-${Date.now()}@example.test`;
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let product: FeedProduct;

const setRules = async (payload: object) => {
  const res = await fetch(`${server.url}/api/admin/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${shop.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  expect(res.status).toBe(200);
};
/** The owner changes the limit on Settings → Shop settings, on a laptop; the page stays open. */
async function lowerLimitOnScreen(from: string, to: string) {
  const laptop = await signedInContext(shop, shop.admin, { width: 1280, height: 800 });
  const p = await laptop.newPage();
  await p.goto('/shop-settings');
  const limit = p.getByLabel('Cash on Delivery up to (₹)');
  expect(await limit.inputValue()).toBe(from);
  await limit.fill(to);
  await p.getByRole('button', { name: 'Save settings' }).click();
  await p.locator('.alerts').getByText(settingMessages.saved).waitFor();
  return { laptop, p };
}
const codChoice = () => page.getByRole('radio', { name: /Cash on Delivery/ });
const codHint = async () =>
  page.locator(`[id="${await codChoice().getAttribute('aria-describedby')}"]`).textContent();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ admin: true, shoppers: [email], phone: true });
  ({
    server,
    phone: { context, page },
  } = shop);
  await writeSession(page, shop.shopper);
  // A product whose order is above ₹500 with Mohali's delivery charge.
  product = forSale((await shop.feed()).products).find((p) => p.price + MOHALI_CHARGE > 500) as FeedProduct;
});
afterAll(() => shop?.close());

describe("the owner's Cash on Delivery rules", () => {
  it('the owner lowers the limit on Shop settings, and the checkout says Cash on Delivery is off and why', async () => {
    const { laptop, p } = await lowerLimitOnScreen('10000', '500');
    const payments = p.getByRole('group', { name: 'Payments' });
    expect(await payments.getByLabel('A cake with a message or a photo').inputValue()).toBe('any');
    await axe(p, 'Shop settings');
    // Below the admin's sticky bar: the section's heading in sight.
    await payments.evaluate((el) => {
      el.scrollIntoView();
      window.scrollBy(0, -90);
    });
    await p.screenshot({ path: `${SHOTS}/shop-settings-payments-1280.png` });
    await laptop.close();

    await putRows(page, 'cart', [cartLine(product, Date.now())]);
    await page.goto('/checkout');
    // The phone's next sync brings the rule with the catalogue feed's settings.
    await expect.poll(() => codChoice().isDisabled(), { timeout: 30_000 }).toBe(true);
    expect(await codHint()).toBe(codMessages.limit(500));
    expect(await page.getByRole('radio', { name: /Pay online/ }).isChecked()).toBe(true);
    await axe(page, 'checkout over the limit');
    await page.screenshot({ path: `${SHOTS}/checkout-cod-off-412.png`, fullPage: true });
  });

  it('a Cash on Delivery order queued offline above a limit lowered meanwhile waits with the reason, is paid online and arrives once', async () => {
    await setRules({ codLimit: 10_000 });
    await page.goto('/checkout');
    await expect.poll(() => codChoice().isEnabled(), { timeout: 30_000 }).toBe(true);
    await fillAddress(page);
    await codChoice().check();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: t.successQueuedTitle }).waitFor();

    // The owner lowers the limit on Shop settings while the phone is away.
    await (await lowerLimitOnScreen('10000', '500')).laptop.close();
    await context.setOffline(false);
    await page.getByRole('heading', { name: t.codTitle }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(codMessages.limit(500)).count()).toBeGreaterThan(0);
    expect((await ordersOf(server, email)).size).toBe(0);
    await axe(page, 'a queued order the rules refuse');
    await page.screenshot({ path: `${SHOTS}/queued-cod-refused-412.png`, fullPage: true });

    const [queued] = await outboxRows(page);
    expect(queued?.state).toBe('attention');

    // Paid online from the row itself: the same order, under the same key, never through the cart.
    await page.getByRole('button', { name: t.codPayOnline }).click();
    const total = product.price + MOHALI_CHARGE;
    const pay = page.getByRole('button', { name: t.payButton(formatRupees(total)) });
    await pay.waitFor();
    await axe(page, 'paying online for a queued order');
    await page.screenshot({ path: `${SHOTS}/queued-cod-pay-online-412.png` });
    await pay.click();
    await page.getByRole('heading', { name: t.successTitle }).waitFor({ timeout: 20_000 });
    const rows = await outboxRows(page);
    expect(rows.map((r) => [r.key, r.state, r.request.PaymentMethod])).toEqual([
      [queued?.key, 'sent', PAYMENT_METHODS.online],
    ]);
    const orders = await ordersOf(server, email);
    expect([...orders.entries()]).toEqual([[rows[0]?.placed?.orderID, total]]);
    // Nothing went back to the cart, and no payment is left in progress.
    expect(await rowsOf(page, 'cart')).toEqual([]);
    expect(await rowsOf(page, 'payments')).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/queued-cod-paid-412.png`, fullPage: true });
  });
});
