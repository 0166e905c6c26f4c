import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One `npm test` runs every kind of test, each as its own project:
 * unit (domain rules), api (the server through inject, on SQLite and on
 * PostgreSQL), web (components in jsdom over fake-indexeddb) and e2e (real
 * Chromium against the real server, one file at a time).
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/web/setup.ts'],
          // Longer than the 5 s that setup.ts gives testing-library's waits: a test that waits once for a
          // lazy screen's first transform on a loaded machine must not be cut off by the test's own limit.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // Fails a browser test on any Content-Security-Policy violation (tests/support/csp-guard.ts).
          setupFiles: ['tests/support/e2e-setup.ts'],
          // Finds the browser once (tests/support/e2e.ts), or stops the run naming the ways to get one.
          globalSetup: ['tests/support/browser-setup.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
