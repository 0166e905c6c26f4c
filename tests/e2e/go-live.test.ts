import { mkdirSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { type GoLive, goLiveMessages } from '../../domain/go-live.js';
import type { RunningServer } from '../support/e2e.js';
import { axe, openShop, type Shop, signedInContext } from '../support/shop.js';

/**
 * The dashboard's "Make it yours" card in real Chromium against a real server started with the
 * demo: the checklist as a list of links with their ticks in words, the removal's confirmation
 * saying what goes and what stays, the card saying what it removed; axe-clean with the card and
 * with the dialog open; screenshots at 1280x800 and 412x823 in GOLIVE_SHOTS (/tmp/shots/golive).
 */
const SHOTS = process.env.GOLIVE_SHOTS ?? '/tmp/shots/golive';
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 412, height: 823 };

let shop: Shop;
let server: RunningServer;
let admin: LoginData;

const signedIn = (size: { width: number; height: number }, phone = false): Promise<BrowserContext> =>
  signedInContext(shop, admin, size, { phone });

async function goLive(): Promise<GoLive> {
  const res = await fetch(`${server.url}/api/admin/go-live`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  return ((await res.json()) as { data: GoLive }).data;
}

describe('Make it yours on the dashboard', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ admin: true });
    ({ server, admin } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it('lists what is left to do on a phone', async () => {
    const ctx = await signedIn(PHONE, true);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    const card = p.getByRole('region', { name: 'Make it yours' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Remove the demo catalogue' }).waitFor();
    await axe(p, 'the dashboard with the card, phone');
    await p.screenshot({ path: `${SHOTS}/dashboard-golive-412.png` });
    await p.screenshot({ path: `${SHOTS}/dashboard-golive-412-full.png`, fullPage: true });
    await ctx.close();
  });

  it('removes the demo catalogue after a confirmation that says what goes and what stays', async () => {
    const before = await goLive();
    expect(before.demo).toEqual({ products: 86, categories: 14, images: 86, coupon: true });
    const ctx = await signedIn(LAPTOP);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    const card = p.getByRole('region', { name: 'Make it yours' });
    const items = card.getByRole('list').getByRole('listitem');
    await items.first().waitFor();
    expect(await items.count()).toBe(6);
    const profile = items.filter({ has: p.getByRole('link', { name: 'Your shop’s name, phone and email' }) });
    expect(await profile.innerText()).toContain('To do');
    expect(await card.getByRole('link', { name: 'Your delivery areas' }).getAttribute('href')).toBe(
      '/delivery-areas',
    );
    await axe(p, 'the dashboard with the card, laptop');
    await p.screenshot({ path: `${SHOTS}/dashboard-golive-1280.png` });

    await card.getByRole('button', { name: 'Remove the demo catalogue' }).click();
    const dialog = p.getByRole('dialog');
    await dialog.getByText(goLiveMessages.confirmRemoval(before.demo)).waitFor();
    expect(goLiveMessages.confirmRemoval(before.demo)).toContain(
      '86 products, 14 categories, 86 pictures and the coupon SAVE200',
    );
    await axe(p, 'the removal confirm, laptop');
    await p.screenshot({ path: `${SHOTS}/dashboard-golive-confirm-1280.png` });
    await dialog.getByRole('button', { name: 'Remove the demo catalogue' }).click();

    const said = card.getByTestId('go-live-removed');
    await said.waitFor();
    expect(await said.innerText()).toContain(
      'Removed 86 products, 14 categories, 86 pictures and the coupon SAVE200.',
    );
    await card.getByRole('button', { name: 'Remove the demo catalogue' }).waitFor({ state: 'detached' });
    expect((await goLive()).demo).toEqual({ products: 0, categories: 0, images: 0, coupon: false });
    // The figures below follow: no product is left.
    await expect.poll(() => p.getByTestId('products').innerText(), { timeout: 10_000 }).toBe('0');
    await axe(p, 'the dashboard after the removal, laptop');
    await p.screenshot({ path: `${SHOTS}/dashboard-golive-removed-1280.png` });
    await ctx.close();
  });
});
