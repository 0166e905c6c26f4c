import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackAndVerify } from '../../api/backup/archive.js';
import type { LoginData } from '../../domain/accounts.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { takeCspViolations } from '../support/csp-guard.js';
import { type RunningServer, tempDir } from '../support/e2e.js';
import { axe, openShop, type Shop, signedInContext } from '../support/shop.js';

/**
 * The admin's backups in real Chromium against the real server: the dashboard's
 * "Last backup" and its warning while backups are scheduled and none exists, the Backups screen
 * (list, Back up now, a download behind the password) at laptop and phone size, axe-clean, with screenshots in
 * /tmp/shots/backups.
 */
const SHOTS = '/tmp/shots/backups';
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 412, height: 823 };

let shop: Shop;
let work: string;
let server: RunningServer;
let admin: LoginData;

const signedIn = (size: { width: number; height: number }, phone = false): Promise<BrowserContext> =>
  signedInContext(shop, admin, size, { phone, acceptDownloads: true });

describe('backups in the admin area', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Scheduled daily: the first scheduled look is a minute away, so the shop starts with none.
    shop = await openShop({ env: { BACKUP_EVERY: '1d', BACKUP_KEEP: '3' }, admin: true });
    ({ server, admin, dir: work } = shop);
  }, 240_000);

  afterAll(() => shop?.close());

  it('warns on the dashboard while backups are scheduled and none exists', async () => {
    const ctx = await signedIn(LAPTOP);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    await p.getByTestId('products').waitFor();
    await expect
      .poll(() => p.getByTestId('last-backup').textContent(), { timeout: 15_000 })
      .toBe(adminMessages.lastBackupNone);
    expect(await p.getByTestId('backup-warning').textContent()).toContain(
      'No backup has been made yet, though backups are scheduled.',
    );
    await axe(p, 'dashboard with the backup warning');
    await p.screenshot({ path: `${SHOTS}/dashboard-warning-laptop.png` });
    await ctx.close();
  });

  it('makes a backup with the button, lists it with its counts, and downloads it', async () => {
    const ctx = await signedIn(LAPTOP);
    const p = await ctx.newPage();
    await p.goto('/dashboard');
    await p.getByTestId('last-backup').click();
    await p.getByRole('heading', { level: 1, name: 'Backups' }).waitFor();
    expect(await p.title()).toBe(`Backups | ${adminMessages.titleSuffix(SITE_NAME)}`);
    expect(await p.getByTestId('backup-schedule').textContent()).toBe(
      'A backup every day; the newest 3 are kept.',
    );
    await p.getByText(adminMessages.noBackups).waitFor();
    await p.getByRole('button', { name: 'Back up now' }).click();
    await p.getByTestId('backup-row').first().waitFor({ timeout: 30_000 });
    await p
      .locator('.alerts')
      .getByText(/^Backup made: backup-\d{8}-\d{6}\.tar\.gz\.$/)
      .waitFor();
    expect(await p.getByTestId('backup-warning').count()).toBe(0);

    const listed = (await (
      await fetch(`${server.url}/api/admin/backups`, { headers: { authorization: `Bearer ${admin.token}` } })
    ).json()) as { data: { backups: { name: string; size: number; counts: { products: number } }[] } };
    const [made] = listed.data.backups;
    if (!made) throw new Error('no backup listed');
    const row = p.getByTestId('backup-row').first();
    expect(await row.locator('td[data-label="Products"]').textContent()).toBe(String(made.counts.products));
    expect(await row.locator('td[data-label="Made"]').textContent()).toContain('(just now)');

    await axe(p, 'backups screen, laptop');
    await p.screenshot({ path: `${SHOTS}/backups-laptop.png`, fullPage: true });

    // The download asks the password again, in a dialog; a wrong one is said there.
    await row.getByRole('button', { name: /^Download the backup of / }).click();
    const dialog = p.getByRole('dialog', { name: 'Download backup' });
    await dialog.waitFor();
    const password = dialog.getByLabel('Your password');
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    await password.fill('Not-the-password-1!');
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe('That password is not right.');
    await axe(p, 'download dialog with a wrong password, laptop');
    await p.screenshot({ path: `${SHOTS}/download-wrong-password-laptop.png` });
    await password.fill(server.adminPassword);
    const [saved] = await Promise.all([
      p.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(saved.suggestedFilename()).toBe(made.name);
    const file = path.join(work, made.name);
    await saved.saveAs(file);
    await dialog.waitFor({ state: 'hidden' });
    // The archive less the shop's secrets: whole, and without them.
    const manifest = await unpackAndVerify(file, tempDir('downloaded'));
    expect(manifest.secrets).toBe('left out');
    expect(manifest.files.map((f) => f.path)).not.toContain('jwt-secret');
    expect(manifest.files.map((f) => f.path)).not.toContain('shop-secrets.json');

    // The dashboard follows: the figure is the new backup's age, and the warning is gone.
    await p.goto('/dashboard');
    await expect
      .poll(() => p.getByTestId('last-backup').textContent(), { timeout: 15_000 })
      .toBe(adminMessages.lastBackup('just now'));
    expect(await p.getByTestId('backup-warning').count()).toBe(0);
    await p.screenshot({ path: `${SHOTS}/dashboard-laptop.png` });
    expect(takeCspViolations()).toEqual([]);
    await ctx.close();
  });

  it('reads on a phone: the list as cards, nothing sideways, axe-clean', async () => {
    const ctx = await signedIn(PHONE, true);
    const p = await ctx.newPage();
    await p.goto('/backups');
    await p.getByTestId('backup-row').first().waitFor({ timeout: 15_000 });
    const sideways = await p.evaluate(() =>
      [document.documentElement, ...document.querySelectorAll('.admin-table-wrap')].some(
        (el) => el.scrollWidth > el.clientWidth + 1,
      ),
    );
    expect(sideways).toBe(false);
    await axe(p, 'backups screen, phone');
    await p.screenshot({ path: `${SHOTS}/backups-phone.png`, fullPage: true });
    await p
      .getByTestId('backup-row')
      .first()
      .getByRole('button', { name: /^Download the backup of / })
      .click();
    await p.getByRole('dialog', { name: 'Download backup' }).waitFor();
    await axe(p, 'download dialog, phone');
    await p.screenshot({ path: `${SHOTS}/download-dialog-phone.png` });
    await p.keyboard.press('Escape');
    await p.getByRole('dialog', { name: 'Download backup' }).waitFor({ state: 'hidden' });
    await ctx.close();
  });
});
