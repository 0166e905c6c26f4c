import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { DEMO_PROFILE, fssaiLine, type ShopProfile } from '../../domain/shop-profile.js';
import type { RunningServer } from '../support/e2e.js';
import { axe, forSale, openShop, type Shop, signIn } from '../support/shop.js';
import { placeCodOrder, writeSession } from '../support/shopper.js';

/**
 * "Make it yours" in real Chromium against the real server, as an owner and a shopper meet it:
 * the demo shop's phone shows the demo's name and offer; the owner writes the shop's own name,
 * phone and FSSAI number and adds a store, and withdraws the offer on Settings → Shop settings;
 * after the next sync the shopper's phone shows them in the header, the footer, About us and the
 * order page, also offline, and the manifest the browser installs from has the new name. axe is
 * clean on each page; screenshots at 412x823 online and offline in /tmp/shots/make-it-yours.
 */
const SHOTS = '/tmp/shots/make-it-yours';
const PHONE = { width: 412, height: 823 };

const OWN: ShopProfile = {
  ...DEMO_PROFILE,
  name: 'Kaur Cakes & Flowers',
  shortName: 'Kaur Cakes',
  tagline: 'Baked in Kharar since 2019',
  eggless: false,
  story: 'Two sisters, one oven and a lot of roses.',
  care: {
    phone: '+91 172 400 1234',
    whatsapp: '9815012345',
    email: 'orders@kaurcakes.example',
    hours: '10 AM to 8 PM',
  },
  stores: [
    ...DEMO_PROFILE.stores
      .slice(0, 1)
      .map((s) => ({ ...s, name: 'Kharar Main Road', address: 'SCO 7, Main Road, Kharar', pin: '140301' })),
    {
      name: 'Sunny Enclave',
      address: 'Shop 12, Sunny Enclave, Kharar',
      pin: '140301',
      phone: '',
      hours: '10 AM to 8 PM',
      mapUrl: '',
    },
  ],
  legalName: 'Kaur Bakers Private Limited',
  fssai: '10020042007183',
  grievance: {
    name: 'Harpreet Kaur',
    designation: 'Director',
    phone: '',
    email: 'grievance@kaurcakes.example',
  },
};

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;
let shopper: LoginData;
let phone: BrowserContext;
let page: Page;

async function adminCall(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The footer's words: it loads as the shopper nears it (web/components/FooterSlot.tsx). */
async function footerText(p: Page): Promise<string> {
  await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const footer = p.locator('footer');
  await footer.waitFor();
  return footer.innerText();
}

/** The phone syncs as an open page does when it comes back (web/pwa/start.ts), and waits for the name. */
async function syncUntil(p: Page, text: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await p.reload();
        return footerText(p);
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toContain(text);
}

async function placeOrder(): Promise<number> {
  const [p] = forSale((await shop.feed()).products, 1);
  if (!p) throw new Error('no product for sale');
  return placeCodOrder(server, shopper, p);
}

describe('the shop made its own', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ admin: true, shoppers: [`yours-${Date.now()}@example.test`], phone: true });
    ({ server, browser, admin, shopper } = shop);
    ({ context: phone, page } = shop.phone);
  }, 240_000);

  afterAll(() => shop?.close());

  it("shows the demo's name and offer until the owner writes their own", async () => {
    expect(await page.locator('.logo__text').innerText()).toBe(DEMO_PROFILE.name);
    await expect.poll(() => footerText(page), { timeout: 15_000 }).toContain(DEMO_PROFILE.care.phone);
    const [p] = forSale((await shop.feed()).products, 1);
    await page.goto(`/products-details/${p?.productID}`);
    await page.getByText('Offers').click();
    expect(await page.locator('.offers').innerText()).toContain('₹200 off your first order');
    expect(await page.locator('.offers__code').innerText()).toBe('SAVE200');
  });

  it("reaches the shopper's phone: header, footer, About, the order page, the offer and the manifest", async () => {
    const saved = await adminCall('PUT', '/admin/settings', { profile: OWN });
    expect(saved.status, await saved.clone().text()).toBe(200);

    // The owner withdraws the demo's offer on Settings → Shop settings.
    const owner = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    const o = await owner.newPage();
    await signIn(o, admin);
    await o.goto('/shop-settings');
    const picker = o.getByLabel('Advertised coupon');
    await picker.waitFor();
    expect(await picker.inputValue()).toBe('SAVE200');
    await picker.selectOption({ label: 'No offer' });
    await o.getByRole('button', { name: 'Save offer' }).click();
    await o.locator('.alerts').getByText('Product pages advertise no offer now.').waitFor();
    await axe(o, 'Shop settings with the offer');
    await o.screenshot({ path: `${SHOTS}/owner-offer-1280.png`, fullPage: true });
    await owner.close();

    await page.goto('/about-us');
    await syncUntil(page, OWN.care.phone);
    const footer = await footerText(page);
    for (const text of [
      OWN.name,
      OWN.legalName,
      fssaiLine(OWN.fssai),
      'Grievance officer: Harpreet Kaur, Director',
    ])
      expect(footer).toContain(text);
    expect(footer).not.toContain(DEMO_PROFILE.care.phone);
    expect(footer).not.toContain(DEMO_PROFILE.care.email);
    const about = await page.getByRole('main').innerText();
    expect(about).toContain(OWN.story);
    expect(about).toContain('Shop 12, Sunny Enclave, Kharar 140301');
    expect(about).not.toMatch(/Chandigarh 160017|Eggless since 2015|began in 2015/);
    // The header learns the name from the device's profile; the server's page says it at once.
    await page.reload();
    expect(await page.locator('.logo__text').innerText()).toBe(OWN.name);
    await axe(page, 'About us with the owner’s profile');
    await page.screenshot({ path: `${SHOTS}/about-412.png`, fullPage: true });

    const [p] = forSale((await shop.feed()).products, 1);
    await page.goto(`/products-details/${p?.productID}`);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    expect(await page.getByText('Offers').count()).toBe(0);

    await writeSession(page, shopper);
    const orderId = await placeOrder();
    await page.goto(`/my-orders/${orderId}`);
    const seller = page.getByTestId('order-seller');
    await expect.poll(() => seller.innerText()).toContain(fssaiLine(OWN.fssai));
    expect(await seller.innerText()).toContain(`Sold by ${OWN.legalName}`);
    await axe(page, 'the order page');
    await page.screenshot({ path: `${SHOTS}/order-412.png`, fullPage: true });

    const manifest = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href;
      return href ? ((await (await fetch(href)).json()) as { name: string; short_name: string }) : null;
    });
    expect(manifest).toMatchObject({ name: OWN.name, short_name: OWN.shortName });
  });

  it('reads the same offline, from the device', async () => {
    await phone.setOffline(true);
    try {
      await page.goto('/about-us');
      await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
      expect(await page.locator('.logo__text').innerText()).toBe(OWN.name);
      await expect.poll(() => footerText(page)).toContain(fssaiLine(OWN.fssai));
      expect(await page.getByRole('main').innerText()).toContain(OWN.story);
      await page.goto('/contact');
      await page.getByRole('region', { name: 'Our stores' }).waitFor();
      expect(await page.getByRole('main').innerText()).toContain(OWN.care.email);
      await axe(page, 'Contact offline');
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: `${SHOTS}/contact-offline-412.png`, fullPage: true });
    } finally {
      await phone.setOffline(false);
    }
  });
});
