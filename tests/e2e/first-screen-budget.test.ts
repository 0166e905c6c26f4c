import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, tempDir } from '../support/e2e.js';
import {
  FIRST_SCREEN_BUDGET,
  type FirstScreen,
  firstScreenOf,
  firstScreenProblems,
} from '../support/first-screen.js';

/**
 * The first screen's JavaScript, counted in bytes from the production build: `npm run check` and CI
 * fail when it passes its budget or when admin code reaches it. A count, never a timing; the
 * browser's own figures (what it downloads until the network is quiet, Lighthouse) are
 * `npm run bench -- storefront`'s.
 */
let dir: string;
let screen: FirstScreen;

beforeAll(async () => {
  dir = await buildWeb(tempDir('first-screen'));
  screen = firstScreenOf(dir);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the first screen's JavaScript", () => {
  it('is within its budget in gzip-9 bytes, with no admin code', () => {
    console.log(
      `first screen: ${screen.gzip.toLocaleString('en')} bytes gzip-9 of ${FIRST_SCREEN_BUDGET.toLocaleString('en')} (${screen.files.map((f) => `${f.name} ${f.gzip}`).join(', ')})`,
    );
    expect(firstScreenProblems(screen)).toEqual([]);
  });

  it('is one file, the entry with the libraries it runs, and counts every one of them', () => {
    const names = screen.files.map((f) => f.name);
    // vite.config.ts's first-screen group: a second file (a shared chunk, the bundler's runtime) is
    // one more request, and compressed alone it costs the budget more than the same code in one file.
    expect(names).toEqual([expect.stringMatching(/^assets\/index-/)]);
    // React, react-dom, React Router and Dexie are in it (about 127 KiB of gzip), not left to another chunk.
    expect(screen.gzip).toBeGreaterThan(120 * 1024);
    // Lazy screens are not counted, and not loaded before the first screen either.
    expect(names.some((n) => /ProductDetails|Checkout|Login/.test(n))).toBe(false);
  });

  it('fails one byte over the budget, and on admin code', () => {
    expect(firstScreenProblems({ gzip: FIRST_SCREEN_BUDGET, admin: [] })).toEqual([]);
    expect(firstScreenProblems({ gzip: FIRST_SCREEN_BUDGET + 1, admin: [] })).toHaveLength(1);
    expect(firstScreenProblems({ gzip: 1, admin: ['assets/admin-Orders-x.js'] })).toHaveLength(1);
  });
});
