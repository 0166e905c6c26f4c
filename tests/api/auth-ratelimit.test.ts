import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRateLimiter, RedisRateLimiter } from '../../api/ratelimit/ratelimit.js';
import { messages } from '../../domain/messages.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * The rate limiter on its real stores: the database of each dialect, and a
 * real Redis server started here (port 4209, nothing saved to disk). Windows
 * are moved by passing `now`, never by waiting.
 */
const REDIS_PORT = 4209;
const rule = { limit: 5, windowMs: 60_000 };

let redisServer: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  redisServer = spawn(
    'redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  // ioredis queues commands until the server accepts the connection, retrying as it starts.
  redis = new Redis({ port: REDIS_PORT, host: '127.0.0.1', retryStrategy: (n) => (n > 100 ? null : 50) });
  // Refused connections while the server starts are expected; ioredis retries them.
  redis.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNREFUSED') throw err;
  });
  expect(await redis.ping()).toBe('PONG');
  await redis.flushall();
});

afterAll(async () => {
  await redis.quit();
  redisServer.kill('SIGTERM');
});

describe('rate limits in Redis', () => {
  it('counts hits per key atomically and tells when the window ends', async () => {
    const limiter = new RedisRateLimiter(redis, 'test:');
    const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('burst', rule)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.map((d) => d.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const d of decisions) {
      expect(d.retryAfterMs).toBeGreaterThan(0);
      expect(d.retryAfterMs).toBeLessThanOrEqual(rule.windowMs);
    }
    expect((await limiter.hit('other', rule)).allowed).toBe(true);
    await limiter.reset('burst');
    expect(await limiter.hit('burst', rule)).toMatchObject({ allowed: true, count: 1 });
  });
});

for (const dialect of DIALECTS) {
  describe(`rate limits in the database on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await makeTestApp(dialect, { redisUrl: `redis://127.0.0.1:${REDIS_PORT}/0` });
    });
    afterAll(async () => {
      await t.close();
    });

    it('allows `limit` hits per window, then refuses until the window ends', async () => {
      const limiter = new DatabaseRateLimiter(t.db.kysely);
      const t0 = 1_000_000;
      const seen = [];
      for (let i = 0; i < 7; i++) seen.push(await limiter.hit('k', rule, t0 + i * 1000));
      expect(seen.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(seen[6]?.retryAfterMs).toBe(rule.windowMs - 6000);
      // Just before the window ends: still refused. At its end: a fresh window.
      expect((await limiter.hit('k', rule, t0 + rule.windowMs - 1)).allowed).toBe(false);
      expect(await limiter.hit('k', rule, t0 + rule.windowMs)).toMatchObject({ allowed: true, count: 1 });
      await limiter.reset('k');
      expect(await limiter.hit('k', rule, t0 + rule.windowMs + 1)).toMatchObject({ count: 1 });
      await limiter.prune(t0 + 10 * rule.windowMs);
      expect(
        await t.db.kysely.selectFrom('rate_limits').selectAll().where('key', '=', 'k').execute(),
      ).toEqual([]);
    });

    it('lets no parallel hit slip past the limit', async () => {
      const limiter = new DatabaseRateLimiter(t.db.kysely);
      const now = Date.now();
      const decisions = await Promise.all(
        Array.from({ length: 20 }, () => limiter.hit('parallel', rule, now)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
      expect(Math.max(...decisions.map((d) => d.count))).toBe(20);
    });

    it('hitAll counts each key as its own hit would, by its own window, in parallel too', async () => {
      const limiter = new DatabaseRateLimiter(t.db.kysely);
      const short = { limit: 2, windowMs: 10_000 };
      const t0 = 5_000_000;
      // Named out of key order: the answers follow the hits as given.
      const hits = [
        ['all:z', short],
        ['all:a', rule],
      ] as const;
      const first = await limiter.hitAll(hits, t0);
      expect(first.map((d) => [d.count, d.allowed])).toEqual([
        [1, true],
        [1, true],
      ]);
      await limiter.hitAll(hits, t0 + 1000);
      const third = await limiter.hitAll(hits, t0 + 2000);
      expect(third.map((d) => [d.count, d.allowed])).toEqual([
        [3, false],
        [3, true],
      ]);
      expect(third[0]?.retryAfterMs).toBe(short.windowMs - 2000);
      // The short window ended, the long one did not.
      const later = await limiter.hitAll(hits, t0 + short.windowMs);
      expect(later.map((d) => d.count)).toEqual([1, 4]);
      // The same key twice counts twice.
      expect((await limiter.hitAll([hits[1], hits[1]], t0 + short.windowMs)).map((d) => d.count)).toEqual([
        5, 6,
      ]);
      const now = Date.now();
      const parallel = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          limiter.hitAll(
            i % 2
              ? [
                  ['pair:a', rule],
                  ['pair:b', rule],
                ]
              : [
                  ['pair:b', rule],
                  ['pair:a', rule],
                ],
            now,
          ),
        ),
      );
      expect(parallel.flat().filter((d) => d.allowed)).toHaveLength(10);
      expect(Math.max(...parallel.flat().map((d) => d.count))).toBe(20);
    });

    it('with REDIS_URL set, the app keeps its login limits in Redis', async () => {
      const email = `redis-limit-${Date.now()}@example.test`;
      const login = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/LoginCustomer',
          payload: { email, password: 'Wrong-Pass1' },
        });
      for (let i = 0; i < 10; i++) expect((await login()).statusCode).toBe(401);
      const refused = await login();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ isSuccess: false, data: null, sys_message: messages.tooManyAttempts });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(await redis.get(`storefront:rl:login:email:${email}`))).toBe(11);
      // Nothing went to the database's counters.
      expect(
        await t.db.kysely.selectFrom('rate_limits').selectAll().where('key', 'like', 'login:%').execute(),
      ).toEqual([]);
    });
  });
}
