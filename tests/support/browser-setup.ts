import { findChromium, NO_BROWSER_MESSAGE } from './e2e.js';

/**
 * The browser tests' own global setup: without a browser the run stops here, once, with the
 * ways to get one, instead of every test file failing on Playwright's launch error.
 */
export default function setup(): void {
  const browser = findChromium();
  if (!browser) {
    const error = new Error(NO_BROWSER_MESSAGE);
    // The message is the whole story: no stack of vitest's internals under it.
    error.stack = `Error: ${NO_BROWSER_MESSAGE}`;
    throw error;
  }
  console.log(`Browser tests run in ${browser}.`);
}
