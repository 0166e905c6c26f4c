import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { addDays } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { cancelMessages } from '../../domain/order-cancel.js';
import type { FeedProduct, RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop } from '../support/shop.js';
import { MOHALI_ADDRESS, placeCodOrder, writeSession } from '../support/shopper.js';

/**
 * The shopper's own Cancel, in real Chromium on a phone against the real server (TEST_PAYMENTS on):
 * an order paid through the test provider is cancelled from its page, which shows it cancelled
 * with its refund; offline, Cancel is pressed, the page says it waits, and once the phone is back
 * it arrives once and the page says cancelled; an order out for delivery has no button and says
 * why, with the shop's phone. Screenshots in /tmp/shots/order-cancel.
 */
const SHOTS = '/tmp/shots/order-cancel';
const email = `cancel-${Date.now()}@example.test`;
let shop: Shop;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let product: FeedProduct;

const api = async (path: string, init: { method?: string; token: string; body?: unknown; key?: string }) => {
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? 'POST',
    headers: {
      authorization: `Bearer ${init.token}`,
      'content-type': 'application/json',
      ...(init.key ? { 'idempotency-key': init.key } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.data;
};

/** An order paid through the test provider, as the checkout pays: provider order, payment, then the order. */
async function placePaidOrder(): Promise<number> {
  const { charge, ...address } = MOHALI_ADDRESS;
  const body = {
    DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
    CustomerName: 'Asha Verma',
    CustomerEmail: email,
    CustomerPhone: shop.shopper.phone,
    ...address,
    PaymentMethod: 'Razorpay',
    TotalAmount: product.price + charge,
    OrderItems: [
      { ProductID: product.productID, ProductName: product.title, Price: product.price, Quantity: 1 },
    ],
  };
  const key = randomUUID();
  const token = shop.shopper.token;
  const provider = await api('/payments/razorpay/order', { token, key, body });
  const proof = await api('/payments/test/pay', {
    token,
    body: { razorpay_order_id: provider.razorpayOrderId },
  });
  const placed = await api('/place-order', {
    token,
    key,
    body: {
      ...body,
      RazorpayPaymentId: proof.razorpay_payment_id,
      RazorpayOrderId: proof.razorpay_order_id,
      RazorpaySignature: proof.razorpay_signature,
    },
  });
  return placed.orderID as number;
}

const status = () => page.locator('.order-page__title .orders__status');
const cancelledMoves = async (id: number) =>
  (
    (await api(`/admin/orders/${id}`, { method: 'GET', token: shop.admin.token })).timeline as {
      to: string;
    }[]
  ).filter((s) => s.to === 'cancelled').length;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  shop = await openShop({ admin: true, shoppers: [email], phone: true });
  ({
    server,
    phone: { context, page },
  } = shop);
  await writeSession(page, shop.shopper);
  product = forSale((await shop.feed()).products)[0] as FeedProduct;
});
afterAll(() => shop?.close());

describe("the shopper's own Cancel", () => {
  it('cancels an order paid online from its page and shows the refund', async () => {
    const id = await placePaidOrder();
    const total = product.price + MOHALI_ADDRESS.charge;
    await page.goto(`/my-orders/${id}`);
    await page.getByRole('button', { name: cancelMessages.button }).click();
    const dialog = page.getByRole('dialog', { name: cancelMessages.title });
    await dialog.getByText(cancelMessages.paidBack(total)).waitFor();
    await axe(page, 'the cancel dialog');
    await page.screenshot({ path: `${SHOTS}/cancel-dialog-paid-412.png` });
    await dialog.getByRole('button', { name: cancelMessages.confirm }).click();
    await expect.poll(() => status().textContent(), { timeout: 15_000 }).toBe('Cancelled');
    await page.getByTestId('order-refunds').getByText(formatRupees(total)).waitFor();
    expect(await page.getByRole('button', { name: cancelMessages.button }).count()).toBe(0);
    await axe(page, 'a cancelled paid order');
    await page.screenshot({ path: `${SHOTS}/cancelled-paid-online-412.png`, fullPage: true });
    expect(await cancelledMoves(id)).toBe(1);
  });

  it('offline: the cancel waits on the phone, and arrives once when it is back', async () => {
    const id = await placeCodOrder(server, shop.shopper, product);
    // My Orders offers it on the order's row too.
    await page.goto('/my-orders');
    await page
      .getByRole('button', { name: cancelMessages.buttonFor(id) })
      .first()
      .waitFor();
    await axe(page, 'My Orders with a Cancel on a row');
    await page.screenshot({ path: `${SHOTS}/my-orders-row-cancel-412.png` });
    await page.goto(`/my-orders/${id}`);
    await page.getByRole('button', { name: cancelMessages.button }).waitFor();
    await context.setOffline(true);
    await page.getByRole('button', { name: cancelMessages.button }).click();
    const dialog = page.getByRole('dialog', { name: cancelMessages.title });
    await dialog.getByText(cancelMessages.nothingPaid).waitFor();
    await dialog.getByRole('button', { name: cancelMessages.confirm }).click();
    await page.locator('.order-cancel__note').getByText(cancelMessages.waiting).waitFor();
    await axe(page, 'a cancel waiting offline');
    await page.screenshot({ path: `${SHOTS}/cancel-waiting-offline-412.png`, fullPage: true });
    expect(await cancelledMoves(id)).toBe(0);
    await context.setOffline(false);
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toBe('Cancelled');
    expect(await page.locator('.order-cancel__note').count()).toBe(0);
    expect(await cancelledMoves(id)).toBe(1);
  });

  it('out for delivery: no button, and why, with the shop’s phone', async () => {
    const id = await placeCodOrder(server, shop.shopper, product);
    for (const to of ['confirmed', 'out for delivery'])
      await api(`/admin/orders/${id}/status`, {
        method: 'PUT',
        token: shop.admin.token,
        body: { status: to },
      });
    await page.goto(`/my-orders/${id}`);
    await page.getByText(cancelMessages.why['out for delivery']).waitFor();
    expect(await page.getByRole('button', { name: cancelMessages.button }).count()).toBe(0);
    expect(await page.locator('.order-cancel__note').textContent()).toMatch(/call the shop on/);
    await axe(page, 'an order too late to cancel');
    await page.screenshot({ path: `${SHOTS}/too-late-412.png` });
  });
});
