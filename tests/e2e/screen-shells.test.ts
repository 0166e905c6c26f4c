import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';

/**
 * The login form in the server's HTML (api/pages/screen-shells.ts, rendered by the build from the
 * app's own Login screen): a first visit paints it with the HTML, where and as the app then renders
 * it, and the app's form takes its place. Real Chromium, the real server and its build.
 */
let shop: Shop;
let server: RunningServer;

beforeAll(async () => {
  shop = await openShop();
  ({ server } = shop);
});

afterAll(() => shop?.close());

const PARTS = ['h1', 'form', '.account__switch', '.account__links'] as const;

/** The login screen's parts inside `root`: their words and where they are on the screen. */
function layout(page: Page, root: string) {
  return page.evaluate(
    ({ root, parts }) =>
      parts.map((part) => {
        const el = document.querySelector(`${root} .page.account ${part}`);
        const box = el?.getBoundingClientRect();
        return {
          part,
          text: (el as HTMLElement | null)?.innerText ?? null,
          box: box && [box.x, box.y, box.width, box.height].map((n) => Math.round(n)),
        };
      }),
    { root, parts: PARTS },
  );
}

describe('a first visit to /login', () => {
  for (const [label, width] of [
    ['a phone', 412],
    ['a laptop', 1280],
  ] as const) {
    it(`shows the login form with the HTML, as and where the app then renders it (${label})`, async () => {
      const context = await shop.browser.newContext({
        baseURL: server.url,
        viewport: { width, height: 823 },
        serviceWorkers: 'block',
      });
      try {
        const page = await context.newPage();
        // The app's code held back: what the HTML alone paints.
        await page.route('**/assets/*.js', (route) => route.abort());
        await page.goto('/login');
        const shell = await layout(page, '#root > .shell-screen');
        expect(shell.map((p) => p.text)).toEqual([
          'Login',
          expect.stringMatching(/^Email\s+Password\s+Show\s+password\s+Login$/),
          'Log in with a code instead',
          expect.stringMatching(/^Forgot password\?\s+New here\? Create an account$/),
        ]);
        // Nothing in it can be used or heard before the app's form stands in its place.
        expect(
          await page.evaluate(() => {
            const el = document.querySelector('#root > .shell-screen');
            return [el?.getAttribute('aria-hidden'), el?.hasAttribute('inert')];
          }),
        ).toEqual(['true', true]);
        await page.unroute('**/assets/*.js');

        const app = await context.newPage();
        await app.goto('/login');
        await app.getByRole('heading', { name: 'Login', level: 1 }).waitFor();
        await app.getByRole('textbox', { name: 'Email' }).fill('shopper@example.test');
        expect(await app.locator('.shell-screen').count()).toBe(0);
        const shown = await layout(app, 'main#main');
        // The same words in the same places: the header's outline and the status line are as tall as
        // the app's, and the screen's stylesheet came inline.
        expect(shown.map((p) => p.box)).toEqual(shell.map((p) => p.box));
        expect(shown.map((p) => p.text)).toEqual(shell.map((p) => p.text));
      } finally {
        await context.close();
      }
    });
  }

  it('renders the screen once its code is here, without the loading layout before it', async () => {
    const context = await shop.browser.newContext({ baseURL: server.url, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        new MutationObserver(() => {
          if (document.querySelector('[role=progressbar][aria-label="Loading page"]'))
            (window as unknown as { sawLoading: boolean }).sawLoading = true;
        }).observe(document, { subtree: true, childList: true });
      });
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Login', level: 1 }).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { sawLoading?: boolean }).sawLoading ?? false),
      ).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("shows the working layout and its loading state while the screen's code is slow to come", async () => {
    const context = await shop.browser.newContext({ baseURL: server.url, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/assets/Login-*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/login');
      // The header works (its search box takes words) while the login screen's code has not come.
      await page.getByRole('progressbar', { name: 'Loading page' }).waitFor();
      await page.getByRole('combobox', { name: 'Search products' }).fill('cake');
      expect(await page.locator('main#main h1').count()).toBe(0);
      release();
      await page.getByRole('heading', { name: 'Login', level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });
});
