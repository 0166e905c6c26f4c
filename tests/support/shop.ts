/**
 * The browser tests' shared fixture: `openShop` starts the shop as a browser test needs it (the
 * PWA built, the real server on its own data, a test SMTP server if asked, shoppers registered, the
 * admin logged in, Chromium launched, a shopper's phone open) and hands back every handle and one
 * `close()`; `axe` (or `axeViolations`), `signIn` and `forSale` are the checks and steps those
 * tests repeat.
 *
 *   let shop: Shop;
 *   beforeAll(async () => {
 *     shop = await openShop({ smtp: true, shoppers: [email], admin: true, phone: true });
 *   });
 *   afterAll(() => shop?.close());
 *
 * The build is Vite's, once per distinct build env for the whole run (`buildWeb` keeps finished
 * builds and copies one to each caller), so a file pays for a build only when it asks for its own.
 * Underneath: `e2e.ts` has the parts (build, server, Chromium, phone contexts, the device's
 * IndexedDB, the feed) and `shopper.ts` what a shopper does (register, log in, the session, the
 * cart and outbox rows, the chaos proxy). A file that needs another shape of shop (its own
 * production server, several processes) uses those parts directly.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import {
  buildWeb,
  type FeedProduct,
  feedSnapshot,
  launchChromium,
  type RunningServer,
  startServer,
  tempDir,
} from './e2e.js';
import {
  login,
  openShopOnPhone,
  registerShopper,
  registerShopperByMailFolder,
  waitForStore,
  writeSession,
} from './shopper.js';
import { startSmtp, type TestSmtp } from './smtp.js';

export interface ShopOptions {
  /** Settings of the server on top of `startServer`'s (SMTP_URL is set when `smtp` is on). */
  env?: Record<string, string>;
  /** A data folder the test prepared (a seeded catalogue); the test's to remove. Else a fresh one. */
  dataDir?: string;
  /** What the build bakes in (VITE_* settings, NODE_ENV): a distinct env is a build of its own. */
  build?: Record<string, string>;
  /** A test SMTP server catching the shop's mail; without one the mail goes to `DATA_DIR/mail`. */
  smtp?: boolean;
  /**
   * Shoppers to register and verify, by email (a name too if it matters), in order: through the
   * mailed code when `smtp` is on, else through the code in the mail folder.
   */
  shoppers?: (string | { email: string; name?: string })[];
  /** Logs the server's admin in through the login endpoint. */
  admin?: boolean;
  /** Opens the shop on a shopper's phone (`openShopOnPhone`: worker in control, catalogue on the device). */
  phone?: boolean;
}

export interface Shop {
  server: RunningServer;
  browser: Browser;
  /** The build the server serves (a test may rebuild into it, as a deploy does). */
  webDir: string;
  /** A folder of the shop's for the test's own files, removed at close. */
  dir: string;
  /** The test SMTP server; only with `smtp: true`. */
  smtp: TestSmtp;
  /** The registered shoppers, in the order asked. */
  shoppers: LoginData[];
  /** The first of them, for the files that need one. */
  shopper: LoginData;
  /** The admin's session; only with `admin: true`. */
  admin: LoginData;
  /** The shopper's phone; only with `phone: true`. */
  phone: { context: BrowserContext; page: Page };
  /** Everything the catalogue feed has now. */
  feed(): ReturnType<typeof feedSnapshot>;
  /** Closes the browser and stops the servers; removes the shop's folders. */
  close(): Promise<void>;
}

/** A handle that was not asked for says so, instead of being undefined somewhere later. */
function asked<T>(value: T | undefined, what: string, option: string): T {
  if (value === undefined) throw new Error(`This shop has no ${what}: open it with ${option}.`);
  return value;
}

export async function openShop(options: ShopOptions = {}): Promise<Shop> {
  const dir = tempDir('shop');
  // Undone in reverse on close, or at once when a later step of the set-up fails.
  const undo: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    let smtp: TestSmtp | undefined;
    if (options.smtp) {
      const started = await startSmtp();
      smtp = started;
      undo.push(() => started.close());
    }
    const webDir = await buildWeb(path.join(dir, 'web'), options.build);
    const server = await startServer({
      webDir,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      env: { ...(smtp ? { SMTP_URL: smtp.url } : {}), ...options.env },
    });
    undo.push(() => server.stop());
    const shoppers: LoginData[] = [];
    for (const shopper of options.shoppers ?? []) {
      const { email, name } = typeof shopper === 'string' ? { email: shopper, name: undefined } : shopper;
      shoppers.push(
        smtp
          ? await registerShopper(server, smtp, email, name)
          : await registerShopperByMailFolder(server, email),
      );
    }
    const admin = options.admin ? await login(server, server.adminEmail, server.adminPassword) : undefined;
    const browser = await launchChromium();
    undo.push(() => browser.close());
    const phone = options.phone ? await openShopOnPhone(browser, server.url) : undefined;
    return {
      server,
      browser,
      webDir,
      dir,
      get smtp() {
        return asked(smtp, 'mail server', '{ smtp: true }');
      },
      shoppers,
      get shopper() {
        return asked(shoppers[0], 'shopper', "{ shoppers: ['…'] }");
      },
      get admin() {
        return asked(admin, 'admin session', '{ admin: true }');
      },
      get phone() {
        return asked(phone, 'phone', '{ phone: true }');
      },
      feed: () => feedSnapshot(server),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Products a shopper can buy at a price (a price of 0 is "on request"), the first `count` of them. */
export function forSale<P extends Pick<FeedProduct, 'price'>>(products: P[], count?: number): P[] {
  return products.filter((p) => p.price > 0).slice(0, count);
}

/** axe-core's violations on the page as it is now, each as "rule: the elements it found". */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe-core on the page as it is now, with zero violations the rule; `what` names the screen in the failure. */
export async function axe(page: Page, what = page.url()): Promise<void> {
  expect(await axeViolations(page), `axe on ${what}`).toEqual([]);
}

/**
 * Signs the page in as `who`, as a login does: the shop opened once and its database made by the
 * app (a write before that would make an empty database of its own), then the session written.
 */
export async function signIn(page: Page, who: LoginData): Promise<void> {
  await page.goto('/home');
  await waitForStore(page);
  await writeSession(page, who);
}

/**
 * A browser context signed in as `who` (the shop's admin, mostly) at `size`, as a laptop or, with
 * `phone`, as a phone (touch, 2x): the admin screens' tests open their pages in it.
 */
export async function signedInContext(
  shop: Pick<Shop, 'browser' | 'server'>,
  who: LoginData,
  size: { width: number; height: number },
  { phone = false, acceptDownloads = false }: { phone?: boolean; acceptDownloads?: boolean } = {},
): Promise<BrowserContext> {
  const ctx = await shop.browser.newContext({
    baseURL: shop.server.url,
    viewport: size,
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    ...(acceptDownloads ? { acceptDownloads } : {}),
  });
  const p = await ctx.newPage();
  await signIn(p, who);
  await p.close();
  return ctx;
}
