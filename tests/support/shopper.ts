/**
 * The shopper's toolkit for browser tests, benches and the screenshot script: a shopper made
 * through the real account endpoints (code by SMTP or from the mail folder), their session written
 * into the page as `sw/session.ts` writes it, the checkout's address filled as a shopper fills it
 * (the pincode first), the device's cart and outbox read and written through the page, the shop's own count of orders, and a small HTTP proxy between the browser and the
 * server that can reset connections and lose the answer of a committed order.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { LoginData } from '../../domain/accounts.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { findArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { addDays } from '../../domain/india-time.js';
import type { OutboxRow } from '../../sw/outbox-row.js';
import { sessionKeys, sessionRow } from '../../sw/session-writes.js';
import {
  adminToken,
  freePort,
  GUIDE_PHONE,
  phoneContext,
  type RunningServer,
  waitForController,
} from './e2e.js';
import { orderRequest } from './order-fixtures.js';
import { codeIn, type TestSmtp } from './smtp.js';

/** The seeded delivery charge of 160062 (Mohali), the pincode the toolkit's orders go to. */
export const MOHALI_CHARGE = findArea(SEED_AREAS, '160062')?.charge ?? 0;

export const SHOPPER_PASSWORD = 'Shopper-Passw0rd!';

export async function registerShopper(
  server: RunningServer,
  smtp: TestSmtp,
  email: string,
  name = 'Asha Verma',
): Promise<LoginData> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { isSuccess: boolean; data: unknown; sys_message: string };
    if (!res.ok || !json.isSuccess) throw new Error(`${path}: ${res.status} ${json.sys_message}`);
    return json.data;
  };
  await post('CreateAccount', {
    name,
    email,
    password: SHOPPER_PASSWORD,
    confirmPassword: SHOPPER_PASSWORD,
    phone: '9876543210',
  });
  const code = codeIn(await smtp.take(email));
  await post('verifiedOtploginCustomer', { Email: email, Otp: code });
  return login(server, email);
}

/** Logs in through the real login endpoint (a shopper's password unless another is given). */
export async function login(
  server: RunningServer,
  email: string,
  password = SHOPPER_PASSWORD,
): Promise<LoginData> {
  const res = await fetch(`${server.url}/api/LoginCustomer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const json = (await res.json()) as { isSuccess: boolean; data: LoginData; sys_message: string };
  if (!json.isSuccess) throw new Error(`login: ${res.status} ${json.sys_message}`);
  return json.data;
}

/** Ends the session on the server only (the device still holds the token): its next request is a 401. */
export async function revokeOnServer(server: RunningServer, token: string, email: string): Promise<void> {
  const res = await fetch(`${server.url}/api/Logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) throw new Error(`Logout: ${res.status}`);
}

/**
 * Writes the session into the page as `saveSession` does: the spec's
 * localStorage keys and the Dexie `session` row (the worker reads that one).
 * The page must have opened the shop once and the app made its database (`waitForStore`): a
 * missing `session` store is an error here, not a wait that never ends.
 */
export async function writeSession(page: Page, data: LoginData): Promise<void> {
  await page.evaluate(
    async ({ values, row: r }) => {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
      // An arrow, not a nested function declaration: tsx names those with a helper the page does not have.
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          if (!open.result.objectStoreNames.contains('session')) {
            open.result.close();
            reject(new Error('The shop has not made its database yet: waitForStore first.'));
            return;
          }
          const tx = open.result.transaction('session', 'readwrite');
          tx.objectStore('session').put(r);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      });
    },
    { values: sessionKeys(data), row: sessionRow(data) },
  );
}

/**
 * The shopper's phone (`GUIDE_PHONE`) with the shop open at home, its worker in control and the
 * catalogue on the device: where the checkout and outbox tests start.
 */
export async function openShopOnPhone(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneContext(browser, baseURL, GUIDE_PHONE);
  const page = await context.newPage();
  await page.goto('/home');
  await waitForController(page);
  await waitForStore(page);
  return { context, page };
}

/** Waits until the page's Dexie schema exists (the app opened it). */
export async function waitForStore(page: Page): Promise<void> {
  // Asked from here, one look at a time: a predicate that returns a promise does not hold
  // `waitForFunction` (it passed before the app had started), and the app now starts a frame after
  // the shell paints, after the page's load.
  const made = () =>
    page.evaluate(async () => {
      // Opened only once the app has made it: opening a database that is not there makes an empty one.
      const all = await indexedDB.databases();
      if (!all.some((d) => d.name === 'storefront')) return false;
      return new Promise<boolean>((resolve) => {
        const open = indexedDB.open('storefront');
        open.onsuccess = () => {
          const ok = open.result.objectStoreNames.contains('outbox');
          open.result.close();
          resolve(ok);
        };
        open.onerror = () => resolve(false);
      });
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    // A look that a navigation cut short counts as not yet.
    if (await made().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('The app did not make its database within 30 s');
    await page.waitForTimeout(200);
  }
}

/** Puts raw rows into a store of the device's database through the page. */
export async function putRows(page: Page, store: 'cart' | 'outbox', rows: unknown[]): Promise<void> {
  await page.evaluate(
    ({ store, rows }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(store, 'readwrite');
          for (const r of rows) tx.objectStore(store).put(r);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { store, rows },
  );
}

export function outboxRows(page: Page): Promise<OutboxRow[]> {
  return rowsOf<OutboxRow>(page, 'outbox');
}

/** Every row of a store of the device's database, read through the page. */
export async function rowsOf<T>(page: Page, store: 'cart' | 'outbox' | 'payments'): Promise<T[]> {
  return page.evaluate(
    (store) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('storefront');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction(store).objectStore(store).getAll();
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

export interface AddressInput {
  /** Mohali's 160062 (₹150) unless another is given. */
  pincode?: string;
  /** Typed into Full Name; null leaves the field as it is (a prefilled or already typed name). */
  name?: string | null;
  address?: string;
  /** The address field's label: "Recipient's full shipping address" for a gift to someone else. */
  addressLabel?: string;
}

/**
 * Fills the checkout's address as a shopper does: the pincode first, then waits until the form
 * has looked it up and filled the City (the device's delivery areas), then the name and address.
 * Returns the City and State the pincode filled in.
 */
export async function fillAddress(
  page: Page,
  {
    pincode = '160062',
    name = 'Asha Verma',
    address = 'House 12, Sector 70, near the park, Mohali 160062',
    addressLabel = 'Full Shipping Address',
  }: AddressInput = {},
): Promise<{ city: string; state: string }> {
  await page.getByLabel('Pincode').fill(pincode);
  const city = page.getByLabel('City', { exact: true });
  const deadline = Date.now() + 30_000;
  // The areas come with the catalogue feed: on a fresh phone they may land a moment after the page.
  while (!(await city.inputValue())) {
    if (Date.now() > deadline) throw new Error(`the checkout did not fill the city from ${pincode}`);
    await page.waitForTimeout(100);
  }
  if (name !== null) await page.getByLabel('Full Name').fill(name);
  await page.getByLabel(addressLabel).fill(address);
  return {
    city: await city.inputValue(),
    state: await page.getByLabel('State', { exact: true }).inputValue(),
  };
}

/** A cart line of a product as the shop's cart stores it. */
export function cartLine(
  p: { productID: number; title: string; price: number; images?: { thumb: string }[] },
  addedAt: number,
) {
  return {
    key: `${p.productID}:base`,
    productID: p.productID,
    variationID: null,
    variationName: null,
    title: p.title,
    image: p.images?.[0]?.thumb ?? '',
    price: p.price,
    quantity: 1,
    addedAt,
  };
}

/** The shop's own count: orders per id for one shopper, from the admin's history (one row per line). */
export async function ordersOf(server: RunningServer, email: string): Promise<Map<number, number>> {
  const token = await adminToken(server);
  const res = await fetch(`${server.url}/api/GetAllUsersOrderHistory`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const json = (await res.json()) as { data: { orderID: number; userEmail: string; totalAmount: number }[] };
  const byId = new Map<number, number>();
  for (const row of json.data ?? []) {
    if (row.userEmail.toLowerCase() !== email.toLowerCase()) continue;
    byId.set(row.orderID, row.totalAmount);
  }
  return byId;
}

/**
 * An HTTP proxy in front of the server: the browser talks to it. It can
 * reset every connection (the phone thinks it is online; nothing gets
 * through) and lose the answer of the next N orders after the server
 * committed them (the connection is reset instead of answering).
 */
export interface ChaosProxy {
  url: string;
  port: number;
  /** Reset every request and new connection while true. */
  resetAll: boolean;
  /** Orders whose answer is lost after the server placed them. */
  loseAnswers: number;
  /** While set, every order is answered with this status by the proxy (the server never sees it). */
  orderStatus: number | null;
  lost: number;
  resets: number;
  /** Every order request that reached the proxy, with its idempotency key. */
  orderRequests: string[];
  close(): Promise<void>;
}

export async function startChaosProxy(target: RunningServer): Promise<ChaosProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const state: ChaosProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    resetAll: false,
    loseAnswers: 0,
    orderStatus: null,
    lost: 0,
    resets: 0,
    orderRequests: [],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
  const reset = (socket: Socket) => {
    state.resets += 1;
    socket.resetAndDestroy();
  };
  const proxy = http.createServer((req, res) => {
    if (state.resetAll) {
      reset(req.socket);
      return;
    }
    const isOrder = req.method === 'POST' && (req.url ?? '').startsWith('/api/place-order');
    if (isOrder) state.orderRequests.push(String(req.headers['idempotency-key'] ?? ''));
    if (isOrder && state.orderStatus !== null) {
      req.resume();
      res.writeHead(state.orderStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ isSuccess: false, data: null, sys_message: 'The shop is busy.' }));
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (isOrder && answer.statusCode === 200 && state.loseAnswers > 0) {
          state.loseAnswers -= 1;
          state.lost += 1;
          // The order is committed (the server answered 200); the phone never hears it.
          answer.resume();
          answer.on('end', () => reset(req.socket));
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => reset(req.socket));
    req.pipe(upstream);
  });
  proxy.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (state.resetAll) reset(socket);
  });
  proxy.keepAliveTimeout = 2_000;
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', () => resolve()));
  return state;
}

/**
 * An order as the checkout stores it in the outbox (the row format of
 * `sw/outbox-row.ts`), for tests that queue many orders without typing each
 * one: the senders and the network are under test, not the form.
 */
export function queuedRow(
  shopper: LoginData,
  product: { productID: number; title: string; price: number },
  key: string,
  createdAt: number,
): OutboxRow {
  const charge = MOHALI_CHARGE;
  const total = product.price + charge;
  return {
    v: 1,
    key,
    userId: shopper.veryOtpLoginID,
    email: shopper.email,
    state: 'queued',
    request: orderRequest(
      [{ product: { id: product.productID, title: product.title, price: product.price, variations: [] } }],
      { CustomerEmail: shopper.email, CustomerPhone: shopper.phone, CouponCode: null },
    ),
    figures: {
      subtotal: product.price,
      deliveryCharge: charge,
      slotCharge: 0,
      discount: 0,
      total,
      couponAmount: 0,
    },
    slot: null,
    createdAt,
    attempts: 0,
    nextAttemptAt: createdAt,
    lastError: null,
    placed: null,
    problem: null,
    refusedToken: null,
    announced: false,
    updatedAt: createdAt,
  };
}

/**
 * A shopper for a server without SMTP (the mail goes to `DATA_DIR/mail/*.eml`):
 * registered and verified with the code read from that folder.
 */
export async function registerShopperByMailFolder(server: RunningServer, email: string): Promise<LoginData> {
  const post = (p: string, body: unknown) =>
    fetch(`${server.url}/api/${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('CreateAccount', {
    name: 'Asha Verma',
    email,
    password: SHOPPER_PASSWORD,
    confirmPassword: SHOPPER_PASSWORD,
    phone: '9876543210',
  });
  const dir = path.join(server.dataDir, 'mail');
  const deadline = Date.now() + 30_000;
  let code: string | null = null;
  while (!code && Date.now() < deadline) {
    try {
      for (const name of readdirSync(dir)) {
        const raw = readFileSync(path.join(dir, name), 'utf8');
        if (!raw.toLowerCase().includes(email.toLowerCase())) continue;
        code = raw.match(/^Subject:.*?(\d{6})\s*$/im)?.[1] ?? null;
        if (code) break;
      }
    } catch {
      // The folder does not exist until the first mail.
    }
    if (!code) await new Promise((r) => setTimeout(r, 200));
  }
  if (!code) throw new Error(`no registration code for ${email} in ${dir}`);
  await post('verifiedOtploginCustomer', { Email: email, Otp: code });
  return login(server, email);
}

type BenchProduct = { productID: number; title: string; price: number; images?: { thumb: string }[] };

/**
 * A new shopper signed in on `page`'s device, with one product in the cart: how the storefront
 * bench meets a guarded screen such as /checkout (Lighthouse's run, and the trace's).
 */
export async function signInWithCart(
  page: Page,
  server: RunningServer,
  product: BenchProduct,
): Promise<void> {
  const shopper = await registerShopperByMailFolder(server, `bench-${Date.now()}@example.test`);
  await page.goto(`${server.url}/home`);
  await waitForStore(page);
  await writeSession(page, shopper);
  await putRows(page, 'cart', [cartLine(product, Date.now())]);
}

/**
 * Signs a shopper in, with one product in the cart, in a Chromium that is
 * already running with a debugging port (Lighthouse's), so a guarded screen
 * such as /checkout can be scored as a signed-in shopper sees it.
 */
export async function signInOverCdp(
  port: number,
  server: RunningServer,
  product: BenchProduct,
): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await signInWithCart(page, server, product);
    await page.close();
  } finally {
    // Leaves the browser running: it is Lighthouse's, only the CDP connection closes.
    await browser.close();
  }
}

/** Where `placeCodOrder` delivers unless told otherwise: a Mohali address of the seeded areas. */
export const MOHALI_ADDRESS = {
  CustomerAddress: 'House 12, Sector 70, Mohali',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  charge: MOHALI_CHARGE,
} as const;

/**
 * One Cash on Delivery order of one `product` through the real `place-order` (a fresh key), for the
 * day after the earliest, as the shopper would send it; answers the order's id.
 */
export async function placeCodOrder(
  server: RunningServer,
  shopper: LoginData,
  product: { productID: number; title: string; price: number },
  where: {
    CustomerAddress: string;
    State: string;
    City: string;
    CustomerPincode: string;
    charge: number;
  } = MOHALI_ADDRESS,
): Promise<number> {
  const { charge, ...address } = where;
  const res = await fetch(`${server.url}/api/place-order`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${shopper.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      DeliveryDate: addDays(earliestDeliveryDate(new Date()), 1),
      CustomerName: 'Asha Verma',
      CustomerEmail: shopper.email,
      CustomerPhone: shopper.phone,
      ...address,
      PaymentMethod: 'Cash on Delivery',
      TotalAmount: product.price + charge,
      OrderItems: [
        { ProductID: product.productID, ProductName: product.title, Price: product.price, Quantity: 1 },
      ],
    }),
  });
  const body = (await res.json()) as { data: { orderID: number }; sys_message: string };
  if (res.status !== 200) throw new Error(`place-order: ${res.status} ${body.sys_message}`);
  return body.data.orderID;
}
