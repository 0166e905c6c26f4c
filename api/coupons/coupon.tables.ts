/** Row types of the coupons and their redemptions. They never leave the repository. */
import type { Generated } from 'kysely';

export interface CouponsTable {
  code: string;
  /** A flat coupon's rupees off; a percentage's cap in rupees. */
  discount_amount: number;
  /** Null for a flat coupon. */
  percent: number | null;
  min_items: Generated<number>;
  first_order_only: number;
  max_uses: number | null;
  per_account: Generated<number>;
  /** Redemptions that count (a cancelled order gives its use back), kept by the redeeming update. */
  uses: Generated<number>;
  active: number;
  starts_at: number | null;
  /** The end (an owner's "End now" sets it to that moment); null for none. */
  expires_at: number | null;
  created_at: number;
}

export interface CouponRedemptionsTable {
  id: Generated<number>;
  coupon_code: string;
  user_id: number;
  order_id: number;
  /** Which of the account's `per_account` uses this is (unique per coupon and account). */
  account_slot: number;
  redeemed_at: number;
}

export interface CouponTables {
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
}
