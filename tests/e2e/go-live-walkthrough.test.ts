import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoProducts } from '../../api/seed/demo.js';
import type { LoginData } from '../../domain/accounts.js';
import { SEED_AREAS } from '../../domain/delivery-areas.js';
import { POLICIES } from '../../domain/policies.js';
import { CATEGORIES } from '../../domain/shop.js';
import { DEMO_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { GUIDE_PHONE, phoneContext, type RunningServer, waitForController } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';
import { placeCodOrder, waitForStore, writeSession } from '../support/shopper.js';
import { textOf } from '../support/smtp.js';

/**
 * From demo to real, and no word of the demo shop left: a shop started with the demo gets its own
 * profile, delivery area, Cash on Delivery only, its policies read, the demo removed, one category
 * and one product of its own, and one order. Then every page a shopper reads (the app on a phone,
 * and the server's HTML a link preview reads), the order's mail and its packing slip are searched
 * for the demo's words: its name, contacts, stores, tagline, coupon, categories and products.
 */
const OWN: ShopProfile = {
  ...DEMO_PROFILE,
  name: 'Kaur Cakes & Flowers',
  shortName: 'Kaur Cakes',
  tagline: 'Baked in Kharar since 2019',
  eggless: false,
  story: 'Two sisters, one oven and a lot of roses.',
  care: {
    phone: '+91 172 400 1234',
    whatsapp: '',
    email: 'orders@kaurcakes.example',
    hours: '10 AM to 8 PM',
  },
  stores: [
    {
      name: 'Kharar Main Road',
      address: 'SCO 7, Main Road, Kharar',
      pin: '140301',
      phone: '',
      hours: '',
      mapUrl: '',
    },
  ],
  legalName: 'Kaur Bakers Private Limited',
  fssai: '21521058000123',
  grievance: {
    name: 'Harpreet Kaur',
    designation: 'Director',
    phone: '',
    email: 'grievance@kaurcakes.example',
  },
};

/** What only the demo shop says. */
const DEMO_WORDS = [
  DEMO_PROFILE.name,
  'bakeryandblooms',
  '98765 43210',
  DEMO_PROFILE.tagline,
  'SCO 42',
  'SCF 55',
  'Sector 17',
  'SAVE200',
  'Chandigarh',
  'Mohali',
  '100% eggless',
  ...Object.values(CATEGORIES)
    .map((c) => c.categoryName)
    .filter((n) => /Cakes|All /.test(n)),
  ...demoProducts().map((p) => p.title),
];

function demoWordsIn(text: string): string[] {
  return DEMO_WORDS.filter((w) => text.includes(w) || text.includes(w.replace('&', '&amp;')));
}

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;
let shopper: LoginData;

async function call(method: string, path: string, body?: unknown, token = admin.token): Promise<Response> {
  return fetch(`${server.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'idempotency-key': randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
async function ok(res: Promise<Response>): Promise<{ data: unknown }> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBeLessThan(300);
  return JSON.parse(text);
}

describe('from demo to real', () => {
  beforeAll(async () => {
    shop = await openShop({ admin: true, smtp: true, shoppers: [`walk-${Date.now()}@example.test`] });
    ({ server, browser, admin, shopper } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it('leaves no word of the demo shop on any page, mail or slip', { timeout: 240_000 }, async () => {
    await ok(
      call('PUT', '/admin/settings', { profile: OWN, codOnlyConfirmed: true, policiesReviewed: true }),
    );
    await ok(
      call('PUT', '/admin/delivery-areas/140301', {
        city: 'Kharar',
        state: 'Punjab',
        charge: 100,
        slotIDs: null,
        sameDay: true,
      }),
    );
    for (const a of SEED_AREAS)
      if (a.pincode !== '140301') await ok(call('DELETE', `/admin/delivery-areas/${a.pincode}`));
    await ok(call('POST', '/admin/demo/remove'));
    const category = (await ok(call('POST', '/AddCategory', { CategoryName: 'Celebration Cakes' }))).data as {
      categoryID: number;
    };
    const form = new FormData();
    for (const [k, v] of Object.entries({
      CategoryID: String(category.categoryID),
      Title: 'Rasmalai Celebration Cake',
      Description: '<p>Saffron sponge with rasmalai cream.</p>',
      LabelHeading: 'Made to order',
      LabelDescription: 'Baked the morning it goes out',
      Price: '1100',
      SizeOrWeight: '1 kg',
    }))
      form.append(k, v);
    const jpeg = await sharp({
      create: { width: 800, height: 800, channels: 3, background: { r: 240, g: 200, b: 120 } },
    })
      .jpeg()
      .toBuffer();
    form.append('images', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'rasmalai.jpg');
    const added = await fetch(`${server.url}/api/AddProductForDash`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    expect(added.status).toBe(201);
    const product = ((await added.json()) as { data: { productID: number; price: number; title: string } })
      .data;
    const goLive = (await ok(call('GET', '/admin/go-live'))).data as {
      ready: boolean;
      items: { id: string; done: boolean }[];
    };
    expect(goLive.items.filter((i) => !i.done)).toEqual([]);

    const placed = {
      orderID: await placeCodOrder(server, shopper, product, {
        CustomerAddress: 'House 3, Model Town, Kharar',
        State: 'Punjab',
        City: 'Kharar',
        CustomerPincode: '140301',
        charge: 100,
      }),
    };

    const found: Record<string, string[]> = {};
    const note = (where: string, text: string) => {
      const words = demoWordsIn(text);
      if (words.length) found[where] = words;
    };

    // The server's HTML, as a link preview reads it (title, description, og:*, JSON-LD).
    const pages = [
      '/home',
      '/products',
      '/all-categories',
      `/products-by-category/${encodeURIComponent('Celebration Cakes')}`,
      `/products-details/${product.productID}`,
      '/about-us',
      '/contact',
      ...Object.values(POLICIES).map((p) => p.path),
    ];
    for (const path of pages) note(`html ${path}`, await (await fetch(`${server.url}${path}`)).text());
    note('manifest', await (await fetch(`${server.url}/manifest.webmanifest`)).text());

    // The app on the shopper's phone, each page read to its footer.
    const context = await phoneContext(browser, server.url, GUIDE_PHONE);
    const page: Page = await context.newPage();
    await page.goto('/home');
    await waitForStore(page);
    await writeSession(page, shopper);
    for (const path of [...pages, '/search?q=cake', '/cart', `/my-orders/${placed.orderID}`]) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
      // Each page's own content has come (a heading), then the footer as the shopper nears it.
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.locator('footer').waitFor();
      note(`app ${path}`, `${await page.title()}\n${await page.locator('body').innerText()}`);
    }
    // A page the worker answers from its shell (the build's index.html, no page head of the server's).
    await waitForController(page);
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'attached' });
    expect(await page.title()).toBe(OWN.name);
    note('app /home from the worker', `${await page.title()}\n${await page.content()}`);
    await context.close();

    const receipt = await shop.smtp.take(shopper.email);
    expect(textOf(receipt)).toContain(`your order #${placed.orderID} is placed`);
    expect(textOf(receipt)).toContain('FSSAI Reg. No. 21521058000123');
    expect(textOf(receipt)).toContain(OWN.legalName);
    note('order mail', `${receipt.subject}\n${textOf(receipt)}`);
    note(
      'packing slip',
      JSON.stringify(await ok(call('GET', `/admin/orders/${placed.orderID}/packing-slip`))),
    );
    expect(found).toEqual({});
  });
});
