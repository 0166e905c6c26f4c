/**
 * A counter that slows answers down instead of refusing them, for counts a stranger can run up on
 * someone else's behalf (everything about one email, from any address): refusing there would let
 * the stranger lock the owner out. Past the rule's limit each hit waits, from `firstMs`, doubling
 * with every hit over, up to `maxMs`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RateRule } from './ratelimit.js';

export const SLOW_DOWN = { firstMs: 500, maxMs: 5_000 } as const;

/** How long a hit counted `count` in the window of `rule` waits: nothing within the limit. */
export function slowDownMs(
  count: number,
  rule: RateRule,
  pace: { firstMs: number; maxMs: number } = SLOW_DOWN,
): number {
  const over = count - rule.limit;
  if (over <= 0) return 0;
  // The exponent is capped so a huge count cannot overflow to Infinity before the cap applies.
  return Math.min(pace.maxMs, pace.firstMs * 2 ** Math.min(over - 1, 30));
}

/**
 * The waiting itself: a timer and nothing more, so a slowed request holds no database connection,
 * no transaction and no hashing slot while it waits. One object, so tests can replace `wait` and
 * count the waits instead of spending them.
 */
export const pacing = {
  wait(ms: number): Promise<void> {
    return ms > 0 ? sleep(ms) : Promise.resolve();
  },
};
