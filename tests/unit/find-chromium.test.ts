import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium, NO_BROWSER_MESSAGE } from '../support/e2e.js';

/**
 * The browser tests find a Chromium on any machine: CHROMIUM_PATH, else chromium,
 * chromium-browser or google-chrome on the PATH, else Playwright's installed browser; with none,
 * the run stops at once with one message naming the three ways.
 */
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'storefront-browser-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function executable(dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  chmodSync(file, 0o755);
  return file;
}
const folder = (name: string) => mkdtempSync(path.join(scratch, `${name}-`));
const noPlaywright = () => path.join(scratch, 'no-such-playwright-browser');

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, and refuses one that names no executable', () => {
    const dir = folder('named');
    const named = executable(dir, 'my-chrome');
    const onPath = folder('path');
    executable(onPath, 'chromium');
    expect(findChromium({ CHROMIUM_PATH: named, PATH: onPath }, noPlaywright)).toBe(named);
    expect(() => findChromium({ CHROMIUM_PATH: path.join(dir, 'typo'), PATH: onPath }, noPlaywright)).toThrow(
      /CHROMIUM_PATH=.*typo is not an executable file/,
    );
  });

  it('then chromium, chromium-browser or google-chrome on the PATH, in that order', () => {
    const first = folder('first');
    const second = folder('second');
    const chrome = executable(first, 'google-chrome');
    expect(findChromium({ PATH: [first, second].join(path.delimiter) }, noPlaywright)).toBe(chrome);
    const snap = executable(second, 'chromium-browser');
    expect(findChromium({ PATH: [first, second].join(path.delimiter) }, noPlaywright)).toBe(snap);
    // A folder, or a file that cannot run, is not a browser.
    const odd = folder('odd');
    writeFileSync(path.join(odd, 'chromium'), 'not a program', { mode: 0o644 });
    expect(findChromium({ PATH: odd }, noPlaywright)).toBeNull();
  });

  it("then Playwright's installed browser, else none", () => {
    const installed = executable(folder('playwright'), 'chrome');
    expect(findChromium({ PATH: folder('empty') }, () => installed)).toBe(installed);
    expect(findChromium({ PATH: folder('empty') }, noPlaywright)).toBeNull();
  });

  it('stops a browser-test run at once with one message naming the three ways', async () => {
    // A PATH with node and nothing else, and no Playwright browser: this machine's Chromium is hidden.
    const bin = folder('bin');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const started = Date.now();
    const result = await run(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e', 'tests/e2e/smoke.test.ts'],
      {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: {
          PATH: bin,
          HOME: scratch,
          PLAYWRIGHT_BROWSERS_PATH: path.join(scratch, 'no-playwright-browsers'),
          TEST_DATABASE_URL: '',
        },
      },
    ).then(
      () => ({ code: 0, out: '' }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    expect(result.code).not.toBe(0);
    const firstLine = NO_BROWSER_MESSAGE.split('\n')[0] as string;
    expect(result.out).toContain(firstLine);
    for (const way of ['CHROMIUM_PATH', 'chromium-browser', 'playwright-core install chromium'])
      expect(result.out).toContain(way);
    // Stopped before any server was built or started.
    expect(result.out).not.toMatch(/The shop is open|vite v/);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
