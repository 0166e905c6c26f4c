import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { phoneContext, type RunningServer, scrollToFooter } from '../support/e2e.js';
import { openShop, type Shop, signIn } from '../support/shop.js';

/**
 * The hand-written router's bugs, each checked on React Router in real Chromium:
 * a fragment link and navigate(n) that goes nowhere with the admin's unsaved-changes guard
 * active, and a link to a section of another page. One build, one server, one browser.
 */
let shop: Shop;
let server: RunningServer;
let browser: Browser;
let admin: LoginData;
let laptop: BrowserContext;

/** The in-page unsaved-changes question is open; answers it. */
async function answerLeave(p: Page, answer: 'stay' | 'leave'): Promise<void> {
  const dialog = p.locator('dialog.admin-dialog[open]');
  await dialog.getByText(adminMessages.unsavedChanges).waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: answer === 'stay' ? 'Cancel' : 'Leave' }).click();
  await p.locator('dialog.admin-dialog[open]').waitFor({ state: 'hidden' });
}

/** The admin's add-product form with a typed title (unsaved changes), reached from the product list. */
async function dirtyForm(): Promise<Page> {
  const page = await laptop.newPage();
  await signIn(page, admin);
  await page.goto('/product-list');
  // The screen's own button: the sidebar's entry has the same name.
  await page.locator('#admin-main').getByRole('link', { name: 'Add Product', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Add Product' }).waitFor();
  await page.getByLabel('Title').fill('Unsaved title');
  // Marks this document: a reload would lose it.
  await page.evaluate(() => {
    (window as { __sameDocument?: boolean }).__sameDocument = true;
  });
  return page;
}

const sameDocument = (p: Page) =>
  p.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);

describe('React Router in Chromium: the old router bugs stay fixed', () => {
  beforeAll(async () => {
    shop = await openShop({ admin: true });
    ({ server, browser, admin } = shop);
    laptop = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1280, height: 800 },
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
  }, 240_000);

  afterAll(async () => {
    await laptop?.close();
    await shop?.close();
  });

  it('a skip link with unsaved changes, then Back: no reload, Stay keeps the right entry, a second Back stays in the app', async () => {
    const page = await dirtyForm();
    const idx = () => page.evaluate(() => (history.state as { idx?: number } | null)?.idx);
    const formIdx = await idx();
    // The skip link is a plain fragment link: the browser pushes an entry the router did not make.
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await skip.focus();
    await skip.press('Enter');
    await page.waitForFunction(() => location.hash === '#admin-main');
    expect(await idx()).toBe((formIdx ?? 0) + 1);

    // Back to the form itself: the same page, nothing to ask.
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => location.hash === '');
    expect(await page.locator('dialog.admin-dialog[open]').count()).toBe(0);
    expect(await sameDocument(page)).toBe(true);

    // Back to the product list asks; Stay keeps the form's own entry, in the same document.
    await page.evaluate(() => history.back());
    await answerLeave(page, 'stay');
    expect(await sameDocument(page)).toBe(true);
    await page.waitForFunction(() => location.pathname === '/add-product' && location.hash === '');
    expect(await idx()).toBe(formIdx);
    expect(await page.getByLabel('Title').inputValue()).toBe('Unsaved title');

    // A second Back asks again and, staying, is still this entry of this app.
    await page.evaluate(() => history.back());
    await answerLeave(page, 'stay');
    expect(await sameDocument(page)).toBe(true);
    await page.waitForFunction(() => location.pathname === '/add-product' && location.hash === '');
    expect(new URL(page.url()).origin).toBe(server.url);
    expect(await idx()).toBe(formIdx);

    // Leave goes to the product list, in the same document.
    await page.evaluate(() => history.back());
    await answerLeave(page, 'leave');
    await page.waitForFunction(() => location.pathname === '/product-list');
    expect(await sameDocument(page)).toBe(true);
    await page.close();
  });

  it('after a history move that goes nowhere, the next Back still asks', async () => {
    const page = await dirtyForm();
    // navigate(n) past the start of the history: the browser goes nowhere and fires no popstate.
    await page.evaluate(() => history.go(-100));
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/add-product');
    expect(await page.locator('dialog.admin-dialog[open]').count()).toBe(0);

    await page.evaluate(() => history.back());
    await answerLeave(page, 'stay');
    await page.waitForFunction(() => location.pathname === '/add-product');
    expect(await sameDocument(page)).toBe(true);
    expect(await page.getByLabel('Title').inputValue()).toBe('Unsaved title');
    await page.close();
  });

  it("the footer's /contact#faq link lands at the section, not the top", async () => {
    const ctx = await phoneContext(browser, server.url);
    const page = await ctx.newPage();
    await page.goto('/home');
    await (await scrollToFooter(page)).getByRole('link', { name: 'FAQs', exact: true }).click();
    await page.waitForURL('**/contact#faq');
    const heading = page.locator('#faq');
    await heading.waitFor();
    await expect
      .poll(() => heading.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 10_000 })
      .toBeLessThan(200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await ctx.close();
  });

  it("the footer's Privacy link opens the Privacy page, a screen patched in on the way", async () => {
    const ctx = await phoneContext(browser, server.url);
    const page = await ctx.newPage();
    await page.goto('/home');
    await (await scrollToFooter(page)).getByRole('link', { name: 'Privacy', exact: true }).click();
    await page.waitForURL('**/privacy');
    await page.getByRole('heading', { level: 1, name: 'Privacy' }).waitFor();
    await ctx.close();
  });
});
