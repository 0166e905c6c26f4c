import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { POLICIES } from '../../domain/policies.js';
import type { ShopSettings } from '../../domain/settings.js';
import { settingMessages } from '../../domain/settings.js';
import { policiesTexts as t } from '../../web/admin/policies-form.js';
import type { RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signIn } from '../support/shop.js';
import { openShopOnPhone } from '../support/shopper.js';

/**
 * The policy pages and Settings → Policies in real Chromium against the real server: the owner's
 * text where written (cleaned by the server), the default written from the shop's settings where
 * not, both read offline on a phone after a sync; the admin's screen edits a text, puts a default
 * back and marks the policies read. axe on a policy page and on the screen; screenshots at 412x823
 * (pages) and 1280x800 (admin) in /work/shots/policies.
 */
const SHOTS = process.env.POLICY_SHOTS ?? '/tmp/shots/policies';
const LAPTOP = { width: 1280, height: 800 };

let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** The device's copy of one setting, as the catalogue sync wrote it. */
function deviceSetting(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    (k) =>
      new Promise((resolve) => {
        const open = indexedDB.open('storefront');
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains('settings')) {
            idb.close();
            resolve(undefined);
            return;
          }
          const req = idb.transaction('settings').objectStore('settings').get(k);
          req.onsuccess = () => {
            idb.close();
            resolve((req.result as { value?: unknown } | undefined)?.value);
          };
          req.onerror = () => resolve(undefined);
        };
        open.onerror = () => resolve(undefined);
      }),
    key,
  );
}

const main = (p: Page) => p.getByRole('main');

describe('the policy pages', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ admin: true });
    ({ server, browser, admin } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it("shows the owner's text or the default from the settings, also offline after a sync", async () => {
    await api('/admin/settings', {
      method: 'PUT',
      body: {
        policies: {
          terms:
            '## Our terms\n\nOrders are **baked fresh**.\n\n- Write to terms@shop.example\n- <img src=x onerror="window.pwned=1">See https://example.com/terms',
        },
      },
    });
    const { context, page } = await openShopOnPhone(browser, server.url);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await expect
      .poll(async () => deviceSetting(page, 'policies'), { timeout: 30_000, interval: 300 })
      .toMatchObject({ terms: expect.stringContaining('Our terms') });

    await page.goto(POLICIES.terms.path);
    await main(page).getByRole('heading', { level: 1, name: POLICIES.terms.title }).waitFor();
    await main(page).getByRole('heading', { level: 2, name: 'Our terms' }).waitFor();
    expect(await main(page).locator('strong').first().innerText()).toBe('baked fresh');
    expect(await main(page).getByRole('link', { name: 'terms@shop.example' }).getAttribute('href')).toBe(
      'mailto:terms@shop.example',
    );
    expect(
      await main(page).getByRole('link', { name: 'https://example.com/terms' }).getAttribute('href'),
    ).toBe('https://example.com/terms');
    expect(await main(page).locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.title()).toBe(`${POLICIES.terms.title} | Bakery & Blooms`);
    await page.screenshot({ path: `${SHOTS}/terms-owner-412.png`, fullPage: true });

    await page.goto(POLICIES.shipping.path);
    await main(page).getByRole('heading', { level: 2, name: 'Where we deliver and what it costs' }).waitFor();
    const shipping = await main(page).innerText();
    expect(shipping).toContain('Mohali, Punjab: ₹150');
    expect(shipping).toMatch(/Midnight, 11 PM – 12 AM, ₹250: order by 9 PM on the day/);
    expect(shipping).toContain('needs 1 day of notice');
    await axe(page, 'the shipping policy, phone');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/shipping-default-412.png` });
    await page.screenshot({ path: `${SHOTS}/shipping-default-412-full.png`, fullPage: true });

    await context.setOffline(true);
    await page.goto(POLICIES.cancellation.path);
    await main(page).getByRole('heading', { level: 1, name: POLICIES.cancellation.title }).waitFor();
    // The text is written from the device's settings once IndexedDB answers.
    await main(page).getByText('We charge no cancellation fee.').first().waitFor();
    const cancellation = await main(page).innerText();
    // The e2e server takes online payment (its test provider): the page said so online, and remembers.
    expect(cancellation).toContain('When we cancel an order you paid online, we refund everything you paid');
    await axe(page, 'the cancellation policy, offline');
    await page.screenshot({ path: `${SHOTS}/cancellation-offline-412.png`, fullPage: true });
    await page.goto(POLICIES.terms.path);
    await main(page).getByRole('heading', { level: 2, name: 'Our terms' }).waitFor();
    await page.goto(POLICIES.privacy.path);
    await main(page).getByRole('heading', { level: 2, name: 'Photos for photo cakes' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/privacy-offline-412.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the owner edit a policy, put a default back and mark the policies read', async () => {
    const ctx = await browser.newContext({
      baseURL: server.url,
      viewport: LAPTOP,
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    const p = await ctx.newPage();
    await signIn(p, admin);
    await p.goto('/dashboard');
    await p.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Policies' }).click();
    await p.getByRole('heading', { level: 1, name: t.title }).waitFor();
    expect(await p.title()).toBe(`Policies | ${adminMessages.titleSuffix(SITE_NAME)}`);
    const section = (title: string) => p.getByRole('region', { name: title });
    const shipping = section(POLICIES.shipping.title);
    await shipping.getByText(t.isDefault).waitFor();
    expect(await shipping.getByLabel(t.textLabel(POLICIES.shipping.title)).inputValue()).toContain(
      'Mohali, Punjab: ₹150',
    );
    await section(POLICIES.terms.title).getByText(t.isOwn).waitFor();
    await axe(p, 'Settings → Policies');
    await p.screenshot({ path: `${SHOTS}/admin-policies-1280.png` });

    const box = section(POLICIES.cancellation.title).getByLabel(t.textLabel(POLICIES.cancellation.title));
    await box.fill('## Cancelling\n\nCall us <script>alert(1)</script>first.\n\n- No fee');
    await section(POLICIES.cancellation.title).getByText(t.preview).click();
    await section(POLICIES.cancellation.title)
      .getByRole('heading', { level: 2, name: 'Cancelling' })
      .waitFor();
    await axe(p, 'Settings → Policies with a preview open');
    await p.screenshot({ path: `${SHOTS}/admin-policies-preview-1280.png` });
    await p.getByRole('button', { name: t.save }).click();
    await p.locator('.alerts').getByText(settingMessages.saved).waitFor();
    let now = await api<ShopSettings>('/admin/settings');
    expect(now.policies.cancellation).toBe('## Cancelling\n\nCall us first.\n\n- No fee');
    expect(now.policies.terms).toContain('Our terms');
    expect(now.policies.shipping).toBeUndefined();
    expect(await box.inputValue()).toBe('## Cancelling\n\nCall us first.\n\n- No fee');

    await section(POLICIES.terms.title).getByRole('button', { name: t.putDefaultBack }).click();
    await p.locator('.alerts').getByText(t.defaultBack(POLICIES.terms.title)).waitFor();
    await section(POLICIES.terms.title).getByText(t.isDefault).waitFor();
    now = await api<ShopSettings>('/admin/settings');
    expect(now.policies).toEqual({ cancellation: '## Cancelling\n\nCall us first.\n\n- No fee' });

    expect(now.policiesReviewed).toBe(false);
    await p.getByRole('button', { name: t.reviewed }).click();
    await p.getByText(t.reviewedDone).waitFor();
    expect((await api<ShopSettings>('/admin/settings')).policiesReviewed).toBe(true);
    await axe(p, 'Settings → Policies, read');
    await p.screenshot({ path: `${SHOTS}/admin-policies-saved-1280-full.png`, fullPage: true });
    await ctx.close();
  });
});
