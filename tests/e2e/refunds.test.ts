import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import type { AdminOrderDetail } from '../../domain/admin-answers.js';
import type { Dashboard } from '../../domain/admin-dashboard.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import type { ShopperOrder } from '../../domain/order-tracking.js';
import { refundLine, refundMessages } from '../../domain/refunds.js';
import { GUIDE_PHONE, phoneContext, type RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop, signIn } from '../support/shop.js';
import { MOHALI_CHARGE } from '../support/shopper.js';

/**
 * Refunds on the screens in real Chromium against the real server, its online payments through the
 * local test provider (TEST_PAYMENTS=true: it refunds, and sends `refund.processed` into the same
 * handler a webhook reaches). A shopper's order is paid and placed through the API; on the admin's
 * order page at 1280x800 the owner refunds ₹450 (the answer shown at once, then processed), asks for
 * more than is left (the server's 422 under the amount, nothing else changes), and cancels the
 * order after a confirm that says the rest is refunded. The local test provider never fails a
 * refund, so a failed ₹200 refund is put in the shop's database as Razorpay's `refund.failed`
 * leaves one (failed, with Razorpay's reason; the provider holds none of it): the page shows it
 * in red with the word Failed and the reason, and the cancel refunds around it. The dashboard's
 * Money block counts the refunds; the shopper's order page and My Orders at 412x823 read "Refund
 * of ₹450 processed on …" (the day the provider processed it, in India). axe-clean everywhere;
 * screenshots in /tmp/shots-refunds.
 */
const SHOTS = '/tmp/shots-refunds';
const LAPTOP = { width: 1280, height: 800 };
const FAILURE = 'The bank did not accept the refund: the beneficiary account is closed.';

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;
let shopper: LoginData;
let laptop: BrowserContext;
let page: Page;
let orderId = 0;
let paid = 0;
const email = `refunds-${Date.now()}@example.test`;

async function api<T>(method: string, route: string, token: string, body?: unknown, key?: string) {
  const res = await fetch(`${server.url}/api/${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await res.json()) as { data: T; sys_message: string };
  return { status: res.status, data: envelope.data, message: envelope.sys_message };
}
const adminOrder = async () =>
  (await api<AdminOrderDetail>('GET', `admin/orders/${orderId}`, admin.token)).data;

/** Pays a shopper's order online through the local test provider and places it, as Checkout and the page do. */
async function placePaidOrder(): Promise<{ orderID: number; totalAmount: number }> {
  const product = forSale((await shop.feed()).products).find(
    (p) => p.variations.length === 0 && p.price >= 400,
  );
  if (!product) throw new Error('no product without options at ₹400 or more');
  const quantity = Math.ceil(1500 / product.price);
  const request = {
    DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
    CustomerName: 'Asha Verma',
    CustomerEmail: email,
    CustomerPhone: shopper.phone,
    CustomerAddress: 'House 12, Sector 70, Mohali',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160062',
    PaymentMethod: 'Razorpay',
    TotalAmount: product.price * quantity + MOHALI_CHARGE,
    OrderItems: [
      { ProductID: product.productID, ProductName: product.title, Price: product.price, Quantity: quantity },
    ],
  };
  const key = randomUUID();
  const created = await api<{ razorpayOrderId: string }>(
    'POST',
    'payments/razorpay/order',
    shopper.token,
    request,
    key,
  );
  expect(created.status, created.message).toBe(200);
  const proof = await api<Record<string, string>>('POST', 'payments/test/pay', shopper.token, {
    razorpay_order_id: created.data.razorpayOrderId,
  });
  expect(proof.status, proof.message).toBe(200);
  const placed = await api<{ orderID: number; totalAmount: number }>(
    'POST',
    'place-order',
    shopper.token,
    {
      ...request,
      RazorpayPaymentId: proof.data.razorpay_payment_id,
      RazorpayOrderId: proof.data.razorpay_order_id,
      RazorpaySignature: proof.data.razorpay_signature,
    },
    key,
  );
  expect(placed.status, placed.message).toBe(200);
  return placed.data;
}

const panel = (p: Page) => p.getByRole('region', { name: 'Online payment' });
const refundForm = (p: Page) => p.getByRole('form', { name: 'Refund part of this payment' });
const alertText = (p: Page, text: string) =>
  p.locator('.alerts').getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });

async function refundOnPage(amount: number, reason: string): Promise<void> {
  const form = refundForm(page);
  await form.getByLabel('Amount (₹)').fill(String(amount));
  await form.getByLabel('Reason').fill(reason);
  await form.getByRole('button', { name: 'Refund' }).click();
  await alertText(page, refundMessages.refundStarted(amount));
}

describe('refunds on the screens', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ shoppers: [email], admin: true, env: { TEST_PAYMENTS: 'true' } });
    ({ server, browser, admin, shopper } = shop);
    const placed = await placePaidOrder();
    orderId = placed.orderID;
    paid = placed.totalAmount;
    laptop = await browser.newContext({
      baseURL: server.url,
      viewport: LAPTOP,
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    page = await laptop.newPage();
    await signIn(page, admin);
  });
  afterAll(async () => {
    await laptop?.close();
    await shop?.close();
  });

  it('the admin refunds part of the payment: the answer at once, then processed by the provider', async () => {
    await page.goto(`/admin-orders/${orderId}`);
    const section = panel(page);
    await section.getByTestId('payment-paid').waitFor();
    expect(await section.getByTestId('payment-paid').textContent()).toBe(formatRupees(paid));
    expect(await section.getByTestId('payment-refundable').textContent()).toBe(formatRupees(paid));
    await axe(page, 'the order page of an online payment, no refunds yet');

    await refundOnPage(450, 'Cake arrived late');
    expect(await section.getByTestId('payment-refunded').textContent()).toBe(formatRupees(450));
    expect(await section.getByTestId('payment-refundable').textContent()).toBe(formatRupees(paid - 450));
    await expect
      .poll(async () => (await adminOrder()).payment?.refunds.map((r) => [r.amount, r.status]))
      .toEqual([[450, 'processed']]);
  });

  it("more than is left: the server's 422 under the amount, and nothing else changes", async () => {
    await page.reload();
    const section = panel(page);
    const form = refundForm(page);
    await form.getByLabel('Amount (₹)').fill(String(paid));
    await form.getByLabel('Reason').fill('Everything back');
    await form.getByRole('button', { name: 'Refund' }).click();
    const problem = form.getByTestId('refund-amount-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe(refundMessages.tooLarge(paid - 450, paid));
    expect(await form.getByLabel('Amount (₹)').getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByTestId('payment-refunded').textContent()).toBe(formatRupees(450));
    expect((await adminOrder()).payment?.refunds).toHaveLength(1);
    await axe(page, 'the refund form with the server’s refusal');
  });

  it('a failed refund shows in red, saying Failed and why; cancelling refunds the rest after a confirm', async () => {
    // The local test provider never fails a refund: a ₹200 refund Razorpay failed is kept in the
    // shop's database as its refund.failed leaves it (failed, with Razorpay's reason), and the
    // provider, like Razorpay after a failure, holds none of it.
    const db = new Database(path.join(server.dataDir, 'shop.db'), { fileMustExist: true });
    let failedId = 0;
    try {
      const first = db.prepare('select payment_row_id from refunds where order_id = ?').get(orderId) as
        | { payment_row_id: number }
        | undefined;
      if (!first) throw new Error('the ₹450 refund was not kept');
      const now = Date.now();
      failedId = Number(
        db
          .prepare(
            `insert into refunds (payment_row_id, order_id, kind, idempotency_key, amount_paise, reason, status,
               provider_refund_id, failure_reason, created_by, created_at, updated_at, processed_at, notified_at)
             values (?, ?, 'partial', ?, 20000, 'Candles missing', 'failed', ?, ?, ?, ?, ?, null, null)`,
          )
          .run(
            first.payment_row_id,
            orderId,
            `e2e-failed-${orderId}`,
            `rfnd_e2efailed${orderId}`,
            FAILURE,
            admin.email,
            now,
            now,
          ).lastInsertRowid,
      );
    } finally {
      db.close();
    }

    await page.reload();
    const section = panel(page);
    const failed = section.getByTestId(`refund-${failedId}`);
    expect(await failed.getAttribute('class')).toBe('admin-refund--failed');
    expect(await failed.locator('.admin-refund__failed').textContent()).toBe(`Failed: ${FAILURE}`);
    const red = await failed.locator('.admin-refund__failed').evaluate((el) => getComputedStyle(el).color);
    expect(red).toBe('rgb(163, 18, 42)');
    // A failed refund gave nothing back: it may be asked again.
    expect(await section.getByTestId('payment-refundable').textContent()).toBe(formatRupees(paid - 450));

    await page.getByLabel('Move to').selectOption('cancelled');
    await page.getByRole('button', { name: 'Update status' }).click();
    const dialog = page.locator('dialog.admin-dialog[open]');
    await dialog.getByText(adminMessages.cancelPaidConfirm(orderId, paid - 450, paid)).waitFor();
    await axe(page, 'the confirm of cancelling a paid order');
    await dialog
      .getByRole('button', { name: adminMessages.cancelDialog(orderId, { left: paid - 450, paid }).yes })
      .click();
    await alertText(page, adminMessages.statusMoved(orderId, 'cancelled'));
    await expect
      .poll(async () => (await adminOrder()).payment?.refunds.map((r) => [r.kind, r.amount, r.status]))
      .toEqual([
        ['partial', 450, 'processed'],
        ['partial', 200, 'failed'],
        ['cancel', paid - 450, 'processed'],
      ]);

    await page.reload();
    await panel(page).getByTestId('payment-refunded').waitFor();
    expect(await panel(page).getByTestId('payment-refunded').textContent()).toBe(formatRupees(paid));
    // Refunded in full: the page says so, not the provider's "captured".
    expect(await panel(page).getByTestId('payment-state').textContent()).toBe(
      `Refunded in full, ${formatRupees(paid)}`,
    );
    expect(await panel(page).getByText(adminMessages.refundableHint(0)).count()).toBe(1);
    await axe(page, 'the order page with its refunds, one failed');
    await panel(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/admin-order-refunds-1280x800.png` });
    await page.screenshot({ path: `${SHOTS}/admin-order-refunds-full-1280.png`, fullPage: true });
  });

  it("the dashboard's Money block counts them", async () => {
    const figures = (await api<Dashboard>('GET', 'admin/dashboard', admin.token)).data.money;
    expect(figures).toMatchObject({ paymentsWithoutOrder: 0, refundsPending: 0, refundsFailed: 1 });
    await page.goto('/dashboard');
    const block = page.getByRole('region', { name: 'Money' });
    await block.waitFor();
    expect(await block.getByTestId('money-without-order').textContent()).toBe('0');
    expect(await block.getByTestId('money-without-order-warning').count()).toBe(0);
    expect(await block.getByTestId('money-refunds-failed').textContent()).toBe('1');
    expect(await block.getByTestId('money-refunds-failed-warning').textContent()).toBe(
      adminMessages.refundsFailedWarn,
    );
    expect(await block.getByTestId('money-refunds-30').textContent()).toBe(
      adminMessages.refunds30Value(figures.refunds30, figures.refunded30),
    );
    await axe(page, 'the dashboard');
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/dashboard-money-1280x800.png` });
  });

  it("the shopper's order page and My Orders say each refund", async () => {
    const mine = (await api<ShopperOrder>('GET', `my-orders/${orderId}`, shopper.token)).data;
    // The failed ₹200 gave nothing back and the cancel refunded around it: the shopper is not
    // shown money "on its way" that never comes (`shopperSees`).
    expect(mine.refunds.map((r) => [r.amount, r.status])).toEqual([
      [450, 'processed'],
      [paid - 450, 'processed'],
    ]);
    const lines = mine.refunds.map(refundLine);
    expect(lines[0]).toMatch(/^Refund of ₹450 processed on \d{1,2} [A-Z][a-z]{2}$/);

    const phone = await phoneContext(browser, server.url, GUIDE_PHONE);
    try {
      const p = await phone.newPage();
      await signIn(p, shopper);
      await p.goto(`/my-orders/${orderId}`);
      const list = p.getByRole('list', { name: 'Refunds' });
      await list.waitFor();
      expect(await list.getByRole('listitem').allTextContents()).toEqual(lines);
      await axe(p, "the shopper's order page with refunds");
      await list.scrollIntoViewIfNeeded();
      await p.screenshot({ path: `${SHOTS}/shopper-order-refund-412x823.png` });

      await p.goto('/my-orders');
      const card = p.locator('.orders__card', { has: p.getByRole('link', { name: `Order #${orderId}` }) });
      await card.getByRole('list', { name: 'Refunds' }).waitFor();
      expect(
        await card.getByRole('list', { name: 'Refunds' }).getByRole('listitem').allTextContents(),
      ).toEqual(lines);
      await axe(p, 'My Orders with refunds');
      await card.scrollIntoViewIfNeeded();
      await p.screenshot({ path: `${SHOTS}/shopper-my-orders-412x823.png` });
    } finally {
      await phone.close();
    }
  });
});
