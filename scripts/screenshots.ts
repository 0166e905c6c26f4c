/**
 * Screenshots of every screen of the shop, in real Chromium against the real
 * server (the PWA built into a temp folder, the demo catalogue, the test SMTP
 * server for the shopper's registration code), so the team can look at each
 * screen: the shopper's phone (412 and 320 px wide) online and offline, and
 * the admin area at laptop and phone size. Each shot waits for the screen's
 * own content (a heading, its cards or rows), then for its pictures.
 *
 *   npx tsx scripts/screenshots.ts [outDir]    (default /tmp/shots/all)
 *
 * Files are named `<size>-<online|offline>-<screen>.png`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LoginData } from '../domain/accounts.js';
import { adminMessages } from '../domain/admin-messages.js';
import { checkoutMessages as t } from '../domain/checkout-messages.js';
import { storefrontMessages } from '../domain/messages.js';
import {
  buildWeb,
  feedSnapshot,
  launchChromium,
  type RunningServer,
  startServer,
  tempDir,
  waitForController,
} from '../tests/support/e2e.js';
import {
  cartLine,
  fillAddress,
  outboxRows,
  putRows,
  registerShopper,
  waitForStore,
  writeSession,
} from '../tests/support/shopper.js';
import { startSmtp, type TestSmtp } from '../tests/support/smtp.js';

const outDir = path.resolve(process.argv[2] ?? '/tmp/shots/all');

const PHONE = { width: 412, height: 823 };
const PHONE_320 = { width: 320, height: 700 };
const LAPTOP = { width: 1280, height: 800 };

type FeedProduct = Awaited<ReturnType<typeof feedSnapshot>>['products'][number];
type Mode = 'online' | 'offline';

const written: string[] = [];

/** Polls `check` until it is true (the screens fill from IndexedDB and the network, on their own time). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Once the screen's content is there: the fonts, then every picture. The page is
 * walked down one screen at a time so lazy images start loading (a full-page shot
 * does not scroll), and the pictures get at most 10 s between them.
 */
async function settle(page: Page): Promise<void> {
  // No named functions inside: tsx would wrap them in a helper (__name) the page does not have.
  await page.evaluate(async () => {
    await document.fonts.ready;
    const root = document.documentElement;
    for (let y = 0; y < root.scrollHeight; y += window.innerHeight) {
      window.scrollTo({ top: y, behavior: 'instant' });
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    }
    // The footer's code loads as the page nears it (web/components/FooterSlot.tsx): wait for it, as a
    // shopper who scrolled down would see it.
    const footerBy = Date.now() + 5_000;
    while (document.querySelector('.footer-slot') && Date.now() < footerBy) {
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    const loaded = Promise.all(
      [...document.images]
        .filter((img) => !img.complete)
        .map(
          (img) =>
            new Promise<void>((resolve) => {
              img.addEventListener('load', () => resolve(), { once: true });
              img.addEventListener('error', () => resolve(), { once: true });
            }),
        ),
    );
    await Promise.race([loaded, new Promise<void>((resolve) => setTimeout(resolve, 10_000))]);
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}

async function shoot(
  page: Page,
  size: string,
  mode: Mode,
  screen: string,
  ready: () => Promise<void>,
): Promise<void> {
  try {
    await ready();
  } catch (err) {
    // Keep the shot (it shows what was there instead) and say so.
    console.warn(`! ${size}-${mode}-${screen}: ${(err as Error).message.split('\n')[0]}`);
  }
  await settle(page);
  const file = path.join(outDir, `${size}-${mode}-${screen}.png`);
  await page.screenshot({ path: file, fullPage: true });
  written.push(file);
  console.log(`  ${path.basename(file)}`);
}

/** Opens a path and shoots it once `ready` says its content is shown. */
async function visit(
  page: Page,
  size: string,
  mode: Mode,
  screen: string,
  url: string,
  ready: () => Promise<void>,
): Promise<void> {
  await page.goto(url);
  await shoot(page, size, mode, screen, ready);
}

const heading = (page: Page, name: string | RegExp) => () =>
  page.getByRole('heading', { level: 1, name }).first().waitFor();
const visible = (page: Page, selector: string) => () =>
  page.locator(selector).filter({ visible: true }).first().waitFor();
const both =
  (...steps: (() => Promise<unknown>)[]) =>
  async () => {
    for (const step of steps) await step();
  };
const cartHas = (page: Page, n: number) => () =>
  until(`${n} cart lines`, async () => (await page.locator('.lines li').count()) === n);

/** The admin's login data, from the real login endpoint (as the admin e2e gets it). */
async function adminLogin(server: RunningServer): Promise<LoginData> {
  const res = await fetch(`${server.url}/api/LoginCustomer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: server.adminEmail, password: server.adminPassword }),
  });
  const json = (await res.json()) as { isSuccess: boolean; data: LoginData; sys_message: string };
  if (!json.isSuccess) throw new Error(`admin login: ${res.status} ${json.sys_message}`);
  return json.data;
}

async function phoneContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport: PHONE,
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
}

/** Every shopper screen: as a guest, signed in (with one order placed through checkout), at 320 px, offline. */
async function shopperScreens(
  browser: Browser,
  server: RunningServer,
  shopper: LoginData,
  products: FeedProduct[],
): Promise<number> {
  const context = await phoneContext(browser, server.url);
  try {
    const page = await context.newPage();
    const [first, second] = products as [FeedProduct, FeedProduct];
    const fillCart = () =>
      putRows(page, 'cart', [cartLine(first, Date.now()), cartLine(second, Date.now() + 1)]);
    const category = first.categories[0]?.categoryName ?? 'Cakes';
    const cards = visible(page, 'main article.card');
    const S = 'phone';

    await page.goto('/home');
    await waitForController(page);
    await waitForStore(page);

    console.log('Shopper, phone, guest:');
    await visit(page, S, 'online', 'home', '/home', cards);
    await visit(page, S, 'online', 'products', '/products', both(heading(page, 'All Products'), cards));
    await visit(
      page,
      S,
      'online',
      'category',
      `/products-by-category/${encodeURIComponent(category)}`,
      both(heading(page, category), cards),
    );
    await visit(
      page,
      S,
      'online',
      'product',
      `/products-details/${first.productID}`,
      heading(page, first.title),
    );
    await visit(page, S, 'online', 'search', '/search?q=cake', both(heading(page, /cake/i), cards));
    await fillCart();
    await visit(page, S, 'online', 'cart', '/cart', both(heading(page, 'Your Cart'), cartHas(page, 2)));
    await visit(page, S, 'online', 'about-us', '/about-us', heading(page, 'About us'));
    await visit(page, S, 'online', 'contact', '/contact', heading(page, 'Contact us'));
    await visit(page, S, 'online', 'login', '/login', heading(page, 'Login'));
    await visit(page, S, 'online', 'register', '/register', heading(page, 'Create an account'));
    await visit(page, S, 'online', 'otp', '/otp', heading(page, 'Verify your email'));
    await visit(page, S, 'online', 'forget-password', '/forget-password', heading(page, 'Forgot password'));
    await visit(
      page,
      S,
      'online',
      'verify-reset-otp',
      '/verify-reset-otp?email=x@example.test',
      heading(page, 'Reset password'),
    );
    await visit(
      page,
      S,
      'online',
      'not-found',
      '/no-such-page',
      heading(page, storefrontMessages.pageNotFound),
    );

    console.log('Shopper, phone, signed in:');
    await writeSession(page, shopper);
    await visit(page, S, 'online', 'my-profile', '/my-profile', async () => {
      await heading(page, 'My Profile')();
      await until('the profile', async () => (await page.getByLabel('Name').inputValue()) !== '');
    });
    await page.goto('/checkout');
    await heading(page, t.heading)();
    await fillAddress(page);
    await shoot(page, S, 'online', 'checkout', visible(page, '.co-summary'));
    // The slot picker with Midnight chosen: its surcharge is a line of the summary.
    await page.getByRole('radio', { name: /Midnight/ }).check();
    await shoot(page, S, 'online', 'checkout-slot-picker', visible(page, '.co-slots'));
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL('**/order-success**', { timeout: 20_000 });
    await shoot(page, S, 'online', 'order-success', () =>
      page.getByRole('heading', { name: t.successTitle }).waitFor({ timeout: 20_000 }),
    );
    const orderId = (await outboxRows(page)).find((r) => r.placed)?.placed?.orderID;
    if (!orderId) throw new Error('the order placed through checkout has no order id');
    await visit(
      page,
      S,
      'online',
      'my-orders',
      '/my-orders',
      both(heading(page, 'Your Orders'), visible(page, '.orders__card, .orders__table tbody tr'), () =>
        page.getByTestId('orders-fetched').waitFor(),
      ),
    );

    // The order's own page: its timeline, lines, delivery and figures.
    await visit(
      page,
      S,
      'online',
      'my-order',
      `/my-orders/${orderId}`,
      both(heading(page, `Order #${orderId}`), visible(page, '.order-timeline'), () =>
        page.getByTestId('order-fetched').waitFor(),
      ),
    );

    // The order emptied the cart: fill it again for the narrow and offline cart and checkout.
    await fillCart();
    console.log('Shopper, phone 320 px, signed in:');
    await page.setViewportSize(PHONE_320);
    const N = 'phone-320';
    await visit(page, N, 'online', 'home', '/home', cards);
    await visit(page, N, 'online', 'cart', '/cart', both(heading(page, 'Your Cart'), cartHas(page, 2)));
    await visit(
      page,
      N,
      'online',
      'checkout',
      '/checkout',
      both(heading(page, t.heading), visible(page, '.co-summary')),
    );
    await page.setViewportSize(PHONE);

    console.log('Shopper, phone, offline:');
    // Every one of these was opened online above, so the worker has the pages and the device its data.
    await context.setOffline(true);
    try {
      await visit(page, S, 'offline', 'home', '/home', cards);
      await visit(page, S, 'offline', 'cart', '/cart', both(heading(page, 'Your Cart'), cartHas(page, 2)));
      await visit(
        page,
        S,
        'offline',
        'my-orders',
        '/my-orders',
        both(heading(page, 'Your Orders'), visible(page, '.orders__card, .orders__table tbody tr')),
      );
      await visit(
        page,
        S,
        'offline',
        'my-order',
        `/my-orders/${orderId}`,
        both(heading(page, `Order #${orderId}`), visible(page, '.order-timeline')),
      );
      await visit(
        page,
        S,
        'offline',
        'checkout',
        '/checkout',
        both(heading(page, t.heading), visible(page, '.co-summary')),
      );
    } finally {
      await context.setOffline(false);
    }
    return orderId;
  } finally {
    await context.close();
  }
}

/** The admin area at one size; offline too when `offline` (through the sidebar, as the admin e2e does). */
async function adminScreens(
  browser: Browser,
  server: RunningServer,
  admin: LoginData,
  size: 'laptop' | 'phone',
  orderId: number,
  productId: number,
  offline: boolean,
): Promise<void> {
  const context =
    size === 'phone'
      ? await phoneContext(browser, server.url)
      : await browser.newContext({
          baseURL: server.url,
          viewport: LAPTOP,
          locale: 'en-IN',
          timezoneId: 'Asia/Kolkata',
        });
  try {
    const page = await context.newPage();
    await page.goto('/home');
    await waitForStore(page);
    await writeSession(page, admin);
    const rows = visible(page, 'main tbody tr');
    console.log(`Admin, ${size}:`);
    await visit(
      page,
      size,
      'online',
      'dashboard',
      '/dashboard',
      both(heading(page, 'Dashboard'), () => page.getByTestId('products').waitFor()),
    );
    await visit(
      page,
      size,
      'online',
      'all-admin-orders',
      '/all-admin-orders',
      both(heading(page, 'All User Orders'), rows),
    );
    await visit(
      page,
      size,
      'online',
      'admin-order',
      `/admin-orders/${orderId}`,
      both(heading(page, `Order #${orderId}`), visible(page, '.admin-timeline li')),
    );
    await visit(
      page,
      size,
      'online',
      'category-list',
      '/category-list',
      both(heading(page, 'Category List'), rows),
    );
    await visit(page, size, 'online', 'add-new-category', '/add-new-category', heading(page, 'Add Category'));
    await visit(
      page,
      size,
      'online',
      'product-list',
      '/product-list',
      both(heading(page, 'Product List'), rows),
    );
    await visit(
      page,
      size,
      'online',
      'add-product',
      '/add-product',
      both(heading(page, 'Add Product'), () => page.getByLabel('Title').waitFor()),
    );
    await visit(
      page,
      size,
      'online',
      'backups',
      '/backups',
      both(heading(page, 'Backups'), () => page.getByTestId('backup-schedule').waitFor()),
    );
    await visit(page, size, 'online', 'delivery-slots', '/delivery-slots', heading(page, 'Delivery slots'));
    await visit(page, size, 'online', 'edit-product', `/edit-products/${productId}`, async () => {
      await heading(page, `Edit Product #${productId}`)();
      await until(
        'the product in the form',
        async () => (await page.getByLabel('Title').inputValue()) !== '',
      );
    });
    if (!offline) return;

    console.log(`Admin, ${size}, offline:`);
    await context.setOffline(true);
    try {
      const side = page.locator('#admin-sidebar');
      const notice = () => page.getByText(adminMessages.needsConnection).first().waitFor();
      await side.getByRole('link', { name: 'Dashboard' }).click();
      await shoot(page, size, 'offline', 'dashboard', both(heading(page, 'Dashboard'), notice));
      await side.getByRole('link', { name: 'Product List' }).click();
      await shoot(page, size, 'offline', 'product-list', both(heading(page, 'Product List'), notice));
    } finally {
      await context.setOffline(false);
    }
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(outDir, { recursive: true });
  let smtp: TestSmtp | undefined;
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const webDir = tempDir('shots-web');
  try {
    smtp = await startSmtp();
    console.log('Building the web app...');
    await buildWeb(webDir);
    server = await startServer({ webDir, env: { SMTP_URL: smtp.url } });
    console.log(`Server at ${server.url}`);
    const shopper = await registerShopper(server, smtp, `shots-${Date.now()}@example.test`);
    const admin = await adminLogin(server);
    const products = (await feedSnapshot(server)).products.filter((p) => p.price > 0);
    if (products.length < 2) throw new Error('the demo catalogue has fewer than 2 priced products');
    browser = await launchChromium();

    const orderId = await shopperScreens(browser, server, shopper, products);
    const productId = (products[0] as FeedProduct).productID;
    await adminScreens(browser, server, admin, 'laptop', orderId, productId, true);
    await adminScreens(browser, server, admin, 'phone', orderId, productId, false);

    console.log(
      `\nWrote ${written.length} screenshots to ${outDir} in ${Math.round((Date.now() - started) / 1000)} s:`,
    );
    for (const file of written) console.log(file);
    console.log(`Total: ${written.length} files`);
  } catch (err) {
    // The server's warnings and errors (its request log is left out), for the cause.
    const problems = server
      ?.output()
      .split('\n')
      .filter((line) => !/^\{"level":[123]0,/.test(line))
      .slice(-40);
    if (problems?.length) console.error(`Server output (warnings, errors):\n${problems.join('\n')}`);
    throw err;
  } finally {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    rmSync(webDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
