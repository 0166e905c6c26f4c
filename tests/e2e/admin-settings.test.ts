import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { areaMessages, type DeliveryArea } from '../../domain/delivery-areas.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { SETTINGS, type ShopSettings, settingMessages } from '../../domain/settings.js';
import { settingsTexts as t } from '../../web/admin/settings-forms.js';
import type { RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signedInContext } from '../support/shop.js';

/**
 * The admin's Settings screens in real Chromium against the real server: from the menu's Settings
 * group, a pincode added (after the form named its problems), a paste of two lines (after a bad
 * one was named on the device), a pincode removed after the confirm, and the photo cake's notice
 * changed; each step read back from the API, axe-clean at laptop size, screenshots at 1280x800 and
 * 412x823 and offline, in /tmp/shots/admin-settings.
 */
const SHOTS = '/tmp/shots/admin-settings';
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 412, height: 823 };
const MIDNIGHT = 6;

let shop: Shop;
let server: RunningServer;
let admin: LoginData;

const signedIn = (size: { width: number; height: number }, phone = false): Promise<BrowserContext> =>
  signedInContext(shop, admin, size, { phone });

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  return ((await res.json()) as { data: T }).data;
}
const areasNow = () => api<DeliveryArea[]>('/delivery-areas');
const areaNow = async (pincode: string) => (await areasNow()).find((a) => a.pincode === pincode);

const alert = (p: Page, text: string) => p.locator('.alerts').getByText(text).waitFor();
const row = (p: Page, pincode: string) =>
  p.getByTestId('area-row').filter({ has: p.getByText(pincode, { exact: true }) });

describe('Settings in the admin area', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ admin: true });
    ({ server, admin } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it('adds a pincode, pastes two lines, removes one, and changes the photo cake notice', async () => {
    const ctx = await signedIn(LAPTOP);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    const menu = p.getByRole('navigation', { name: 'Admin menu' });
    await menu.getByRole('link', { name: 'Delivery areas' }).click();
    await p.getByRole('heading', { level: 1, name: t.areasTitle }).waitFor();
    expect(await p.title()).toBe(`Delivery areas | ${adminMessages.titleSuffix(SITE_NAME)}`);
    expect(await p.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(
      /Dashboard[\s\S]*Settings[\s\S]*Delivery areas/,
    );
    await row(p, '160062').waitFor();
    const cities = p.getByRole('region', { name: t.citiesHeading });
    expect(await cities.innerText()).toContain(
      'Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300',
    );
    expect(await p.getByTestId('area-row').count()).toBe((await areasNow()).length);
    await axe(p, 'delivery areas, laptop');
    await p.screenshot({ path: `${SHOTS}/admin-areas-1280.png` });
    await p.screenshot({ path: `${SHOTS}/admin-areas-1280-full.png`, fullPage: true });

    // One pincode: the form names its problems at the fields, then adds it with Midnight only.
    await p.getByRole('button', { name: t.addPincode }).click();
    const form = p.getByRole('form', { name: 'Add a pincode' });
    await form.getByRole('button', { name: t.addPincode }).click();
    await form.getByText(areaMessages.cityRequired).waitFor();
    expect(await form.getByLabel('Pincode').getAttribute('aria-invalid')).toBe('true');
    await axe(p, 'the add form with its problems, laptop');
    await p.screenshot({ path: `${SHOTS}/admin-areas-form-1280.png` });
    await form.getByLabel('Pincode').fill('140307');
    await form.getByLabel('City').fill('Mohali');
    await form.getByLabel('State').fill('Punjab');
    await form.getByLabel('Delivery charge (₹)').fill('175');
    await form.getByLabel(/Same-day delivery/).uncheck();
    await form.getByLabel(t.onlySlots).check();
    await form.getByLabel('Midnight').check();
    await form.getByRole('button', { name: t.addPincode }).click();
    await alert(p, areaMessages.saved('140307'));
    await row(p, '140307').waitFor();
    expect(await row(p, '140307').locator('td[data-label="Slots"]').innerText()).toBe('Midnight');
    expect(await areaNow('140307')).toEqual({
      pincode: '140307',
      city: 'Mohali',
      state: 'Punjab',
      charge: 175,
      slotIDs: [MIDNIGHT],
      sameDay: false,
    });

    // A paste: a bad line is named on the device and nothing is sent; two good lines are.
    const box = p.getByLabel('Lines of pincode,city,state,charge');
    await box.fill('160101,Chandigarh,Chandigarh,200\n160102;Chandigarh;Chandigarh;200');
    await p.getByRole('button', { name: t.pasteButton }).click();
    await p.getByText(areaMessages.pasteLine(2, areaMessages.pasteShape)).waitFor();
    expect(await areaNow('160101')).toBeUndefined();
    await axe(p, 'a paste with a bad line, laptop');
    await p.screenshot({ path: `${SHOTS}/admin-areas-paste-bad-1280.png` });
    await box.fill('160101,Chandigarh,Chandigarh,200\n160062,Mohali,Punjab,175');
    await p.getByRole('button', { name: t.pasteButton }).click();
    await alert(p, areaMessages.pasted(1, 1));
    expect(await box.inputValue()).toBe('');
    await row(p, '160101').waitFor();
    expect(await areaNow('160101')).toMatchObject({
      city: 'Chandigarh',
      charge: 200,
      slotIDs: null,
      sameDay: true,
    });
    expect((await areaNow('160062'))?.charge).toBe(175);

    // Removing asks first; the pincode leaves the list and the API.
    await p.getByLabel(t.filterLabel).fill('160101');
    await row(p, '160101').getByRole('button', { name: 'Remove 160101' }).click();
    const dialog = p.getByRole('dialog');
    await dialog.getByText(t.removeConfirm({ pincode: '160101', city: 'Chandigarh' })).waitFor();
    await axe(p, 'the remove confirm, laptop');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await alert(p, areaMessages.removed('160101'));
    await p.getByText(t.noMatch('160101')).waitFor();
    expect(await areaNow('160101')).toBeUndefined();

    // The photo cake's notice, on Shop settings (that only changed keys are sent: the web test's).
    await menu.getByRole('link', { name: 'Shop settings' }).click();
    await p.getByRole('heading', { level: 1, name: t.shopSettingsTitle }).waitFor();
    const notice = p.getByLabel(SETTINGS.photoCakeNoticeDays.label);
    expect(await notice.inputValue()).toBe(String(SETTINGS.photoCakeNoticeDays.default));
    await notice.fill('8');
    await p.getByRole('button', { name: t.saveSettings }).click();
    await p.getByText(settingMessages.photoCakeNoticeDays).waitFor();
    await axe(p, 'shop settings with a bad value, laptop');
    await notice.fill('2');
    await p.getByRole('button', { name: t.saveSettings }).click();
    await alert(p, settingMessages.saved);
    expect((await api<ShopSettings>('/admin/settings')).photoCakeNoticeDays).toBe(2);
    await axe(p, 'shop settings, laptop');
    await p.screenshot({ path: `${SHOTS}/admin-settings-1280.png` });

    // Offline, each screen says it needs a connection; the layout stays.
    await ctx.setOffline(true);
    await p.getByText(adminMessages.needsConnection).waitFor();
    await p.screenshot({ path: `${SHOTS}/admin-settings-offline-1280.png` });
    await ctx.setOffline(false);
    await ctx.close();
  });

  it('fits a phone: each pincode a short card, the forms a column, offline said', async () => {
    const ctx = await signedIn(PHONE, true);
    const p = await ctx.newPage();
    await p.goto('/delivery-areas');
    await row(p, '160062').waitFor();
    const overflow = () => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await axe(p, 'delivery areas, phone');
    await p.screenshot({ path: `${SHOTS}/admin-areas-412.png` });
    await p.getByLabel(t.filterLabel).fill('Mohali');
    await row(p, '160071').scrollIntoViewIfNeeded();
    await p.screenshot({ path: `${SHOTS}/admin-areas-cards-412.png` });
    await p.getByLabel(t.filterLabel).fill('');
    await row(p, '140603').getByRole('button', { name: 'Edit 140603' }).click();
    const form = p.getByRole('form', { name: 'Edit 140603' });
    await form.waitFor();
    // The pincode is the row's key, shown but not edited: focus starts at the city.
    expect(await form.getByLabel('Pincode').getAttribute('readonly')).not.toBeNull();
    expect(await form.getByLabel('City').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await p.screenshot({ path: `${SHOTS}/admin-areas-edit-412.png` });
    await form.getByRole('button', { name: 'Cancel' }).click();

    await p.goto('/shop-settings');
    await p.getByLabel(SETTINGS.photoCakeNoticeDays.label).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await axe(p, 'shop settings, phone');
    await p.screenshot({ path: `${SHOTS}/admin-settings-412.png` });
    await ctx.setOffline(true);
    await p.getByText(adminMessages.needsConnection).waitFor();
    await p.screenshot({ path: `${SHOTS}/admin-settings-offline-412.png` });
    await ctx.close();
  });
});
