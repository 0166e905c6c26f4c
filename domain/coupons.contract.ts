/** The owner's coupons (`domain/coupons.ts`): list, make, edit and end; never delete. */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import { CouponEditSchema, CouponInputSchema, CouponParamsSchema, CouponSummarySchema } from './coupons.js';

export const couponsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/coupons',
    summary:
      'Every coupon, newest first: what it takes off, its conditions and window, where it stands (live, scheduled, ended), its uses and the rupees it took off orders that count',
    tag: 'Admin',
    access: 'admin',
    response: v.array(CouponSummarySchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/coupons',
    summary:
      'Make a coupon: a code (letters and digits, kept upper-case, unique), a flat amount or a percentage with a cap, a minimum for the items, first order only, uses in all and per account, a start and an end (epoch ms)',
    tag: 'Admin',
    access: 'admin',
    response: CouponSummarySchema,
    body: CouponInputSchema,
  }),
  edit: endpoint({
    method: 'PUT',
    path: '/admin/coupons/{code}',
    summary:
      "Change a coupon's terms (its code stays: orders name it). An advertised coupon's banner changes with it; phones get both with the next sync",
    tag: 'Admin',
    access: 'admin',
    response: CouponSummarySchema,
    params: CouponParamsSchema,
    body: CouponEditSchema,
    refusals: [404],
  }),
  end: endpoint({
    method: 'POST',
    path: '/admin/coupons/{code}/end',
    summary:
      'End a coupon now: shoppers can no longer use it and its banner goes; it is kept, so every order still names what it used',
    tag: 'Admin',
    access: 'admin',
    response: CouponSummarySchema,
    params: CouponParamsSchema,
    refusals: [404],
  }),
} as const;
