import { couponKey } from '../../domain/coupon-terms.js';
import { DEFAULT_SETTINGS, DEVICE_SETTING_KEYS, type ShopSettings } from '../../domain/settings.js';

/**
 * The settings of a fresh database: every default, but for the phones' coupon terms, which the
 * coupons migration writes for the seeded SAVE200 (api/db/migrations/20261129_0900_coupon_terms.ts).
 */
export async function freshSettings(): Promise<ShopSettings> {
  const save200 = {
    key: await couponKey('SAVE200'),
    off: { kind: 'flat' as const, amount: 200 },
    minItems: 0,
    firstOrderOnly: true,
    startsAt: null,
    endsAt: null,
  };
  return { ...DEFAULT_SETTINGS, coupons: [save200] };
}

/** The same, only the settings phones get (the feed's `settings` on a full snapshot). */
export async function freshDeviceSettings(): Promise<Record<string, unknown>> {
  const all = await freshSettings();
  return Object.fromEntries(DEVICE_SETTING_KEYS.map((k) => [k, all[k]]));
}
