/**
 * Razorpay as the phone meets it, for the browser tests of paid-means-placed: the server runs
 * with keys pointing at the Razorpay double (tests/support/razorpay-double.ts), and Razorpay's
 * Checkout script (domain/browser-origins.ts) is replaced, through Playwright's `route`, by a
 * stand-in whose `open()` tells the test which provider order it was opened with and waits for
 * the test's answer: a payment's proof (Checkout's `handler` runs) or nothing (the page dies in
 * the UPI app first: the test closes it). Paying is done on the double, with its signed webhooks
 * posted to the server, as Razorpay would.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { RAZORPAY_CHECKOUT_SCRIPT } from '../../domain/browser-origins.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { CheckoutSuccess } from '../../domain/payments.contract.js';
import type { RunningServer } from '../support/e2e.js';
import type { RazorpayDouble } from '../support/razorpay-double.js';
import { fillAddress } from '../support/shopper.js';

/** The server's settings that make it take payments through the double. */
export function razorpayEnv(double: RazorpayDouble): Record<string, string> {
  return {
    RAZORPAY_KEY_ID: double.keyId,
    RAZORPAY_KEY_SECRET: double.keySecret,
    RAZORPAY_WEBHOOK_SECRET: double.webhookSecret,
    RAZORPAY_API_URL: double.url,
  };
}

// Plain ES5 in the page: Checkout's constructor, `on` and `open`, as the shop calls them.
const STAND_IN = `
window.Razorpay = function (options) {
  this.on = function () {};
  this.open = function () {
    window.razorpayOpened(options.order_id, options.amount).then(function (proof) {
      if (proof) options.handler(proof);
      else options.modal.ondismiss();
    });
  };
};
`;

/** One opening of Checkout: its provider order, and the answer the shopper's payment gives the page. */
export interface Opened {
  orderId: string;
  /** Paise, as Checkout was opened with. */
  amount: number;
  /** A proof runs `handler`; null closes Checkout unpaid (`ondismiss`). */
  answer(proof: CheckoutSuccess | null): void;
}

export interface CheckoutInPage {
  /** The next time a page of the context opens Checkout. */
  nextOpen(): Promise<Opened>;
}

export async function replaceCheckout(context: BrowserContext): Promise<CheckoutInPage> {
  await context.route(RAZORPAY_CHECKOUT_SCRIPT, (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: STAND_IN }),
  );
  const opened: Opened[] = [];
  const waiting: ((o: Opened) => void)[] = [];
  await context.exposeFunction(
    'razorpayOpened',
    (orderId: string, amount: number) =>
      new Promise<CheckoutSuccess | null>((answer) => {
        const o = { orderId, amount, answer };
        const waiter = waiting.shift();
        if (waiter) waiter(o);
        else opened.push(o);
      }),
  );
  return {
    nextOpen: () =>
      new Promise<Opened>((resolve) => {
        const o = opened.shift();
        if (o) resolve(o);
        else waiting.push(resolve);
      }),
  };
}

/**
 * The shopper pays in the UPI app: the double takes the money (captured) and Razorpay's webhooks
 * reach the server, whatever became of the page.
 */
export async function payOnDouble(
  double: RazorpayDouble,
  server: RunningServer,
  orderId: string,
): Promise<CheckoutSuccess> {
  const proof = double.checkout(orderId);
  await postWebhooks(double, server, orderId, proof.razorpay_payment_id);
  return proof;
}

/** Razorpay's webhooks of a payment, signed: `payment.captured`, then `order.paid`. */
export async function postWebhooks(
  double: RazorpayDouble,
  server: RunningServer,
  orderId: string,
  paymentId: string,
): Promise<void> {
  const payment = double.payments.get(paymentId);
  const events: [string, { payment?: object; order?: object }][] = [
    ['payment.captured', { payment }],
    ['order.paid', { order: double.orders.get(orderId), payment }],
  ];
  for (const [event, entities] of events) {
    const hook = double.webhook(event, entities);
    const res = await fetch(`${server.url}/api/payments/razorpay/webhook`, {
      method: 'POST',
      headers: hook.headers,
      body: hook.body,
    });
    expect(res.status, `${event}: ${await res.clone().text()}`).toBe(200);
  }
}

/** The checkout filled in and paid online: Place Order, which asks for the provider order and opens Checkout. */
export async function startOnlinePayment(page: Page): Promise<void> {
  await page.goto('/checkout');
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  await fillAddress(page);
  const online = page.getByRole('radio', { name: /Pay online/ });
  await expect.poll(() => online.isEnabled()).toBe(true);
  await expect
    .poll(async () => page.locator(`[id="${await online.getAttribute('aria-describedby')}"]`).textContent())
    .toBe(t.onlineNote);
  await online.check();
  await page.getByRole('button', { name: 'Place Order' }).click();
}

/** A table of the device's database, read through the page. */
export async function rowsOf<T>(page: Page, store: 'cart' | 'payments' | 'outbox'): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result as T[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

/** What the double holds of one provider order: the money taken (rupees) and the refunds made. */
export function moneyOf(double: RazorpayDouble, orderId: string): { taken: number; refunds: number } {
  const payments = [...double.payments.values()].filter((p) => p.order_id === orderId);
  const ids = new Set(payments.map((p) => p.id));
  return {
    taken: payments.filter((p) => p.captured).reduce((sum, p) => sum + p.amount, 0) / 100,
    refunds: [...double.refunds.values()].filter((r) => ids.has(r.payment_id)).length,
  };
}
