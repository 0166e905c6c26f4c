import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { findArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { giftMessages } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { WAITING_TO_BE_SENT } from '../../domain/order-tracking.js';
import { slotMessages } from '../../domain/slot-messages.js';
import {
  adminToken,
  type FeedProduct,
  GUIDE_PHONE,
  phoneContext,
  type RunningServer,
  setPrice,
  submitLogin,
} from '../support/e2e.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import {
  cartLine,
  fillAddress,
  ordersOf,
  outboxRows,
  putRows,
  revokeOnServer,
  SHOPPER_PASSWORD,
  waitForStore,
  writeSession,
} from '../support/shopper.js';

/**
 * Checkout in real Chromium against the real server: the login guard, an
 * online order with a coupon, paying through the local stand-in for Razorpay,
 * an order queued offline whose price changed (old and new shown, confirmed,
 * placed once at the new total), one whose session ended while it waited
 * (401: sign in, then sent), and axe on every screen. The build is made with
 * NODE_ENV=development: the shop must be the same whatever NODE_ENV says.
 */
const SHOTS = '/tmp/shots/checkout';
/** The delivery charge of the pincode the shopper types, 160062 (Mohali). */
const MOHALI = findArea(SEED_AREAS, '160062')?.charge ?? 0;

let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let shopper: LoginData;
let products: FeedProduct[];
const email = `checkout-${Date.now()}@example.test`;

async function fillCart(items: FeedProduct[]): Promise<void> {
  await putRows(
    page,
    'cart',
    items.map((p, i) => cartLine(p, Date.now() + i)),
  );
}

/** The device's outbox row of one order, read through the page. */
async function outboxRow(key: string) {
  return (await outboxRows(page)).find((r) => r.key === key);
}

async function fillForm(): Promise<void> {
  // Pasted with a space and a stray letter: only digits stay, at most 6.
  expect(await fillAddress(page, { pincode: '160 06x29' })).toEqual({ city: 'Mohali', state: 'Punjab' });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ smtp: true, build: { NODE_ENV: 'development' }, shoppers: [email], phone: true });
  ({
    server,
    shopper,
    phone: { context, page },
  } = shop);
  products = forSale((await shop.feed()).products, 7);
});

afterAll(() => shop?.close());

describe('checkout', () => {
  it('without a session: the cart sends the shopper to log in and keeps the cart; /checkout says log in first', async () => {
    await fillCart([products[0] as FeedProduct]);
    await page.goto('/cart');
    await page.getByRole('button', { name: /proceed to checkout/i }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await expect.poll(() => page.getByText(messages.loginToCheckout).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('returnUrl'))).toBe('/checkout');
    await page.goto('/checkout');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await expect.poll(() => page.getByText(messages.loginFirst).count()).toBeGreaterThan(0);
    await page.goto('/cart');
    await expect.poll(() => page.locator('.lines li').count()).toBe(1);
  });

  it("keeps what was typed on the phone across a reload and a payment window that took the page; the name is the account's", async () => {
    // A phone of its own: no order on it yet, and the payment left open there stays there.
    const phone = await phoneContext(shop.browser, server.url, GUIDE_PHONE);
    try {
      let p = await phone.newPage();
      await p.goto('/home');
      await waitForStore(p);
      await writeSession(p, shopper);
      await putRows(p, 'cart', [cartLine(products[3] as FeedProduct, Date.now())]);
      await p.goto('/checkout');
      // No order on this phone: the name is the account's own.
      await expect.poll(() => p.getByLabel('Full Name').inputValue()).toBe('Asha Verma');
      await p.getByLabel(giftMessages.sendToSomeoneElse).check();
      await p.getByLabel("Recipient's name").fill('Dadi Ji');
      await p.getByLabel("Recipient's mobile (10 digits)").fill('9812345678');
      await fillAddress(p, {
        name: null,
        address: 'House 7, Phase 5',
        addressLabel: "Recipient's full shipping address",
      });
      await p.getByLabel(giftMessages.card).check();
      await p.getByLabel('Message on the card').fill('Happy 80th, Dadi!');
      // The latest slot still open today or on the suggested date (not the one offered first).
      const slot = p
        .getByRole('group', { name: slotMessages.legend })
        .getByRole('radio', { disabled: false })
        .last();
      await slot.check();
      const slotValue = await slot.getAttribute('value');
      await p.getByText(t.draftKept).waitFor();
      await axe(p, 'checkout with its draft');
      await p.screenshot({ path: `${SHOTS}/checkout-draft-412.png`, fullPage: true });

      const typed = async (page: Page) => {
        await expect
          .poll(() => page.getByLabel('Message on the card').inputValue(), { timeout: 15_000 })
          .toBe('Happy 80th, Dadi!');
        expect(await page.getByLabel('Pincode').inputValue()).toBe('160062');
        expect(await page.getByLabel('Full Name').inputValue()).toBe('Asha Verma');
        expect(await page.getByLabel("Recipient's name").inputValue()).toBe('Dadi Ji');
        expect(await page.getByLabel("Recipient's mobile (10 digits)").inputValue()).toBe('9812345678');
        expect(await page.getByLabel("Recipient's full shipping address").inputValue()).toBe(
          'House 7, Phase 5',
        );
        const checked = page.getByRole('group', { name: slotMessages.legend }).locator('input:checked');
        await expect.poll(() => checked.getAttribute('value')).toBe(slotValue);
      };
      await p.reload();
      await typed(p);

      // Paying online: Checkout opens, and the page dies in the payment app.
      await p.getByRole('radio', { name: /Pay online/ }).check();
      await p.getByRole('button', { name: 'Place Order' }).click();
      await p.getByRole('button', { name: /^Pay ₹/ }).waitFor();
      await p.close();
      p = await phone.newPage();
      await p.goto('/checkout');
      await typed(p);

      // The payment left open is offered again, pinned to the bottom; a message the page shows
      // meanwhile (a coupon refused) never lies over its Pay again.
      const again = p.getByRole('button', { name: /^Pay ₹[\d,]+ again$/ });
      await again.waitFor({ timeout: 30_000 });
      await p.getByRole('button', { name: t.couponApply }).click();
      await p.locator('.alerts').getByText(messages.couponInvalid).waitFor();
      const box = await again.boundingBox();
      if (!box) throw new Error('no Pay again button');
      const hit = await again.evaluate((el, at) => el.contains(document.elementFromPoint(at.x, at.y)), {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      });
      await p.screenshot({ path: `${SHOTS}/checkout-pay-again-and-message-412.png` });
      expect(hit, 'the page’s message covers Pay again').toBe(true);
    } finally {
      await phone.close();
    }
  });

  it('an online order with a coupon: the spec form, its errors, the right total, placed once', async () => {
    await writeSession(page, shopper);
    const [a, b] = products as [FeedProduct, FeedProduct];
    await putRows(page, 'cart', [cartLine(b, Date.now() + 10)]);
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    expect(await page.locator('.co-fields').getByLabel('Email').inputValue()).toBe(email);
    expect(await page.locator('.co-fields').getByLabel('Email').getAttribute('readonly')).not.toBeNull();

    // The name is the account's; emptied here, to see the form's errors.
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Asha Verma');
    await page.getByLabel('Full Name').fill('');
    // Errors appear only after a submit attempt, with the spec's texts.
    expect(await page.getByText(messages.fullNameRequired).count()).toBe(0);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect.poll(() => page.getByText(messages.formInvalid).count()).toBeGreaterThan(0);
    for (const text of [messages.fullNameRequired, messages.addressRequired, messages.pincodeRequired]) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBe(1);
    }
    // State and City come from the pincode: the pincode is what is missing, and it takes the focus.
    expect(await page.getByText(messages.stateRequired, { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Pincode').evaluate((el) => el === document.activeElement)).toBe(true);
    await axe(page);

    await fillForm();
    expect(await page.getByLabel('Pincode').inputValue()).toBe('160062');
    expect(await page.getByLabel('City', { exact: true }).getAttribute('readonly')).not.toBeNull();

    await page.getByLabel('Coupon code').fill('save200');
    await page.getByRole('button', { name: 'Apply' }).click();
    const applied = messages.couponApplied(formatRupees(200));
    await expect.poll(() => page.locator('.co-summary').getByText(applied).count()).toBe(1);
    const subtotal = a.price + b.price;
    const total = subtotal + MOHALI - Math.min(200, subtotal);
    expect(await page.locator('.co-total dd').innerText()).toContain(formatRupees(total));
    expect(await page.locator('.co-summary').getByText(t.deliveryCharges).count()).toBe(1);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/checkout.png`, fullPage: true });

    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/order-success');
    await expect.poll(() => page.getByRole('heading', { name: t.successTitle }).count()).toBe(1);
    const rows = await outboxRows(page);
    expect(rows).toHaveLength(1);
    const placed = rows[0]?.placed;
    expect(placed?.totalAmount).toBe(total);
    expect(placed?.discount).toBe(200);
    expect(await page.getByText(t.orderNumber(placed?.orderID ?? 0)).count()).toBeGreaterThan(0);
    // The cart was emptied with the order.
    expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/order-success.png`, fullPage: true });
    const orders = await ordersOf(server, email);
    expect([...orders.entries()]).toEqual([[placed?.orderID, total]]);
  });

  it('pays online through the local stand-in for Razorpay, same code path', async () => {
    const c = products[2] as FeedProduct;
    await fillCart([c]);
    await page.goto('/checkout');
    // The last order's details are offered again.
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Asha Verma');
    const online = page.getByRole('radio', { name: /Pay online/ });
    await expect.poll(() => online.isEnabled()).toBe(true);
    // The server runs with TEST_PAYMENTS=true (tests/support/e2e.ts): the choice says no money moves.
    expect(await online.getAttribute('aria-describedby')).toBeTruthy();
    await expect
      .poll(async () => page.locator(`[id="${await online.getAttribute('aria-describedby')}"]`).textContent())
      .toBe(t.onlineTestNote);
    await online.check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    const total = c.price + MOHALI;
    const pay = page.getByRole('button', { name: t.payButton(formatRupees(total)) });
    await pay.waitFor();
    // The stand-in reads Checkout's own options: UPI by app or QR, never a UPI ID (NPCI).
    const ways = page.getByRole('list', { name: t.payMethodsLabel });
    expect(await ways.getByRole('listitem').allTextContents()).toEqual([
      'UPI (app or QR)',
      'Cards',
      'Net banking',
    ]);
    await axe(page);
    await pay.click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 20_000 })
      .toBe(1);
    const row = (await outboxRows(page)).find((r) => r.request.PaymentMethod === 'Razorpay');
    expect(row?.placed).toMatchObject({ status: 'paid', paymentMethod: 'Razorpay', totalAmount: total });
    expect((await ordersOf(server, email)).get(row?.placed?.orderID ?? 0)).toBe(total);
  });

  it('offline: the online option is disabled and says why; the order is queued and said so', async () => {
    const d = products[3] as FeedProduct;
    const before = await ordersOf(server, email);
    await fillCart([d]);
    await page.goto('/checkout');
    await context.setOffline(true);
    await expect.poll(() => page.getByRole('radio', { name: /Pay online/ }).isDisabled()).toBe(true);
    expect(await page.getByText(t.onlineNeedsNetwork).count()).toBe(1);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successQueuedTitle }).count())
      .toBeGreaterThan(0);
    expect(await page.getByText(t.queuedOffline).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /1 order waiting to be sent/ }).count()).toBe(1);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/queued.png`, fullPage: true });

    // The price changes while it waits: back online, the order waits for the shopper with both figures.
    const admin = await adminToken(server);
    await setPrice(server, admin, d.productID, d.price + 100);
    await context.setOffline(false);
    await expect.poll(() => page.getByText(t.repricedTitle).count(), { timeout: 30_000 }).toBe(1);
    const oldTotal = d.price + MOHALI;
    const newTotal = oldTotal + 100;
    const table = page.locator('.co-compare');
    expect(await table.innerText()).toContain(formatRupees(oldTotal));
    expect(await table.innerText()).toContain(formatRupees(newTotal));
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/attention.png`, fullPage: true });
    // The notice shows on every other screen while it waits.
    await page.goto('/home');
    await expect.poll(() => page.getByText(/needs your attention/).count()).toBe(1);
    await page.getByRole('link', { name: 'Review order' }).click();
    await page.getByRole('button', { name: t.confirmNew(formatRupees(newTotal)) }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    const row = (await outboxRows(page)).find((r) => r.request.OrderItems[0]?.ProductID === d.productID);
    expect(row?.placed?.totalAmount).toBe(newTotal);
    const after = await ordersOf(server, email);
    expect(after.size).toBe(before.size + 1);
    expect(after.get(row?.placed?.orderID ?? 0)).toBe(newTotal);
  });

  it('a 401 while queued waits for a sign-in, then the order is sent with the new token', async () => {
    const e = products[4] as FeedProduct;
    await fillCart([e]);
    await page.goto('/checkout');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: t.successQueuedTitle }).count())
      .toBeGreaterThan(0);
    const orderUrl = page.url();
    const key = new URL(orderUrl).searchParams.get('order') ?? '';
    const before = (await ordersOf(server, email)).size;
    await revokeOnServer(server, shopper.token, email);
    await context.setOffline(false);
    await expect.poll(() => page.getByText(t.signinTitle).count(), { timeout: 30_000 }).toBe(1);
    expect((await ordersOf(server, email)).size).toBe(before);
    const refused = await outboxRow(key);
    expect(refused).toMatchObject({ state: 'attention', refusedToken: shopper.token });

    // The shopper signs in again on the login screen, where the notice's link goes. Another call's 401
    // may have taken the page there first (the API client's one 401 path): either way the sign-in, not a
    // reload, is what sends the order, in the same page.
    await page.goto('/login');
    await submitLogin(page, email, SHOPPER_PASSWORD);
    await expect
      .poll(async () => (await outboxRow(key))?.placed?.orderID, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const sent = await outboxRow(key);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    expect(token).not.toBe(shopper.token);
    const after = await ordersOf(server, email);
    expect(after.size).toBe(before + 1);
    expect(after.has(sent?.placed?.orderID ?? 0)).toBe(true);
    // The order's own screen says it arrived.
    await page.goto(orderUrl);
    await expect
      .poll(() => page.getByRole('heading', { name: t.successTitle }).count(), { timeout: 30_000 })
      .toBe(1);
    await axe(page);
  });

  it("My Orders shows the phone's queued orders first, then the server's row without a duplicate", async () => {
    await page.goto('/my-orders');
    await page.getByRole('heading', { name: 'Your Orders' }).waitFor();
    // Every order so far is in the server's history: none is repeated in the phone's section.
    await expect
      .poll(() => page.locator('.orders__table tbody tr').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await page.locator('.co-queued').count()).toBe(0);

    await fillCart([products[5] as FeedProduct]);
    await page.goto('/checkout');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order-success/);
    const key = new URL(page.url()).searchParams.get('order') ?? '';
    await page.goto('/my-orders');
    const queued = page.locator('.co-queued');
    await queued.getByText(WAITING_TO_BE_SENT).waitFor();
    // A queued order says what it is, as the server's history does: its product's title and picture,
    // in this tab and in a new one (offline, from the worker and the device).
    const title = (products[5] as FeedProduct).title;
    await queued.locator('.co-queued__lines').getByText(title).first().waitFor({ timeout: 20_000 });
    expect(await queued.locator('.co-queued__lines img').count()).toBeGreaterThan(0);
    const tab = await context.newPage();
    await tab.goto('/my-orders');
    const there = tab.locator('.co-queued .co-queued__lines');
    await there.getByText(title).first().waitFor({ timeout: 20_000 });
    expect(await there.innerText()).toContain(`1 × ${formatRupees((products[5] as FeedProduct).price)}`);
    await tab.close();
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/my-orders-queued.png`, fullPage: true });

    await context.setOffline(false);
    await expect
      .poll(async () => (await outboxRow(key))?.placed?.orderID, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const id = (await outboxRow(key))?.placed?.orderID ?? 0;
    // A fresh visit fetches the history: the order is the server's row now, shown once.
    await page.goto('/my-orders');
    await expect
      .poll(() => page.locator('.orders__table td').getByText(String(id), { exact: true }).count(), {
        timeout: 20_000,
      })
      .toBe(1);
    expect(await page.locator('.co-queued').getByText(t.orderNumber(id)).count()).toBe(0);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/my-orders.png`, fullPage: true });
  });

  it('with every page of the shop closed, Background Sync sends the queued order and announces it', async () => {
    await context.grantPermissions(['notifications'], { origin: server.url });
    await fillCart([products[6] as FeedProduct]);
    await page.goto('/checkout');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order-success/);
    const key = new URL(page.url()).searchParams.get('order') ?? '';
    const before = (await ordersOf(server, email)).size;

    // The shopper closes the app while offline: no page of the shop is left to send anything.
    const blank = await context.newPage();
    await page.close();
    await context.setOffline(false);
    expect((await ordersOf(server, email)).size).toBe(before);
    // The signal is back: the browser fires the tag the page registered (here through DevTools,
    // as Chromium's own network watcher does not see an emulated outage end).
    const cdp = await context.newCDPSession(blank);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(server.url)))
      .toBeTruthy();
    const registration = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(server.url));
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: server.url,
      registrationId: registration?.registrationId ?? '',
      tag: 'outbox',
      lastChance: false,
    });
    await expect.poll(async () => (await ordersOf(server, email)).size, { timeout: 30_000 }).toBe(before + 1);
    await cdp.detach();

    // Opening the app again: the order is placed, once, and the worker said so while no page was open.
    page = await context.newPage();
    await page.goto('/my-orders');
    await expect
      .poll(async () => (await outboxRow(key))?.placed?.orderID, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const row = await outboxRow(key);
    expect(row?.announced).toBe(true);
    const shown = await page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title),
    );
    expect(shown).toContain(t.notificationTitle(row?.placed?.orderID ?? 0));
    expect((await ordersOf(server, email)).size).toBe(before + 1);
    await blank.close();
  });
});
