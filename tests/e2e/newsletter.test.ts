import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { newsletterMessages } from '../../domain/newsletter.js';
import { type RunningServer, scrollToFooter } from '../support/e2e.js';
import { axe, openShop, type Shop, signIn } from '../support/shop.js';
import { type CapturedMail, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * The footer's Subscribe in real Chromium against the real server (DESIGN.md departure 16): the
 * lazily loaded form offline and online, the confirmation mail's link opening the shop's page,
 * the admin's count and CSV download, and the unsubscribe page; axe-clean in each state, under
 * the real Content-Security-Policy. Screenshots in /tmp/shots/newsletter.
 */
const SHOTS = '/tmp/shots/newsletter';
const PHONE = { width: 412, height: 823 };
const LAPTOP = { width: 1280, height: 800 };

let shop: Shop;
let work: string;
let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let admin: LoginData;

function link(mail: CapturedMail, page: 'confirm' | 'unsubscribe'): string {
  const found = textOf(mail).match(new RegExp(`(http\\S+/newsletter/${page}#\\S+)`))?.[1];
  if (!found) throw new Error(`no ${page} link in "${mail.subject}"`);
  return found;
}

async function context(size: { width: number; height: number }): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: server.url,
    viewport: size,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    serviceWorkers: 'block',
    acceptDownloads: true,
  });
}

describe('the mailing list in the browser', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    shop = await openShop({ smtp: true, admin: true });
    ({ server, smtp, browser, admin, dir: work } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it('subscribes from the footer, confirms by the link, shows in the admin export, and unsubscribes', async () => {
    const shopper = await context(PHONE);
    const page = await shopper.newPage();
    await page.goto('/home');
    await page.locator('main h1').first().waitFor();
    const footer = await scrollToFooter(page);
    const form = footer.getByRole('form', { name: 'Stay in touch' });
    const input = form.getByRole('textbox', { name: 'Email address' });

    await input.fill('Kavya@Example.test');
    await shopper.setOffline(true);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByText(newsletterMessages.offline).waitFor();
    expect(await input.inputValue()).toBe('Kavya@Example.test');
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/footer-offline-412.png`, animations: 'disabled' });

    await shopper.setOffline(false);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByText(newsletterMessages.checkInbox).waitFor();
    expect(await input.inputValue()).toBe('');
    await page.screenshot({ path: `${SHOTS}/footer-sent-412.png`, animations: 'disabled' });
    await axe(page, 'footer, sent');

    // A mail's link opens in a tab of its own.
    const mail = await smtp.take('kavya@example.test');
    const confirmTab = await shopper.newPage();
    await confirmTab.goto(link(mail, 'confirm'));
    await confirmTab.getByRole('heading', { level: 1, name: newsletterMessages.subscribed }).waitFor();
    await confirmTab.screenshot({ path: `${SHOTS}/confirmed-412.png`, animations: 'disabled' });
    await axe(confirmTab, 'confirmed');

    const owner = await context(LAPTOP);
    const setup = await owner.newPage();
    await signIn(setup, admin);
    await setup.close();
    const dash = await owner.newPage();
    await dash.goto('/dashboard');
    const panel = dash.getByRole('region', { name: 'Newsletter subscribers' });
    await expect
      .poll(() => panel.getByTestId('subscribers').textContent(), { timeout: 15_000 })
      .toBe('1 subscribed');
    await panel.scrollIntoViewIfNeeded();
    await dash.screenshot({ path: `${SHOTS}/dashboard-1280.png`, animations: 'disabled' });
    await axe(dash, 'dashboard');
    const [saved] = await Promise.all([
      dash.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export subscribers' }).click(),
    ]);
    expect(saved.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = path.join(work, 'subscribers.csv');
    await saved.saveAs(file);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^"kavya@example\.test",/);
    await dash.locator('.alerts').getByText(newsletterMessages.exportReady(1)).waitFor();
    await owner.close();

    const unsubscribeTab = await shopper.newPage();
    await unsubscribeTab.goto(link(await smtp.take('kavya@example.test'), 'unsubscribe'));
    await unsubscribeTab.getByText(newsletterMessages.unsubscribeAsk).waitFor();
    await unsubscribeTab.screenshot({ path: `${SHOTS}/unsubscribe-ask-412.png`, animations: 'disabled' });
    await axe(unsubscribeTab, 'unsubscribe, asking');
    await unsubscribeTab.getByRole('main').getByRole('button', { name: 'Unsubscribe' }).click();
    await unsubscribeTab
      .getByRole('heading', { level: 1, name: newsletterMessages.unsubscribedTitle })
      .waitFor();
    await unsubscribeTab.screenshot({ path: `${SHOTS}/unsubscribed-412.png`, animations: 'disabled' });
    const counts = await fetch(`${server.url}/api/admin/newsletter`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(((await counts.json()) as { data: unknown }).data).toEqual({ confirmed: 0, pending: 0 });
    await shopper.close();
  });
});
