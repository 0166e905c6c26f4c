/**
 * The shop's settings: choices the owner makes on Settings screens, kept in one table
 * (`shop_settings`, one row per key) that every process reads fresh, so a change needs no restart
 * and several processes agree. Each setting is declared once here: its schema, its default (what
 * a shop that never saved it gets), its label, and whether devices need it. A device setting
 * travels with the catalogue feed under the catalogue's version, as the slots do: a change to one
 * reaches phones as one row of a delta. Later features add their settings here.
 */
import * as v from 'valibot';
import { CancelHoursSchema, DEFAULT_CANCEL_HOURS } from './cancel-hours.js';
import {
  COD_PERSONALISED,
  CodPersonalisedSchema,
  codMessages,
  DEFAULT_COD_LIMIT,
  MAX_COD_LIMIT,
} from './cod-rules.js';
import { CouponTermsSchema } from './coupon-terms.js';
import { PHOTO_CAKE_NOTICE_DAYS } from './gifts.js';
import { PoliciesSchema } from './policies.js';
import { DEFAULT_SYNONYMS, SynonymsSchema } from './search-synonyms.js';
import { OfferSchema } from './shop-offer.js';
import { DEFAULT_PROFILE, ShopProfileSchema } from './shop-profile.js';

export const settingMessages = {
  photoCakeNoticeDays: 'The notice is a whole number of days from 0 to 7.',
  unknown: (key: string) => `No setting is called ${key}.`,
  empty: 'Change at least one setting.',
  saved: 'Settings saved.',
} as const;

/**
 * Every setting, its schema and default. `device: true` travels to phones in the catalogue feed.
 * `screen`: where the owner edits it. Settings → Shop settings draws one field per `'shop'` entry;
 * the others have their own screens (the profile's form, the policies, the offer, the search
 * synonyms: `search`, a screen still to come, set through `PUT /admin/settings` meanwhile).
 * `patch: false`: not taken by `PUT /admin/settings`, because its own endpoint checks more than its
 * schema can (the offer names a live coupon; the coupons' terms are the Coupons screen's). `section`: the heading a Shop settings field stands under
 * (`SETTING_SECTIONS`). `choices`: a picklist's options as the owner reads them (a select).
 */
export const SETTING_SECTIONS = {
  gifts: 'Gifts',
  payments: 'Payments',
  cancellation: 'Cancellation',
} as const;
export type SettingSection = keyof typeof SETTING_SECTIONS;

export const SETTINGS = {
  photoCakeNoticeDays: {
    screen: 'shop',
    section: 'gifts',
    patch: true,
    label: 'Photo cake notice (days)',
    help: 'How many days ahead a photo cake must be ordered: the print is made the day before. 0 lets it come the same day.',
    device: true,
    schema: v.pipe(
      v.number(settingMessages.photoCakeNoticeDays),
      v.integer(settingMessages.photoCakeNoticeDays),
      v.minValue(0, settingMessages.photoCakeNoticeDays),
      v.maxValue(7, settingMessages.photoCakeNoticeDays),
    ),
    default: PHOTO_CAKE_NOTICE_DAYS,
  },
  profile: {
    section: null,
    screen: 'profile',
    patch: true,
    label: 'Shop profile',
    help: 'Who the shop is and how it is reached: name, customer care, stores, licences, grievance officer.',
    device: true,
    schema: ShopProfileSchema,
    default: DEFAULT_PROFILE,
  },
  policies: {
    section: null,
    screen: 'policies',
    patch: true,
    label: 'Policies',
    help: 'The owner’s own text of each policy page; a policy not written here reads its default, made from the shop’s settings.',
    device: true,
    schema: PoliciesSchema,
    default: {},
  },
  policiesReviewed: {
    section: null,
    screen: 'policies',
    patch: true,
    label: 'Policies read',
    help: 'The owner has read the policy pages (the dashboard’s checklist ticks it).',
    device: false,
    schema: v.boolean(),
    default: false,
  },
  codEnabled: {
    screen: 'shop',
    section: 'payments',
    patch: true,
    label: 'Cash on Delivery offered',
    help: 'Untick to take online payment only. Orders already placed keep their payment.',
    device: true,
    schema: v.boolean(),
    default: true,
  },
  codLimit: {
    screen: 'shop',
    section: 'payments',
    patch: true,
    label: 'Cash on Delivery up to (₹)',
    help: 'An order above this total (items, delivery and slot charges, less the coupon) is paid online. 0: no limit.',
    device: true,
    schema: v.pipe(
      v.number(codMessages.limitInvalid),
      v.integer(codMessages.limitInvalid),
      v.minValue(0, codMessages.limitInvalid),
      v.maxValue(MAX_COD_LIMIT, codMessages.limitInvalid),
    ),
    default: DEFAULT_COD_LIMIT,
  },
  codPersonalised: {
    screen: 'shop',
    section: 'payments',
    patch: true,
    label: 'A cake with a message or a photo',
    help: 'Online only: such a cake cannot be refused at the door unpaid. Like any order: the rules above decide.',
    device: true,
    schema: CodPersonalisedSchema,
    choices: COD_PERSONALISED,
    default: 'any',
  },
  codOnlyConfirmed: {
    screen: 'shop',
    section: 'payments',
    patch: true,
    label: 'Cash on Delivery only',
    help: 'Tick when the shop takes Cash on Delivery only. Online payment comes on with Razorpay’s keys (RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET where the shop runs, docs/operations.md); either one ticks the dashboard’s checklist.',
    device: false,
    schema: v.boolean(),
    default: false,
  },
  cancelHoursBeforeSlot: {
    screen: 'shop',
    section: 'cancellation',
    patch: true,
    label: 'Shoppers may cancel until (hours before the slot)',
    help: 'A shopper cancels from the order page until this many hours before the delivery slot starts (and always within 15 minutes of ordering); what was paid online goes back in full. 0: until the slot starts.',
    device: true,
    schema: CancelHoursSchema,
    default: DEFAULT_CANCEL_HOURS,
  },
  searchSynonyms: {
    section: null,
    screen: 'search',
    patch: true,
    label: 'Search synonyms',
    help: 'Words shoppers type that the shop does not print, and the shop’s word each means (bday: birthday, केक: cake).',
    device: true,
    schema: SynonymsSchema,
    default: DEFAULT_SYNONYMS,
  },
  offer: {
    section: null,
    screen: 'offer',
    patch: false,
    label: 'Offer on product pages',
    help: 'The coupon the product pages advertise, as it was when it was chosen; none shows no banner.',
    device: true,
    schema: OfferSchema,
    default: null,
  },
  coupons: {
    section: null,
    screen: 'coupons',
    patch: false,
    label: 'Coupons on phones',
    help: "The conditions of the coupons not ended yet, each known by a hash of its code: written by the Coupons screen's every change.",
    device: true,
    schema: v.array(CouponTermsSchema),
    default: [],
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export type ShopSettings = { [K in SettingKey]: v.InferOutput<(typeof SETTINGS)[K]['schema']> };

export const DEFAULT_SETTINGS: ShopSettings = Object.fromEntries(
  SETTING_KEYS.map((k) => [k, SETTINGS[k].default]),
) as ShopSettings;

/** The settings devices need, and only those (the feed's `settings`). */
export const DEVICE_SETTING_KEYS: readonly SettingKey[] = SETTING_KEYS.filter((k) => SETTINGS[k].device);

export const ShopSettingsSchema = v.object(
  Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].schema])) as {
    [K in SettingKey]: (typeof SETTINGS)[K]['schema'];
  },
);
/** The settings `PUT /admin/settings` takes (the others have their own endpoint). */
export type PatchKey = {
  [K in SettingKey]: (typeof SETTINGS)[K]['patch'] extends true ? K : never;
}[SettingKey];
export const PATCH_KEYS = SETTING_KEYS.filter((k): k is PatchKey => SETTINGS[k].patch);
/** The settings Settings → Shop settings draws, one field each. */
export const SHOP_SCREEN_KEYS = SETTING_KEYS.filter((k) => SETTINGS[k].screen === 'shop');

/** The admin's change: any of the settings, each checked by its own schema; unknown keys are refused. */
export const SettingsPatchSchema = v.pipe(
  v.strictObject(
    Object.fromEntries(PATCH_KEYS.map((k) => [k, v.optional(SETTINGS[k].schema)])) as {
      [K in PatchKey]: v.OptionalSchema<(typeof SETTINGS)[K]['schema'], undefined>;
    },
  ),
  v.check((o) => Object.keys(o).length > 0, settingMessages.empty),
);
export type SettingsPatch = Partial<Pick<ShopSettings, PatchKey>>;

/** A device's settings as the feed brings them: any subset of the device keys. */
export const DeviceSettingsSchema = v.record(v.string(), v.unknown());

/**
 * The settings from stored rows (the database's, or the device's copy): each row's value where its
 * schema accepts it, the default otherwise (a row a later version wrote, or none yet). Never throws.
 */
export function readSettings(rows: Iterable<{ key: string; value: unknown }>): ShopSettings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const { key, value } of rows) {
    if (!(key in SETTINGS)) continue;
    const parsed = v.safeParse(SETTINGS[key as SettingKey].schema, value);
    if (parsed.success) out[key] = parsed.output;
  }
  return out as ShopSettings;
}
