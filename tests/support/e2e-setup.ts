/**
 * Every browser test fails on a Content-Security-Policy violation seen while it
 * ran (tests/support/csp-guard.ts); one seen in a file's set-up or tear-down
 * fails the file.
 */
import { afterAll, afterEach, expect } from 'vitest';
import { takeCspViolations } from './csp-guard.js';

afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations during this test').toEqual([]);
});
afterAll(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations in set-up or tear-down').toEqual([]);
});
