import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../domain/account-messages.js';
import { messages } from '../../domain/messages.js';
import {
  feedSnapshot,
  GUIDE_PHONE,
  phoneContext,
  type RunningServer,
  submitLogin,
  waitForController,
} from '../support/e2e.js';
import { orderRequest } from '../support/order-fixtures.js';
import { axe as axeOn, openShop, type Shop } from '../support/shop.js';
import { codeIn, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * Accounts in real Chromium against the real server, every mail caught by
 * the test SMTP server: register, the mailed code, login, a reload, the
 * profile, logout, a forgotten password reset with the mailed code, a login
 * with the new one; forged and expired tokens; the shopper and admin guards;
 * checkout's "Please log in first." and the way back; My Orders offline; and
 * axe on every account screen and on Contact. One build, one server, one
 * browser for the file.
 */
let shop: Shop;
let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `e2e-shopper-${Date.now()}@example.test`;
const PASSWORD = 'Good-Pass1';
const NEW_PASSWORD = 'Fresh-Pass2';

const axe = (path: string) => axeOn(page, path);
const alertRegion = () => page.locator('.alerts');
async function says(text: string): Promise<void> {
  await alertRegion().getByText(text, { exact: true }).first().waitFor({ timeout: 30_000 });
}
async function storage(key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}
const login = (address: string, password: string) => submitLogin(page, address, password);
const header = () => page.getByRole('banner');
async function logoutFromHeader(): Promise<void> {
  // The menu's own toggle: its inert stand-in says "Account" too while the menu's code arrives.
  await header()
    .locator('summary', { hasText: /^Account$/ })
    .click();
  await header().getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

beforeAll(async () => {
  shop = await openShop({ smtp: true });
  ({ server, smtp, browser } = shop);
  context = await phoneContext(browser, server.url, GUIDE_PHONE);
  page = await context.newPage();
  page.on('console', (m) => {
    if (process.env.ACCOUNTS_E2E_CONSOLE) console.log('page:', m.type(), m.text());
  });
});
afterAll(() => shop?.close());

describe('a shopper account in the browser', () => {
  it('registers, verifies the mailed code (signed in by it), logs out and in, stays in across a reload, edits the profile and logs out', async () => {
    await page.goto('/home');
    await waitForController(page);
    await header().getByRole('link', { name: 'Login' }).click();
    await page.waitForURL('**/login');
    await axe('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/register');

    const submit = page.getByRole('button', { name: 'Register' });
    await page.getByLabel('Name').fill('Asha Verma');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Phone').fill('12');
    await page.getByLabel('Name').focus();
    // It looks disabled but stays in the tab order, described by what is still missing.
    expect(await submit.getAttribute('aria-disabled')).toBe('true');
    const needs = 'Still to fill in: Confirm password. Still to correct: Email, Password and Phone.';
    expect(await page.locator(`#${await submit.getAttribute('aria-describedby')}`).textContent()).toBe(needs);
    await page.getByText(messages.emailInvalid).waitFor();
    await page.getByText(messages.passwordMin).waitFor();
    await page.getByText(messages.phoneInvalid).waitFor();
    // The messages shown are part of the page axe checks (linked, readable, in contrast).
    await axe('/register (errors)');

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('Phone').fill('98765 43210');
    expect(await submit.getAttribute('aria-disabled')).toBeNull();
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    await says(messages.otpSent);
    await page.waitForURL('**/otp');
    await axe('/otp');
    const code = codeIn(await smtp.take(email));
    await page.getByLabel('OTP').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await says(messages.otpVerified);
    // The right code signs the shopper in: no empty Login form to fill again.
    await page.waitForURL('**/home');
    expect(await storage('isLoggedIn')).toBe('true');
    await logoutFromHeader();
    await login(email, PASSWORD);
    await page.waitForURL('**/home');
    expect(await storage('isLoggedIn')).toBe('true');
    await page.reload();
    await header().getByText('Account', { exact: true }).waitFor();
    expect(await header().getByRole('link', { name: 'Login' }).count()).toBe(0);

    // Right after a reload the menu's chunk may still be on its way (a tap can come before it):
    // tap again until it opens, as a shopper would.
    const profileLink = header().getByRole('link', { name: 'My Profile' });
    await expect
      .poll(
        async () => {
          if (!(await profileLink.isVisible()))
            await header()
              .locator('summary', { hasText: /^Account$/ })
              .click();
          return profileLink.isVisible();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    await profileLink.click();
    await page.waitForURL('**/my-profile');
    const name = page.getByLabel('Name');
    await expect.poll(() => name.inputValue()).toBe('Asha Verma');
    expect(await name.isDisabled()).toBe(true);
    await axe('/my-profile');
    await page.getByRole('button', { name: 'Edit' }).click();
    await name.fill('Asha V');
    await page.getByLabel('Phone').fill('+91 91234 56789');
    await page.getByLabel('Address', { exact: true }).fill('House 12, Sector 70, Mohali');
    await axe('/my-profile (editing)');
    await page.getByRole('button', { name: 'Save' }).click();
    await says(messages.profileUpdated);
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Asha V');
    expect(await page.getByLabel('Phone').inputValue()).toBe('9123456789');
    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe(
      'House 12, Sector 70, Mohali',
    );

    await logoutFromHeader();
    await says(messages.loggedOut);
    expect(await storage('token')).toBeNull();
    await header().getByRole('link', { name: 'Login' }).waitFor();
  });

  it('resets a forgotten password with the mailed code and logs in with the new one', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forget-password');
    await axe('/forget-password');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await page.waitForURL('**/verify-reset-otp?email=*');
    const code = codeIn(await smtp.take(email));
    await axe('/verify-reset-otp');
    await page.getByLabel('OTP').fill(code);
    await page.getByLabel('New Password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await says(messages.passwordResetDone);
    await page.waitForURL('**/login');
    await login(email, PASSWORD);
    await says(messages.loginFailed(messages.loginWrongCredentials));
    await login(email, NEW_PASSWORD);
    await page.waitForURL('**/home');
  });

  it('shows My Orders, and offline the history it fetched last, with when', async () => {
    // An order placed through the API (as the outbox would), so there is history.
    const token = (await storage('token')) ?? '';
    const product = (await feedSnapshot(server)).products.find((p) => p.price > 0);
    if (!product) throw new Error('no product in the demo catalogue');
    const res = await fetch(`${server.url}/api/place-order`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(
        orderRequest(
          [
            {
              product: { id: product.productID, title: product.title, price: product.price, variations: [] },
            },
          ],
          { CustomerEmail: email, CustomerPhone: '9123456789' },
        ),
      ),
    });
    const placed = (await res.json()) as { isSuccess: boolean; data: { orderID: number } };
    expect(placed.isSuccess).toBe(true);
    // The order's receipt comes by mail (api/orders/order-mail.ts).
    expect(textOf(await smtp.take(email))).toContain(`your order #${placed.data.orderID} is placed`);

    await header()
      .locator('summary', { hasText: /^Account$/ })
      .click();
    await header().getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/my-orders');
    await page.getByRole('heading', { name: 'Your Orders' }).waitFor();
    const card = page.locator('.orders__card').filter({ hasText: `Order #${placed.data.orderID}` });
    await card.waitFor();
    expect(await card.textContent()).toContain(product.title);
    expect(await card.textContent()).toMatch(/Placed/);
    await page.getByTestId('orders-fetched').waitFor();
    await axe('/my-orders');

    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Your Orders' }).waitFor();
      await page.getByText(/^You are offline\. These are your orders as of /).waitFor();
      await card.waitFor();
      await axe('/my-orders (offline)');
    } finally {
      await context.setOffline(false);
    }
  });

  it('sends a shopper away from the admin area, and the admin to /dashboard', async () => {
    await page.goto('/dashboard');
    await page.waitForURL('**/home');
    await logoutFromHeader();
    await login(server.adminEmail, server.adminPassword);
    await page.waitForURL('**/dashboard');
    await page.evaluate(() => localStorage.clear());
  });

  it('asks to log in first on /checkout and comes back to it after login', async () => {
    await page.goto('/checkout');
    await page.waitForURL('**/login');
    await says(messages.loginFirst);
    expect(await storage('returnUrl')).toBe('/checkout');
    await login(email, NEW_PASSWORD);
    await page.waitForURL('**/checkout');
    expect(await storage('returnUrl')).toBeNull();
  });

  it('removes a forged or expired token and goes to /login', async () => {
    const exp = Math.floor(Date.now() / 1000) - 60;
    const b64 = (x: object) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const expired = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', role: '0', exp })}.c2lnbmF0dXJl`;
    // A token made on the device (no server signature): well-formed and unexpired, so only the server can refuse it.
    const forged = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', role: '0', exp: exp + 7200 })}.Zm9yZ2Vk`;
    const seen: string[] = [];
    for (const [label, token] of [
      ['expired', expired],
      ['undecodable', 'garbage'],
      ['forged', forged],
    ] as const) {
      // From a document that runs none of the app (the API's health check, on the same origin): an app
      // page could call the API with the swapped token (the outbox, a sync) and rightly end the session
      // itself on the 401 before the guard saw the token, which is another path than the one tested here.
      await page.goto('/api/health');
      await page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('email', 'someone@example.test');
        localStorage.setItem('userId', '1');
      }, token);
      await page.goto('/my-profile');
      await page.waitForURL('**/login');
      const notice = alertRegion().getByText(accountMessages.sessionEnded, { exact: true }).first();
      const shown = await notice.waitFor({ timeout: 20_000 }).then(
        () => 'said',
        async () => `not said (alerts: ${await alertRegion().innerText()}; at ${page.url()})`,
      );
      seen.push(`${label}: ${shown}, token ${await storage('token')}, back to ${await storage('returnUrl')}`);
    }
    expect(seen).toEqual([
      'expired: said, token null, back to /my-profile',
      'undecodable: said, token null, back to /my-profile',
      'forged: said, token null, back to /my-profile',
    ]);
    await page.evaluate(() => localStorage.removeItem('returnUrl'));
  });

  it('a token the server refuses reaches /login on every guarded route, with or without the other keys', async () => {
    // Decodes and never expires, but signed by no one: only the server can refuse it. Alone it is what an
    // older client without the email key left; with the keys, a session the screens believe complete.
    const b64 = (x: object) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const refused = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', exp: 9999999999 })}.YmFkLXNpZ25hdHVyZQ`;
    const seen: string[] = [];
    for (const withKeys of [false, true]) {
      for (const route of ['/my-orders', '/my-profile', '/checkout', '/order-success?order=k-1']) {
        await page.goto('/api/health');
        await page.evaluate(
          ({ t, keys }) => {
            localStorage.clear();
            localStorage.setItem('token', t);
            if (keys) {
              localStorage.setItem('userId', '1');
              localStorage.setItem('email', 'someone@example.test');
              localStorage.setItem('phone', '9876543210');
            }
          },
          { t: refused, keys: withKeys },
        );
        await page.goto(route);
        const reached = await page.waitForURL('**/login', { timeout: 20_000 }).then(
          () => 'login',
          () => `stuck at ${new URL(page.url()).pathname}`,
        );
        const notice = alertRegion().getByText(accountMessages.sessionEnded, { exact: true }).first();
        const said = await notice.waitFor({ timeout: 20_000 }).then(
          () => 'said',
          () => 'not said',
        );
        seen.push(
          `${withKeys ? 'with keys' : 'token only'} ${route}: ${reached}, ${said}, token ${await storage('token')}, back to ${await storage('returnUrl')}`,
        );
      }
    }
    expect(seen).toEqual(
      [false, true].flatMap((withKeys) =>
        ['/my-orders', '/my-profile', '/checkout', '/order-success?order=k-1'].map(
          (route) =>
            `${withKeys ? 'with keys' : 'token only'} ${route}: login, said, token null, back to ${route}`,
        ),
      ),
    );
    await page.evaluate(() => localStorage.removeItem('returnUrl'));
  });

  it('has no axe findings on the login with a code and on Contact', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in with a code instead' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Login code').waitFor();
    await axe('/login (code)');
    const code = codeIn(await smtp.take(email));
    await page.getByLabel('Login code').fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/home');
    await page.goto('/contact');
    await page.getByRole('heading', { name: 'Contact us' }).waitFor();
    await axe('/contact');
  });
});
