/**
 * Fixed-window rate limits kept outside the process (the database, or Redis
 * when REDIS_URL is set), so every API process behind a load balancer counts
 * against the same budget. A hit is one atomic statement: no read-then-write
 * race lets parallel requests slip past the limit.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooMany } from '../http/errors.js';

export interface RateRule {
  /** Hits allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** When the current window ends, from now (for Retry-After). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Counts one hit on `key` and says whether it is within `rule`. */
  hit(key: string, rule: RateRule, now?: number): Promise<RateDecision>;
  /** Counts one hit on each key, as `hit` does each, in as few trips as the store allows. */
  hitAll(hits: readonly Hit[], now?: number): Promise<RateDecision[]>;
  /** Forgets a key (e.g. the failed-login counter of an email after a good login). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export type Hit = readonly [key: string, rule: RateRule];

function decide(count: number, windowStart: number, rule: RateRule, now: number): RateDecision {
  return {
    allowed: count <= rule.limit,
    count,
    retryAfterMs: Math.max(0, windowStart + rule.windowMs - now),
  };
}

export class DatabaseRateLimiter implements RateLimiter {
  private hits = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, rule: RateRule, now = Date.now()): Promise<RateDecision> {
    const [decision] = await this.hitAll([[key, rule]], now);
    if (!decision) throw new Error(`rate limit: no count for ${key}`);
    return decision;
  }

  /**
   * One upsert for all the keys, on both dialects: a window that has ended starts again at 1.
   * Each row's own window is `excluded`'s (the row as it would have been inserted), so keys
   * with different rules share the statement. Rows go in key order: two requests upserting
   * overlapping keys lock them in the same order and never deadlock on PostgreSQL. A key named
   * twice is counted twice, one statement after the other (a statement may touch a row once).
   */
  async hitAll(hits: readonly Hit[], now = Date.now()): Promise<RateDecision[]> {
    const keys = new Set(hits.map(([key]) => key));
    if (keys.size < hits.length) {
      const decisions: RateDecision[] = [];
      for (const [key, rule] of hits) decisions.push(await this.hit(key, rule, now));
      return decisions;
    }
    if (!hits.length) return [];
    const rows = [...hits]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, rule]) => ({ key, count: 1, window_start: now, window_ms: rule.windowMs }));
    const counted = await this.db
      .insertInto('rate_limits')
      .values(rows)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const ended = eb(
            'rate_limits.window_start',
            '<=',
            eb(eb.ref('excluded.window_start'), '-', eb.ref('excluded.window_ms')),
          );
          return {
            count: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('rate_limits.count', '+', 1))
              .end(),
            window_start: eb
              .case()
              .when(ended)
              .then(eb.ref('excluded.window_start'))
              .else(eb.ref('rate_limits.window_start'))
              .end(),
            window_ms: eb.ref('excluded.window_ms'),
          };
        }),
      )
      .returning(['key', 'count', 'window_start'])
      .execute();
    const byKey = new Map(counted.map((r) => [r.key, r]));
    this.hits += hits.length;
    if (this.hits >= 500) {
      this.hits = 0;
      await this.prune(now);
    }
    return hits.map(([key, rule]) => {
      const row = byKey.get(key);
      if (!row) throw new Error(`rate limit: no count for ${key}`);
      return decide(Number(row.count), Number(row.window_start), rule, now);
    });
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Drops windows that have ended, so the table holds only live counters. */
  async prune(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('rate_limits')
      .where((eb) => eb(eb('window_start', '+', eb.ref('window_ms')), '<=', now))
      .execute();
  }

  async close(): Promise<void> {}
}

/**
 * Redis: INCR the key, and give it the window as its lifetime when the INCR
 * created it (a Lua script, so the two steps are one atomic step). The key's
 * remaining lifetime is the Retry-After. Time is Redis's own, so `now` is ignored.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'storefront:rl:',
  ) {}

  async hit(key: string, rule: RateRule): Promise<RateDecision> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(rule.windowMs))) as [
      number,
      number,
    ];
    return { allowed: count <= rule.limit, count, retryAfterMs: Math.max(0, ttl) };
  }

  /** Redis answers commands on one connection in order; sent together, they cost one wait. */
  hitAll(hits: readonly Hit[]): Promise<RateDecision[]> {
    return Promise.all(hits.map(([key, rule]) => this.hit(key, rule)));
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/**
 * Counts one hit on each `[key, rule]` and refuses (429 with Retry-After) when any ran out:
 * an endpoint limited per account and per address at once, whichever runs out first.
 */
export async function hitOrRefuse(
  limiter: RateLimiter,
  hits: readonly Hit[],
  message: string,
): Promise<void> {
  const decisions = await limiter.hitAll(hits);
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length) throw tooMany(message, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000);
}
