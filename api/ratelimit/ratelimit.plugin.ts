import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { DatabaseRateLimiter, type RateLimiter, RedisRateLimiter } from './ratelimit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared rate limits: Redis when REDIS_URL is set, otherwise the database. */
    rateLimiter: RateLimiter;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    let limiter: RateLimiter;
    if (app.config.redisUrl) {
      // Fail fast on a wrong URL at start rather than on the first login.
      const redis = new Redis(app.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
      await redis.connect();
      limiter = new RedisRateLimiter(redis);
    } else {
      limiter = new DatabaseRateLimiter(app.db);
    }
    app.decorate('rateLimiter', limiter);
    app.addHook('onClose', async () => limiter.close());
  },
  { name: 'ratelimit', dependencies: ['database'] },
);
