/** Row types of the coupons and their redemptions. They never leave the repository. */
import type { Generated } from 'kysely';

export interface CouponsTable {
  code: string;
  discount_amount: number;
  first_order_only: number;
  single_use: number;
  active: number;
  expires_at: number | null;
  created_at: number;
}

export interface CouponRedemptionsTable {
  id: Generated<number>;
  coupon_code: string;
  user_id: number;
  order_id: number;
  single_use_slot: string | null;
  redeemed_at: number;
}

export interface CouponTables {
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
}
