import type { FastifyInstance } from 'fastify';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { HttpError } from '../http/errors.js';
import { route } from '../http/route.js';
import { checkCoupon } from './coupon.service.js';

/**
 * `POST /api/VerifyCoupon`. The spec's client reads `discountAmount` at the top
 * level of the answer; newer code reads `data`. Both carry it, on success and
 * on refusal (0), with a truthful status.
 */
export default async function couponRoutes(app: FastifyInstance): Promise<void> {
  route(app, ordersContract.verifyCoupon, async ({ body, request, reply }) => {
    const code = body?.code ?? '';
    try {
      const coupon = await checkCoupon(app.db, code, request.user.id, Date.now());
      const answer = {
        isSuccess: true,
        data: { code: coupon.code, discountAmount: coupon.amount },
        discountAmount: coupon.amount,
        sys_message: messages.couponApplied(formatRupees(coupon.amount)),
      };
      return answer;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      reply.code(err.statusCode);
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
