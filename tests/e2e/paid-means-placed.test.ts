import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartLine } from '../../domain/cart.js';
import { checkoutMessages, paymentResumeMessages as t } from '../../domain/checkout-messages.js';
import { formatRupees } from '../../domain/money.js';
import { unplacedMessages } from '../../domain/refunds.js';
import type { OutboxRow, PaymentRow } from '../../sw/outbox-row.js';
import { adminToken, type FeedProduct, type RunningServer, waitForController } from '../support/e2e.js';
import { type RazorpayDouble, startRazorpayDouble } from '../support/razorpay-double.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import {
  cartLine,
  MOHALI_CHARGE,
  ordersOf,
  putRows,
  waitForStore,
  writeSession,
} from '../support/shopper.js';
import {
  type CheckoutInPage,
  moneyOf,
  payOnDouble,
  razorpayEnv,
  replaceCheckout,
  rowsOf,
  startOnlinePayment,
} from './razorpay-in-page.js';

/**
 * The phone finds out (issue 39): a shopper pays in the UPI app and Android reclaims the shop's
 * page before Checkout's `handler` runs. The server places the order from the payment's webhooks;
 * the shop, opened again (offline first, then online), shows the order placed and the cart without
 * its lines, without paying twice. A payment never made offers Pay again with the same provider
 * order. Real Chromium, the real server, Razorpay's API as the double, Checkout replaced in the page.
 * Screenshots (412x823) in /tmp/shots-device/.
 */
const SHOTS = '/tmp/shots-device';

let double: RazorpayDouble;
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let checkout: CheckoutInPage;
let products: FeedProduct[];
const email = `paid-device-${Date.now()}@example.test`;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  double = await startRazorpayDouble();
  shop = await openShop({ shoppers: [email], phone: true, env: razorpayEnv(double) });
  ({
    server,
    phone: { context, page },
  } = shop);
  checkout = await replaceCheckout(context);
  await writeSession(page, shop.shopper);
  products = forSale((await shop.feed()).products, 5);
});

afterAll(async () => {
  await shop?.close();
  await double?.close();
});

/** The shop opened again in a fresh tab of the same phone (the old one is gone). */
async function reopen(path = '/home'): Promise<Page> {
  const fresh = await context.newPage();
  await fresh.goto(path);
  await waitForController(fresh);
  await waitForStore(fresh);
  return fresh;
}

const keysOf = async (p: Page) => (await rowsOf<CartLine>(p, 'cart')).map((l) => l.key).sort();

describe('paid means placed, on the phone', () => {
  it('the page dies after the payment, before `handler`: reopened, the order shows placed and its lines left the cart', async () => {
    const [a, b, later] = products as [FeedProduct, FeedProduct, FeedProduct];
    await putRows(page, 'cart', [cartLine(a, Date.now()), cartLine(b, Date.now() + 1)]);
    await startOnlinePayment(page);
    const opened = await checkout.nextOpen();
    const total = a.price + b.price + MOHALI_CHARGE;
    expect(opened.amount).toBe(total * 100);
    // Kept before Checkout opened: the payment in progress, with the lines it pays for.
    const [inProgress] = await rowsOf<PaymentRow>(page, 'payments');
    expect(inProgress?.providerOrder.razorpayOrderId).toBe(opened.orderId);
    expect([...(inProgress?.order.cartKeys ?? [])].sort()).toEqual(
      [cartLine(a, 0).key, cartLine(b, 0).key].sort(),
    );
    // Something added while the shopper is in the UPI app is not paid for and must stay.
    await putRows(page, 'cart', [cartLine(later, Date.now() + 2)]);

    await payOnDouble(double, server, opened.orderId);
    await page.close();
    const orders = await ordersOf(server, email);
    expect([...orders.values()]).toEqual([total]);
    const [orderID] = [...orders.keys()];

    // Opened again without a network: nothing can be learned yet, and it says so, never "failed".
    await context.setOffline(true);
    const phone = await reopen();
    const confirming = phone.getByRole('heading', { name: t.confirmingTitle });
    await confirming.waitFor();
    expect(await phone.getByText(t.confirmingOffline).count()).toBe(1);
    expect((await phone.locator('.pay-resume').innerText()).toLowerCase()).not.toContain('fail');
    await axe(phone, 'payment being confirmed (offline)');
    await phone.screenshot({ path: `${SHOTS}/being-confirmed-offline.png` });
    expect(await keysOf(phone)).toEqual([a, b, later].map((p) => cartLine(p, 0).key).sort());

    // Back online: the server says placed, and the phone stores it as the checkout would have.
    await context.setOffline(false);
    const placed = phone.getByRole('heading', { name: t.placedTitle(orderID ?? 0) });
    await placed.waitFor({ timeout: 20_000 });
    expect(await phone.getByText(t.placed(formatRupees(total))).count()).toBe(1);
    await axe(phone, 'payment placed (online)');
    await phone.screenshot({ path: `${SHOTS}/placed-online.png` });
    expect(await keysOf(phone)).toEqual([cartLine(later, 0).key]);
    expect(await rowsOf(phone, 'payments')).toEqual([]);
    const sent = (await rowsOf<OutboxRow>(phone, 'outbox')).find((r) => r.key === inProgress?.key);
    expect(sent).toMatchObject({ state: 'sent', placed: { orderID, status: 'paid', totalAmount: total } });

    await phone.getByRole('link', { name: t.viewOrder }).click();
    await expect.poll(() => new URL(phone.url()).pathname).toBe('/order-success');
    await phone.getByRole('heading', { name: checkoutMessages.successTitle }).waitFor();
    expect(await phone.getByText(checkoutMessages.orderNumber(orderID ?? 0)).count()).toBeGreaterThan(0);
    expect(await phone.locator('.pay-resume').count()).toBe(0);
    await axe(phone, 'order success of a payment found again');
    await phone.screenshot({ path: `${SHOTS}/order-success.png`, fullPage: true });
    await phone.goto('/my-orders');
    await expect
      .poll(() => phone.getByText(checkoutMessages.orderNumber(orderID ?? 0)).count())
      .toBeGreaterThan(0);

    // One payment, one order, nothing refunded; a later open asks nothing more and changes nothing.
    expect(moneyOf(double, opened.orderId)).toEqual({ taken: total, refunds: 0 });
    await phone.close();
    const again = await reopen('/cart');
    await again.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await again.locator('.pay-resume').count()).toBe(0);
    expect(await keysOf(again)).toEqual([cartLine(later, 0).key]);
    expect([...(await ordersOf(server, email)).values()]).toEqual([total]);
    page = again;
  });

  it('a payment never made: reopened, Pay again opens Checkout with the same provider order, and it is placed once', async () => {
    const [later, c] = products.slice(2) as [FeedProduct, FeedProduct];
    // The line left from the first payment and a new one: the payment is for both.
    await putRows(page, 'cart', [cartLine(c, Date.now())]);
    const total = later.price + c.price + MOHALI_CHARGE;
    const before = new Set((await ordersOf(server, email)).keys());
    await startOnlinePayment(page);
    const first = await checkout.nextOpen();
    const ordersAtDouble = double.orders.size;
    await page.close();

    const phone = await reopen();
    expect(first.amount).toBe(total * 100);
    const payAgain = phone.getByRole('button', { name: t.payAgain(formatRupees(total)) });
    await payAgain.waitFor({ timeout: 20_000 });
    expect(await phone.getByRole('link', { name: t.backToCart }).count()).toBe(1);
    await axe(phone, 'payment not finished');
    await phone.screenshot({ path: `${SHOTS}/pay-again.png` });
    await payAgain.click();
    const second = await checkout.nextOpen();
    // The same provider order: paying it twice is not possible, and no new one was asked for.
    expect(second.orderId).toBe(first.orderId);
    expect(double.orders.size).toBe(ordersAtDouble);
    second.answer(await payOnDouble(double, server, second.orderId));
    await expect.poll(() => new URL(phone.url()).pathname, { timeout: 20_000 }).toBe('/order-success');
    await phone.getByRole('heading', { name: checkoutMessages.successTitle }).waitFor({ timeout: 20_000 });
    const placed = [...(await ordersOf(server, email)).entries()].filter(([id]) => !before.has(id));
    expect(placed.map(([, amount]) => amount)).toEqual([total]);
    expect(moneyOf(double, first.orderId)).toEqual({ taken: total, refunds: 0 });
    expect(await keysOf(phone)).toEqual([]);
    expect(await rowsOf(phone, 'payments')).toEqual([]);
    page = phone;
  });

  it('the page lives, but Checkout closed as if unpaid while the shopper paid in the UPI app: the same page shows the order placed', async () => {
    const c = products[3] as FeedProduct;
    await putRows(page, 'cart', [cartLine(c, Date.now())]);
    const total = c.price + MOHALI_CHARGE;
    const before = new Set((await ordersOf(server, email)).keys());
    await startOnlinePayment(page);
    const opened = await checkout.nextOpen();
    await payOnDouble(double, server, opened.orderId);
    opened.answer(null);
    const placed = [...(await ordersOf(server, email)).entries()].filter(([id]) => !before.has(id));
    expect(placed.map(([, amount]) => amount)).toEqual([total]);
    const orderID = placed[0]?.[0] ?? 0;
    // The page hands the payment to the resume when Checkout closes unpaid: it learns it was placed.
    await page.getByRole('heading', { name: t.placedTitle(orderID) }).waitFor({ timeout: 20_000 });
    await expect.poll(() => keysOf(page)).toEqual([]);
    expect(await rowsOf(page, 'payments')).toEqual([]);
    expect(moneyOf(double, opened.orderId)).toEqual({ taken: total, refunds: 0 });
  });

  it('paid, but the order can no longer be placed (its product deleted meanwhile): refunded in full, and the phone says why', async () => {
    const d = products[4] as FeedProduct;
    await putRows(page, 'cart', [cartLine(d, Date.now())]);
    const before = new Set((await ordersOf(server, email)).keys());
    await startOnlinePayment(page);
    const opened = await checkout.nextOpen();
    const gone = await fetch(`${server.url}/api/DeleteProduct?productID=${d.productID}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await adminToken(server)}` },
    });
    expect(gone.status).toBe(200);
    await payOnDouble(double, server, opened.orderId);
    await page.close();

    const phone = await reopen();
    await phone.getByRole('heading', { name: t.refundedTitle }).waitFor({ timeout: 20_000 });
    const said = await phone.locator('.pay-resume').innerText();
    expect(said).toContain(unplacedMessages.reason('').split(':')[0] ?? '');
    expect(said).toContain('The full amount is being refunded.');
    await axe(phone, 'payment refunded');
    await phone.screenshot({ path: `${SHOTS}/refunded.png` });
    expect(await rowsOf(phone, 'payments')).toEqual([]);
    // Its line stays in the cart: nothing was bought.
    expect(await keysOf(phone)).toContain(cartLine(d, 0).key);
    expect((await rowsOf<OutboxRow>(phone, 'outbox')).map((r) => r.request.RazorpayOrderId)).not.toContain(
      opened.orderId,
    );
    // No order, and the money went back in full.
    expect([...(await ordersOf(server, email)).keys()].filter((id) => !before.has(id))).toEqual([]);
    expect(moneyOf(double, opened.orderId).refunds).toBe(1);
    expect([...double.refunds.values()].find((r) => r.amount === opened.amount)).toBeTruthy();
    await phone.getByRole('button', { name: t.close }).click();
    expect(await phone.locator('.pay-resume').count()).toBe(0);
  });

  it('one cart is paid once: the page dies in Checkout, its lines are paid from Checkout again; Pay again is never offered, and the old provider order is closed', async () => {
    const [e, f] = products.slice(0, 2) as [FeedProduct, FeedProduct];
    page = await reopen('/cart');
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('storefront');
          open.onsuccess = () => {
            const req = open.result.transaction('cart', 'readwrite').objectStore('cart').clear();
            req.onsuccess = () => resolve();
            req.onerror = () => reject(req.error);
          };
        }),
    );
    await putRows(page, 'cart', [cartLine(e, Date.now())]);
    const before = new Set((await ordersOf(server, email)).keys());
    await startOnlinePayment(page);
    const first = await checkout.nextOpen();
    const [abandoned] = await rowsOf<PaymentRow>(page, 'payments');
    await page.close();

    // Back in the shop, the notice offers to pay; the shopper adds a line and pays from Checkout instead.
    const phone = await reopen('/cart');
    const firstTotal = e.price + MOHALI_CHARGE;
    await phone
      .getByRole('button', { name: t.payAgain(formatRupees(firstTotal)) })
      .waitFor({ timeout: 20_000 });
    await putRows(phone, 'cart', [cartLine(f, Date.now())]);
    await startOnlinePayment(phone);
    const second = await checkout.nextOpen();
    expect(second.orderId).not.toBe(first.orderId);
    second.answer(await payOnDouble(double, server, second.orderId));
    await expect.poll(() => new URL(phone.url()).pathname, { timeout: 20_000 }).toBe('/order-success');
    await phone.getByRole('heading', { name: checkoutMessages.successTitle }).waitFor({ timeout: 20_000 });
    // Never offered on the success page of the order that bought its lines, and gone from the phone.
    expect(await phone.locator('.pay-resume').count()).toBe(0);
    await expect.poll(() => rowsOf(phone, 'payments'), { timeout: 20_000 }).toEqual([]);
    expect(await phone.getByRole('button', { name: t.payAgain(formatRupees(firstTotal)) }).count()).toBe(0);
    await axe(phone, 'order success after an abandoned payment');
    await phone.screenshot({ path: `${SHOTS}/one-cart-paid-once.png`, fullPage: true });
    // Its provider order is closed on the server: a stale Pay again elsewhere is refunded in full.
    const asked = await fetch(`${server.url}/api/payments/attempts/${abandoned?.key}`, {
      headers: { authorization: `Bearer ${shop.shopper.token}` },
    });
    expect(((await asked.json()) as { data: { state: string } }).data.state).toBe('closed');
    await payOnDouble(double, server, first.orderId);
    expect(moneyOf(double, first.orderId)).toEqual({ taken: firstTotal, refunds: 1 });
    const placed = [...(await ordersOf(server, email)).entries()].filter(([id]) => !before.has(id));
    expect(placed.map(([, amount]) => amount)).toEqual([e.price + f.price + MOHALI_CHARGE]);
    page = phone;
  });
});
