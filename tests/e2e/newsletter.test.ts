import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import { newsletterMessages } from '../../domain/newsletter.js';
import {
  buildWeb,
  launchChromium,
  type RunningServer,
  scrollToFooter,
  startServer,
  tempDir,
} from '../support/e2e.js';
import { writeSession } from '../support/shopper.js';
import { type CapturedMail, startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * The footer's Subscribe in real Chromium against the real server (DESIGN.md departure 16): the
 * lazily loaded form offline and online, the confirmation mail's link opening the shop's page,
 * the admin's count and CSV download, and the unsubscribe page; axe-clean in each state, under
 * the real Content-Security-Policy. Screenshots in /tmp/shots/newsletter.
 */
const SHOTS = '/tmp/shots/newsletter';
const PHONE = { width: 412, height: 823 };
const LAPTOP = { width: 1280, height: 800 };

let work: string;
let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let admin: LoginData;

async function expectNoAxeViolations(p: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page: p }).analyze();
  const found = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, what).toEqual([]);
}

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
    work = tempDir('newsletter-e2e');
    mkdirSync(SHOTS, { recursive: true });
    smtp = await startSmtp();
    const webDir = await buildWeb(path.join(work, 'web'));
    server = await startServer({ webDir, env: { SMTP_URL: smtp.url } });
    browser = await launchChromium();
    const res = await fetch(`${server.url}/api/LoginCustomer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: server.adminEmail, password: server.adminPassword }),
    });
    admin = ((await res.json()) as { data: LoginData }).data;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    rmSync(work, { recursive: true, force: true });
  });

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
    await expectNoAxeViolations(page, 'footer, sent');

    // A mail's link opens in a tab of its own.
    const mail = await smtp.take('kavya@example.test');
    const confirmTab = await shopper.newPage();
    await confirmTab.goto(link(mail, 'confirm'));
    await confirmTab.getByRole('heading', { level: 1, name: newsletterMessages.subscribed }).waitFor();
    await confirmTab.screenshot({ path: `${SHOTS}/confirmed-412.png`, animations: 'disabled' });
    await expectNoAxeViolations(confirmTab, 'confirmed');

    const owner = await context(LAPTOP);
    const setup = await owner.newPage();
    await setup.goto('/home');
    await writeSession(setup, admin);
    await setup.close();
    const dash = await owner.newPage();
    await dash.goto('/dashboard');
    const panel = dash.getByRole('region', { name: 'Newsletter subscribers' });
    await expect
      .poll(() => panel.getByTestId('subscribers').textContent(), { timeout: 15_000 })
      .toBe('1 subscribed');
    await panel.scrollIntoViewIfNeeded();
    await dash.screenshot({ path: `${SHOTS}/dashboard-1280.png`, animations: 'disabled' });
    await expectNoAxeViolations(dash, 'dashboard');
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
    expect(rows[1]).toMatch(/^kavya@example\.test,/);
    await dash.locator('.alerts').getByText(newsletterMessages.exportReady(1)).waitFor();
    await owner.close();

    const unsubscribeTab = await shopper.newPage();
    await unsubscribeTab.goto(link(await smtp.take('kavya@example.test'), 'unsubscribe'));
    await unsubscribeTab.getByText(newsletterMessages.unsubscribeAsk).waitFor();
    await unsubscribeTab.screenshot({ path: `${SHOTS}/unsubscribe-ask-412.png`, animations: 'disabled' });
    await expectNoAxeViolations(unsubscribeTab, 'unsubscribe, asking');
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
