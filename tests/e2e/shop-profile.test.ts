import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { SITE_NAME } from '../../domain/page-head.js';
import type { ShopSettings } from '../../domain/settings.js';
import { DEMO_PROFILE, logoUrl, profileMessages } from '../../domain/shop-profile.js';
import { profileTexts as t } from '../../web/admin/profile-forms.js';
import type { RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signedInContext } from '../support/shop.js';

/**
 * Settings → Shop profile in real Chromium against the real server: from the menu's Settings group,
 * a bad FSSAI number named at its field, then the name, phone and FSSAI number changed, a logo
 * uploaded and a store added, saved, read back from the API and after a reload; axe-clean with
 * and without problems, at 1280x800 and 412x823, screenshots in /work/shots/profile (outside the repo).
 */
const SHOTS = process.env.PROFILE_SHOTS ?? '/work/shots/profile';
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 412, height: 823 };

let shop: Shop;
let server: RunningServer;
let admin: LoginData;

const signedIn = (size: { width: number; height: number }, phone = false): Promise<BrowserContext> =>
  signedInContext(shop, admin, size, { phone });

async function settingsNow(): Promise<ShopSettings> {
  const res = await fetch(`${server.url}/api/admin/settings`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  return ((await res.json()) as { data: ShopSettings }).data;
}

const alert = (p: Page, text: string) => p.locator('.alerts').getByText(text).waitFor();
const store = (p: Page, n: number) => p.getByRole('group', { name: t.store(n), exact: true });
const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('Settings → Shop profile in the admin area', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ admin: true });
    ({ server, admin } = shop);
  }, 240_000);
  afterAll(() => shop?.close());

  it('changes the name, phone and FSSAI number, uploads a logo and adds a store', async () => {
    expect((await settingsNow()).profile).toEqual(DEMO_PROFILE);
    const ctx = await signedIn(LAPTOP);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    await p
      .getByRole('navigation', { name: 'Admin menu' })
      .getByRole('link', { name: 'Shop profile' })
      .click();
    await p.getByRole('heading', { level: 1, name: t.title }).waitFor();
    expect(await p.title()).toBe(`Shop profile | ${adminMessages.titleSuffix(SITE_NAME)}`);
    const name = p.getByLabel('Shop name');
    expect(await name.inputValue()).toBe(DEMO_PROFILE.name);
    await axe(p, 'shop profile, laptop');
    await p.screenshot({ path: `${SHOTS}/profile-1280.png` });
    await p.screenshot({ path: `${SHOTS}/profile-1280-full.png`, fullPage: true });

    // A bad number is named at its field, focused, and nothing is sent.
    const fssai = p.getByLabel('FSSAI number');
    await fssai.fill('1234');
    await p.getByRole('button', { name: t.save }).click();
    await p.getByText(profileMessages.fssai).waitFor();
    expect(await fssai.getAttribute('aria-invalid')).toBe('true');
    expect(await fssai.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await settingsNow()).profile.fssai).toBe(DEMO_PROFILE.fssai);
    await axe(p, 'shop profile with a problem, laptop');
    await p.screenshot({ path: `${SHOTS}/profile-problem-1280.png` });

    await name.fill('Sharma Sweets');
    await p.getByLabel('Customer care phone').fill('0172 400 1234');
    await fssai.fill('10012345678901');
    const logo = await sharp({
      create: { width: 600, height: 600, channels: 4, background: { r: 176, g: 48, b: 106, alpha: 1 } },
    })
      .png()
      .toBuffer();
    await p
      .getByLabel(t.chooseLogo)
      .setInputFiles({ name: 'sharma.png', mimeType: 'image/png', buffer: logo });
    const preview = p.getByRole('img', { name: t.logoPreview('Sharma Sweets') });
    await preview.waitFor();
    expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    await p.getByRole('button', { name: t.addStore }).click();
    const third = store(p, 3);
    expect(await third.getByLabel('Store name').evaluate((el) => el === document.activeElement)).toBe(true);
    await third.getByLabel('Store name').fill('Kharar');
    await third.getByLabel('Address').fill('Main Road, Kharar, Punjab');
    await third.getByLabel('PIN code').fill('140301');
    await third.getByLabel('Store hours').fill('10 AM to 8 PM');
    await p.getByRole('button', { name: t.save }).click();
    await alert(p, t.saved);

    const saved = (await settingsNow()).profile;
    expect(saved).toMatchObject({
      name: 'Sharma Sweets',
      care: { ...DEMO_PROFILE.care, phone: '0172 400 1234' },
      fssai: '10012345678901',
      logo: { stem: expect.stringMatching(/^logo/), version: 1 },
    });
    expect(saved.stores).toEqual([
      ...DEMO_PROFILE.stores,
      {
        name: 'Kharar',
        address: 'Main Road, Kharar, Punjab',
        pin: '140301',
        phone: '',
        hours: '10 AM to 8 PM',
        mapUrl: '',
      },
    ]);
    expect(await preview.getAttribute('src')).toBe(logoUrl(saved.logo, 320));
    await axe(p, 'shop profile saved, laptop');
    await p.screenshot({ path: `${SHOTS}/profile-saved-1280-full.png`, fullPage: true });

    await p.reload();
    await p.getByRole('heading', { level: 1, name: t.title }).waitFor();
    expect(await p.getByLabel('Shop name').inputValue()).toBe('Sharma Sweets');
    expect(await p.getByLabel('Customer care phone').inputValue()).toBe('0172 400 1234');
    expect(await p.getByLabel('FSSAI number').inputValue()).toBe('10012345678901');
    expect(await store(p, 3).getByLabel('PIN code').inputValue()).toBe('140301');
    await p.getByRole('img', { name: t.logoPreview('Sharma Sweets') }).waitFor();
    await ctx.close();
  });

  it('fits a phone, axe-clean', async () => {
    const ctx = await signedIn(PHONE, true);
    const p = await ctx.newPage();
    await p.goto('/shop-profile');
    await p.getByLabel('Shop name').waitFor();
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    await axe(p, 'shop profile, phone');
    await p.screenshot({ path: `${SHOTS}/profile-412.png` });
    await store(p, 1).scrollIntoViewIfNeeded();
    await p.screenshot({ path: `${SHOTS}/profile-stores-412.png` });
    await p.getByLabel('GSTIN').fill('27AAPFU0939F1ZZ');
    await p.getByRole('button', { name: t.save }).click();
    const gstinProblem = p.getByText(profileMessages.gstin);
    await gstinProblem.waitFor();
    // Focused, the field shows its problem above the sticky Save bar.
    const bar = await p.getByRole('button', { name: t.save }).boundingBox();
    const shown = await gstinProblem.boundingBox();
    expect(shown && bar && shown.y + shown.height).toBeLessThanOrEqual(bar?.y ?? 0);
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    await axe(p, 'shop profile with a problem, phone');
    await p.screenshot({ path: `${SHOTS}/profile-problem-412.png` });
    await ctx.close();
  });
});
