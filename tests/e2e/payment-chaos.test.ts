import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../domain/admin-dashboard.js';
import { RAZORPAY_CHECKOUT_SCRIPT } from '../../domain/browser-origins.js';
import type { CartLine } from '../../domain/cart.js';
import { checkoutMessages, paymentResumeMessages as t } from '../../domain/checkout-messages.js';
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
  postWebhooks,
  razorpayEnv,
  replaceCheckout,
  rowsOf,
  startOnlinePayment,
} from './razorpay-in-page.js';

/**
 * Chaos on the phone (issue 39): the page is killed at every step of an online payment, and the
 * shop opened again in a fresh tab. Each run must end with exactly one paid order on the server,
 * or no order and no money taken (the Razorpay double's payments and refunds, the server's orders).
 * (a) before Checkout opens: the provider order exists, Checkout's script never arrives;
 * (b) after the payment, before `handler`: the webhooks reach the server, the page does not;
 * (c) after `handler`, before `place-order` answers: the request is held and the page closed; the
 *     webhooks come late, after the reopened phone placed it.
 * The table it prints is the closing note's.
 */
let double: RazorpayDouble;
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let checkout: CheckoutInPage;
let products: FeedProduct[];
const email = `payment-chaos-${Date.now()}@example.test`;

interface Run {
  step: string;
  orders: number;
  taken: number;
  refunds: number;
  shows: string;
}
const table: Run[] = [];

beforeAll(async () => {
  double = await startRazorpayDouble();
  shop = await openShop({ shoppers: [email], phone: true, env: razorpayEnv(double) });
  ({
    server,
    phone: { context, page },
  } = shop);
  checkout = await replaceCheckout(context);
  await writeSession(page, shop.shopper);
  products = forSale((await shop.feed()).products, 3);
});

afterAll(async () => {
  if (table.length) {
    const cols = ['step', 'orders', 'money taken', 'refunds', 'what the reopened phone shows'];
    const rows = table.map((r) => [r.step, String(r.orders), `₹${r.taken}`, String(r.refunds), r.shows]);
    const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
    console.log(
      ['', line(cols), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'),
    );
  }
  await shop?.close();
  await double?.close();
});

async function reopen(path = '/home'): Promise<Page> {
  const fresh = await context.newPage();
  await fresh.goto(path);
  await waitForController(fresh);
  await waitForStore(fresh);
  return fresh;
}

const keysOf = async (p: Page) => (await rowsOf<CartLine>(p, 'cart')).map((l) => l.key).sort();

/** A cart of one product (the one this run pays for), the checkout filled and paid online. */
async function pay(product: FeedProduct): Promise<{ total: number; before: Set<number> }> {
  await putRows(page, 'cart', [cartLine(product, Date.now())]);
  const before = new Set((await ordersOf(server, email)).keys());
  await startOnlinePayment(page);
  return { total: product.price + MOHALI_CHARGE, before };
}

/** The run's orders on the server: the new ones and their totals. */
async function newOrders(before: Set<number>): Promise<[number, number][]> {
  return [...(await ordersOf(server, email)).entries()].filter(([id]) => !before.has(id));
}

describe('killing the page at every step of an online payment', () => {
  it('(a) before Checkout opens: no order and no money; reopened, it offers Pay again or Back to cart', async () => {
    const product = products[0] as FeedProduct;
    // Checkout's script is asked for and never arrives: the page dies before Checkout opens.
    let scriptAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      scriptAsked = resolve;
    });
    await page.route(RAZORPAY_CHECKOUT_SCRIPT, () => scriptAsked());
    const { before } = await pay(product);
    await asked;
    const [kept] = await rowsOf<PaymentRow>(page, 'payments');
    expect(kept?.order.cartKeys).toEqual([cartLine(product, 0).key]);
    const orderId = kept?.providerOrder.razorpayOrderId ?? '';
    await page.close();

    const phone = await reopen();
    await phone.getByRole('heading', { name: t.openTitle }).waitFor({ timeout: 20_000 });
    await axe(phone, 'payment not finished');
    await phone.getByRole('link', { name: t.backToCart }).click();
    await expect.poll(() => new URL(phone.url()).pathname).toBe('/cart');
    expect(await keysOf(phone)).toEqual([cartLine(product, 0).key]);
    await expect.poll(async () => (await rowsOf(phone, 'payments')).length).toBe(0);

    const orders = await newOrders(before);
    const money = moneyOf(double, orderId);
    expect(orders).toEqual([]);
    expect(money).toEqual({ taken: 0, refunds: 0 });
    table.push({
      step: '(a) before Checkout opens',
      orders: orders.length,
      ...money,
      shows: '"Your payment was not finished": Pay again / Back to cart; back in the cart, lines kept',
    });
    // The cart is emptied for the next run, as the shopper would after going back to it.
    await phone.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const open = indexedDB.open('storefront');
          open.onsuccess = () => {
            const tx = open.result.transaction('cart', 'readwrite');
            tx.objectStore('cart').clear();
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
    );
    page = phone;
  });

  it('(b) after the payment, before `handler`: one paid order; reopened, it shows placed and the cart without it', async () => {
    const product = products[1] as FeedProduct;
    const { total, before } = await pay(product);
    const opened = await checkout.nextOpen();
    await payOnDouble(double, server, opened.orderId);
    await page.close();

    const phone = await reopen();
    const orders = await newOrders(before);
    expect(orders.map(([, amount]) => amount)).toEqual([total]);
    const [orderID] = orders[0] ?? [0];
    await phone.getByRole('heading', { name: t.placedTitle(orderID) }).waitFor({ timeout: 20_000 });
    await axe(phone, 'payment placed');
    expect(await keysOf(phone)).toEqual([]);
    expect(await rowsOf(phone, 'payments')).toEqual([]);
    await phone.goto('/my-orders');
    await expect
      .poll(() => phone.getByText(checkoutMessages.orderNumber(orderID)).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);

    const money = moneyOf(double, opened.orderId);
    expect(money).toEqual({ taken: total, refunds: 0 });
    table.push({
      step: '(b) after the payment, before handler',
      orders: orders.length,
      ...money,
      shows: `"Order #${orderID} placed" with View order; cart without its lines; in My Orders`,
    });
    page = phone;
  });

  it('(c) after `handler`, before place-order answers: one paid order; reopened, the outbox places it, late webhooks change nothing', async () => {
    const product = products[2] as FeedProduct;
    let placeAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      placeAsked = resolve;
    });
    // The page's place-order is held (never reaches the server) and the page dies waiting for it.
    await page.route('**/api/place-order', () => placeAsked());
    const { total, before } = await pay(product);
    const opened = await checkout.nextOpen();
    // Paid at Razorpay; its webhooks are late (Razorpay retries them), so only the page knows.
    const proof = double.checkout(opened.orderId);
    opened.answer(proof);
    await asked;
    // `handler` ran: the order is in the outbox with its proof, out of the cart, and the payment ended.
    const [queued] = await rowsOf<OutboxRow>(page, 'outbox').then((rows) =>
      rows.filter((r) => r.request.RazorpayOrderId === opened.orderId),
    );
    expect(queued?.state).not.toBe('sent');
    expect(await rowsOf(page, 'payments')).toEqual([]);
    await page.close();

    const phone = await reopen();
    await expect
      .poll(
        async () =>
          (await rowsOf<OutboxRow>(phone, 'outbox')).find((r) => r.key === queued?.key)?.placed?.orderID ?? 0,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const sent = (await rowsOf<OutboxRow>(phone, 'outbox')).find((r) => r.key === queued?.key);
    expect(sent).toMatchObject({ state: 'sent', placed: { status: 'paid', totalAmount: total } });
    await phone.goto(`/order-success?order=${encodeURIComponent(queued?.key ?? '')}`);
    await phone.getByRole('heading', { name: checkoutMessages.successTitle }).waitFor({ timeout: 20_000 });
    expect(await phone.locator('.pay-resume').count()).toBe(0);

    // The webhooks arrive after all: the same order, nothing placed twice.
    await postWebhooks(double, server, opened.orderId, proof.razorpay_payment_id);
    const orders = await newOrders(before);
    expect(orders.map(([, amount]) => amount)).toEqual([total]);
    const money = moneyOf(double, opened.orderId);
    expect(money).toEqual({ taken: total, refunds: 0 });
    table.push({
      step: '(c) after handler, before place-order answers',
      orders: orders.length,
      ...money,
      shows: `order success "Thank you! Your order is placed." (#${orders[0]?.[0]}), sent by the outbox`,
    });
    page = phone;
  });

  it('after every run, the admin dashboard counts no payment without an order', async () => {
    const res = await fetch(`${server.url}/api/admin/dashboard`, {
      headers: { authorization: `Bearer ${await adminToken(server)}` },
    });
    const money = ((await res.json()) as { data: Dashboard }).data.money;
    console.log(`payments without an order after the chaos runs: ${money.paymentsWithoutOrder}`);
    expect(money.paymentsWithoutOrder).toBe(0);
  });
});
