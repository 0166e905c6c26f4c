import type { FastifyInstance } from 'fastify';
import { couponMessages, couponTakes } from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { HttpError, tooMany } from '../http/errors.js';
import { route } from '../http/route.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { checkCoupon } from './coupon.service.js';

const MINUTE = 60_000;
/**
 * A coupon code is a secret worth money: unlimited checks let a script walk the code space
 * (300 guesses in 1.4 s). Budgets like code checks: enough for a shopper who mistypes, per
 * account and per client address, whichever runs out first.
 */
export const COUPON_RULES: { account: RateRule; ip: RateRule } = {
  account: { limit: 10, windowMs: 15 * MINUTE },
  ip: { limit: 60, windowMs: 15 * MINUTE },
};

/**
 * `POST /api/VerifyCoupon`. The spec's client reads `discountAmount` at the top
 * level of the answer; newer code reads `data`. Both carry it, on success and
 * on refusal (0), with a truthful status. With the basket's `subtotal`, its minimum is judged and
 * a percentage's amount worked out.
 */
export default async function couponRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);

  async function limit(userId: number, ip: string): Promise<void> {
    const decisions = await Promise.all([
      app.rateLimiter.hit(`coupon:ip:${ip}`, COUPON_RULES.ip),
      app.rateLimiter.hit(`coupon:account:${userId}`, COUPON_RULES.account),
    ]);
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length) {
      throw tooMany(messages.tooManyAttempts, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000);
    }
  }

  route(app, ordersContract.verifyCoupon, async ({ body, request, reply }) => {
    const code = body?.code ?? '';
    try {
      await limit(request.user.id, request.ip);
      const subtotal = body?.subtotal ?? null;
      const coupon = await checkCoupon(app.db, code, request.user.id, Date.now(), subtotal);
      // Without the basket, a flat coupon's amount is what it takes; a percentage's waits for one.
      const amount =
        subtotal === null
          ? coupon.off.kind === 'flat'
            ? coupon.off.amount
            : 0
          : couponTakes(coupon, subtotal);
      const answer = {
        isSuccess: true,
        data: { code: coupon.code, discountAmount: amount, off: coupon.off, minItems: coupon.minItems },
        discountAmount: amount,
        sys_message: couponMessages.applied(coupon.off, amount),
      };
      return answer;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      reply.code(err.statusCode);
      reply.headers(err.headers);
      const answer = {
        isSuccess: false,
        data: { code, discountAmount: 0 },
        discountAmount: 0,
        sys_message: err.message,
      };
      return answer;
    }
  });
}
