/**
 * Browser tests run the real thing: the PWA built by Vite into a temp folder,
 * the real server (`tsx api/server.ts`) on a port the OS hands out, with its own
 * SQLite file and the demo catalogue, and the system Chromium. Nothing here
 * mocks the network; `context.setOffline(true)` cuts it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { Product } from '../../domain/catalogue.js';
import { guardBrowser } from './csp-guard.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');

/** The ways to give the browser tests a Chromium, named whenever none is found. */
export const NO_BROWSER_MESSAGE =
  'The browser tests need Chromium, and none was found. Any one of these works:\n' +
  '  1. CHROMIUM_PATH=/path/to/chromium (any Chromium or Google Chrome executable);\n' +
  '  2. chromium, chromium-browser or google-chrome on the PATH (Debian: apt-get install chromium);\n' +
  "  3. Playwright's own browser: npx playwright-core install chromium";

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * Where the browser tests' Chromium is: CHROMIUM_PATH, else `chromium`, `chromium-browser` or
 * `google-chrome` on the PATH, else Playwright's installed browser; null when there is none.
 * A CHROMIUM_PATH that names no executable is an error of its own: a typo must not quietly run
 * another browser.
 */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  playwrightBrowser: () => string = () => chromium.executablePath(),
): string | null {
  const named = env.CHROMIUM_PATH?.trim();
  if (named) {
    if (!isExecutable(named)) throw new Error(`CHROMIUM_PATH=${named} is not an executable file.`);
    return named;
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  let installed = '';
  try {
    installed = playwrightBrowser();
  } catch {
    // Playwright names no browser for this platform.
  }
  return installed && isExecutable(installed) ? installed : null;
}

let found: string | undefined;
/** The browser every browser test and bench launches; stops with NO_BROWSER_MESSAGE when there is none. */
export function chromiumPath(): string {
  found ??= findChromium() ?? undefined;
  if (!found) throw new Error(NO_BROWSER_MESSAGE);
  return found;
}
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-gpu',
];

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `storefront-${prefix}-`));
}

/**
 * Builds the PWA (page and worker) into `outDir`; `env` can change what the build bakes in.
 * Most browser test files want the same build: each distinct build is made once per run and
 * copied (see `webBuildKey`), so a file pays for a Vite build only when it asks for its own.
 */
export async function buildWeb(outDir: string, env: Record<string, string> = {}): Promise<string> {
  const cached = path.join(BUILD_CACHE, webBuildKey(env));
  if (!existsSync(cached)) {
    mkdirSync(BUILD_CACHE, { recursive: true });
    const fresh = mkdtempSync(`${cached}.partial-`);
    await run(path.join(BIN, 'vite'), ['build', '--outDir', fresh, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      // Vitest sets NODE_ENV=test, which would make Vite build a non-production bundle (no worker).
      env: { ...process.env, NODE_ENV: 'production', ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    // Complete or absent: a build cut off half-way is never taken for a finished one.
    try {
      renameSync(fresh, cached);
    } catch {
      rmSync(fresh, { recursive: true, force: true }); // another run finished the same build first
    }
  }
  // A copy per caller: tests rebuild into their folder (a deploy) or change files in it.
  rmSync(outDir, { recursive: true, force: true });
  cpSync(cached, outDir, { recursive: true });
  return outDir;
}

const BUILD_CACHE = path.join(tmpdir(), 'storefront-web-builds');
/** What a build reads besides node_modules: a change to any of these is a new build. */
const BUILD_INPUTS = ['web', 'sw', 'domain', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];

/**
 * A build's name: the env it was asked with and every input file's path, size and modification
 * time, so an edit between two runs (or during one) never serves an old build.
 */
function webBuildKey(env: Record<string, string>): string {
  const hash = createHash('sha256').update(JSON.stringify(Object.entries(env).sort()));
  const walk = (rel: string): void => {
    const full = path.join(ROOT, rel);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) walk(path.join(rel, name));
      return;
    }
    hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
  };
  for (const input of BUILD_INPUTS) walk(input);
  return hash.digest('hex').slice(0, 24);
}

/**
 * A port the OS has just handed out, for a test's server or proxy. Not a shared range scanned for a
 * free one: test files that start servers side by side (the browser tests, API tests that start real
 * processes, a second checkout's run on the same machine) could each find the same port free between
 * the check and the bind, and one server then answered the other's health check and died. The OS
 * hands out ephemeral ports in turn, so a port just closed is not handed out again at once (a test that
 * restarts its server on its own port keeps it).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  /** Server output so far, for a failing test's message. */
  output(): string;
  /** Stops and starts the server on the same port and data (a deploy: it serves the files of a new build). */
  restart(): Promise<void>;
  /** Sends SIGTERM, as a deploy or a scale-down does, and resolves with the exit code (no SIGKILL). */
  terminate(): Promise<number | null>;
  stop(): Promise<void>;
}

export async function startServer(
  options: { webDir: string; env?: Record<string, string> } & { port?: number; dataDir?: string },
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  // A folder the caller gives (a restored one) is the caller's to remove; one made here is removed at stop.
  const ownData = !options.dataDir;
  const dataDir = options.dataDir ?? tempDir('data');
  const adminEmail = 'e2e-admin@example.test';
  const adminPassword = 'E2e-admin-Passw0rd!';
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  let child: ChildProcess | null = null;
  let exited: Promise<number | null> = Promise.resolve(null);

  const halt = async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };

  const launch = async () => {
    const proc = spawn(path.join(BIN, 'tsx'), ['api/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        WEB_DIR: options.webDir,
        NODE_ENV: 'test',
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: adminPassword,
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: '',
        // The checkout's online payment runs through the local test provider, asked for by name.
        TEST_PAYMENTS: 'true',
        // A shop's own password cost, not the API tests' cheaper one: the checkout's 401 test races
        // a late answer of the page's session check when logins are much faster.
        STOREFRONT_TEST_SCRYPT_N: '',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout?.on('data', (d) => {
      log += String(d);
    });
    proc.stderr?.on('data', (d) => {
      log += String(d);
    });
    exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`The server exited (${proc.exitCode}):\n${log}`);
      try {
        const res = await fetch(`${url}/api/health`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        await halt();
        throw new Error(`The server did not answer /api/health within 60 s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const stop = async () => {
    await halt();
    if (ownData) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (err) {
    if (ownData) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    dataDir,
    adminEmail,
    adminPassword,
    output: () => log,
    restart: async () => {
      await halt();
      await launch();
    },
    terminate: async () => {
      child?.kill('SIGTERM');
      return exited;
    },
    stop,
  };
}

/** Chromium whose every context reports Content-Security-Policy violations (tests/support/csp-guard.ts). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
  return guardBrowser(browser);
}

/**
 * Chromium with a remote-debugging port, as Lighthouse wants it (the benches
 * score pages in it); its own profile folder, which the caller removes.
 */
export async function startDebuggableChromium(): Promise<{ port: number; proc: ChildProcess; dir: string }> {
  const port = await freePort();
  const dir = tempDir('lh-profile');
  const proc = spawn(
    chromiumPath(),
    [
      ...CHROMIUM_ARGS,
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${dir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return { port, proc, dir };
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error('Chromium did not open its debugging port');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The phone the screens are judged at (412x823, one device pixel per CSS pixel). */
export const GUIDE_PHONE = { width: 412, height: 823, deviceScaleFactor: 1 } as const;

/**
 * A phone-sized context, as most shoppers use (service workers are allowed by default): India's
 * locale and time zone, touch, and by default a 390x844 screen at two device pixels per CSS pixel.
 */
export async function phoneContext(
  browser: Browser,
  baseURL: string,
  screen: { width: number; height: number; deviceScaleFactor: number } = {
    width: 390,
    height: 844,
    deviceScaleFactor: 2,
  },
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
}

/** Waits until a service worker controls the page (the first visit's worker claims it). */
export async function waitForController(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: timeoutMs,
    polling: 100,
  });
}

/** Fills in and submits the password login form of the page, which must be on /login (or about to be). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Every product on the device, in id order, read through the page from its chunk rows (sw/product-chunks.ts). */
export async function deviceProducts<T = Product & { categoryIds: number[] }>(page: Page): Promise<T[]> {
  return page.evaluate(
    () =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains('productChunks')) {
            idb.close();
            resolve([]);
            return;
          }
          const req = idb.transaction('productChunks').objectStore('productChunks').getAll();
          req.onsuccess = () => {
            idb.close();
            resolve((req.result as { products: T[] }[]).flatMap((c) => c.products));
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

/** Reads the device's IndexedDB through the page (the same database the screens read). */
export async function deviceCounts(
  page: Page,
): Promise<{ products: number; categories: number; images: number; lastSyncedAt: number | null }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const idb = open.result;
          const names = ['productChunks', 'categories', 'images', 'meta'].filter((n) =>
            idb.objectStoreNames.contains(n),
          );
          if (names.length < 4) {
            idb.close();
            resolve({ products: 0, categories: 0, images: 0, lastSyncedAt: null });
            return;
          }
          const tx = idb.transaction(names, 'readonly');
          const out = { products: 0, categories: 0, images: 0, lastSyncedAt: null as number | null };
          // Products are stored a hundred to a row (sw/product-chunks.ts).
          tx.objectStore('productChunks').getAll().onsuccess = (e) => {
            const chunks = (e.target as IDBRequest<{ products: unknown[] }[]>).result;
            out.products = chunks.reduce((n, c) => n + c.products.length, 0);
          };
          tx.objectStore('categories').count().onsuccess = (e) => {
            out.categories = (e.target as IDBRequest<number>).result;
          };
          tx.objectStore('images').count().onsuccess = (e) => {
            out.images = (e.target as IDBRequest<number>).result;
          };
          tx.objectStore('meta').get('lastSyncedAt').onsuccess = (e) => {
            const row = (e.target as IDBRequest<{ value: unknown } | undefined>).result;
            out.lastSyncedAt = typeof row?.value === 'number' ? row.value : null;
          };
          tx.oncomplete = () => {
            idb.close();
            resolve(out);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** Logs the server's admin in through the real login endpoint. */
export async function adminToken(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/api/LoginCustomer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: server.adminEmail, password: server.adminPassword }),
  });
  const body = (await res.json()) as {
    isSuccess: boolean;
    data: { token: string } | null;
    sys_message: string;
  };
  if (!body.isSuccess || !body.data) throw new Error(`Admin login failed: ${res.status} ${body.sys_message}`);
  return body.data.token;
}

/** A product as the catalogue feed serves it. */
export interface FeedProduct {
  productID: number;
  title: string;
  price: number;
  categories: { categoryID: number; categoryName: string }[];
  images: { src: string; thumb: string }[];
  sizeOrWeight: string;
  variations: { variationID: number; variationName: string; variationValue: string; price: number }[];
  /** An order of a photo cake needs its photo and a day's notice. */
  takesMessage: boolean;
  photoCake: boolean;
}

/** Everything the feed has now (follows its pages). */
export async function feedSnapshot(server: RunningServer): Promise<{
  products: FeedProduct[];
  categories: { categoryID: number; categoryName: string }[];
}> {
  const products: FeedProduct[] = [];
  const categories: { categoryID: number; categoryName: string }[] = [];
  let since: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const q = new URLSearchParams({ limit: '1000' });
    if (since) q.set('since', since);
    const res = await fetch(`${server.url}/api/sync/catalogue?${q}`);
    const body = (await res.json()) as {
      data: { cursor: string; hasMore: boolean; products: FeedProduct[]; categories: typeof categories };
    };
    products.push(...body.data.products);
    categories.push(...body.data.categories);
    if (!body.data.hasMore) break;
    since = body.data.cursor;
  }
  return { products, categories };
}

/** Changes a product's price through the admin API, as the dashboard's edit form does. */
export async function setPrice(
  server: RunningServer,
  token: string,
  productID: number,
  price: number,
): Promise<void> {
  const res = await fetch(`${server.url}/api/GetProductById/${productID}`);
  const body = (await res.json()) as { data: Record<string, unknown> };
  const update = await fetch(`${server.url}/api/UpdateProductDetails`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body.data, price }),
  });
  if (!update.ok) throw new Error(`UpdateProductDetails: ${update.status} ${await update.text()}`);
}

/** Scrolls down as a shopper does until the footer (loaded as it nears the viewport) is on the page. */
export async function scrollToFooter(page: Page, timeoutMs = 15_000): Promise<Locator> {
  const footer = page.locator('footer.footer');
  const until = Date.now() + timeoutMs;
  while ((await footer.count()) === 0) {
    if (Date.now() > until)
      throw new Error(`no footer on ${page.url()} after scrolling down for ${timeoutMs} ms`);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
  }
  return footer;
}
