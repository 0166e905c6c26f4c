/** The owner's coupon endpoints (`couponsApi`); the rules are `coupon.service.ts`'s and `domain/coupons.ts`'s. */
import type { FastifyInstance } from 'fastify';
import { couponsApi } from '../../domain/coupons.contract.js';
import { type CouponSummary, couponFormMessages } from '../../domain/coupons.js';
import { ok } from '../../domain/envelope.js';
import { notFound } from '../http/errors.js';
import { given, route } from '../http/route.js';
import { listCoupons } from './coupon.repository.js';
import { createCoupon, editCoupon, endCouponNow } from './coupon.service.js';

export default async function couponAdminRoutes(app: FastifyInstance): Promise<void> {
  async function summaryOf(code: string): Promise<CouponSummary> {
    const found = (await listCoupons(app.db, Date.now())).find((c) => c.code === code);
    if (!found) throw notFound(couponFormMessages.notFound(code));
    return found;
  }

  route(app, couponsApi.list, async () => ok(await listCoupons(app.db, Date.now())));

  route(app, couponsApi.create, async (ctx) => {
    const input = given(ctx.body);
    await createCoupon(app.db, input);
    return ok(await summaryOf(input.code), couponFormMessages.created(input.code));
  });

  route(app, couponsApi.edit, async (ctx) => {
    const { code } = given(ctx.params);
    await editCoupon(app.db, code, given(ctx.body));
    return ok(await summaryOf(code), couponFormMessages.saved(code));
  });

  route(app, couponsApi.end, async (ctx) => {
    const { code } = given(ctx.params);
    const done = await endCouponNow(app.db, code);
    const said = done === 'ended' ? couponFormMessages.ended(code) : couponFormMessages.alreadyEnded(code);
    return ok(await summaryOf(code), said);
  });
}
