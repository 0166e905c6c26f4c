/**
 * The coupon rules, once, for the server (every path that prices an order: `place-order`,
 * `VerifyCoupon`, the paid order a webhook places), the owner's Coupons screen and the phone that
 * queues an order offline: what a coupon is, the owner's form, and which condition refuses it, in
 * words that name the coupon and the condition ("SAVE200 needs items of at least ₹999").
 */
import * as v from 'valibot';
import { type CouponOff, CouponOffSchema, couponDiscount } from './coupon-terms.js';
import { formatIndiaDateTime, formatIndiaDayMonth } from './india-time.js';
import { formatRupees } from './money.js';

const int = v.pipe(v.number(), v.integer());

/** A coupon as the shop keeps it. */
export interface Coupon {
  code: string;
  off: CouponOff;
  minItems: number;
  firstOrderOnly: boolean;
  /** Uses in the whole shop; null: no limit. */
  maxUses: number | null;
  perAccount: number;
  startsAt: number | null;
  endsAt: number | null;
  /** False for a coupon taken off offer before end dates existed (the demo's); it reads as ended. */
  active: boolean;
}

/** Where a coupon stands at `now`: live, not started yet, or ended (its end passed, or ended by the owner). */
export type CouponState = 'live' | 'scheduled' | 'ended';
export function couponState(c: Pick<Coupon, 'startsAt' | 'endsAt' | 'active'>, now: number): CouponState {
  if (!c.active || (c.endsAt !== null && c.endsAt <= now)) return 'ended';
  return c.startsAt !== null && c.startsAt > now ? 'scheduled' : 'live';
}

/** What the server knows of this account and this coupon when it judges it. */
export interface CouponFacts {
  now: number;
  /** The items' total (before delivery); null when the asker did not say (the spec's `{code}`). */
  subtotal: number | null;
  usedByAccount: number;
  usedInAll: number;
  /** The account has an order that counts (a cancelled one does not). */
  hasOrders: boolean;
}

export type CouponRefusalKind = 'ended' | 'not-started' | 'first-order' | 'used' | 'used-up' | 'minimum';

/** The words a shopper reads for each refusal, naming the coupon and its condition. */
export const couponMessages = {
  ended: (code: string, endsAt: number | null) =>
    // An end at midnight is read as the day before it: "ended on 2 Nov" for an offer through 2 Nov.
    endsAt === null ? `${code} has ended` : `${code} ended on ${formatIndiaDayMonth(endsAt - 1)}`,
  notStarted: (code: string, startsAt: number) => `${code} starts on ${formatIndiaDateTime(startsAt)}`,
  firstOrder: (code: string) => `${code} is for a first order only`,
  used: (code: string) => `You have used ${code} already`,
  usedUp: (code: string) => `${code} has been used up`,
  minimum: (code: string, minItems: number) => `${code} needs items of at least ${formatRupees(minItems)}`,
  /** The spec's words for a flat coupon; a percentage says its own amount. */
  applied: (off: CouponOff, discount: number) =>
    off.kind === 'flat'
      ? `Coupon applied: ${formatRupees(discount)} off!`
      : `Coupon applied: ${off.percent}% off${discount > 0 ? `, ${formatRupees(discount)}` : ''}!`,
  /** A coupon matched on the phone offline: what it likely takes off, decided when the order is sent. */
  likely: (code: string, discount: number) =>
    `${code}: likely ${formatRupees(discount)} off. The shop confirms it when your order is sent.`,
} as const;

/** The first condition that refuses the coupon, or null when it holds. */
export function couponRefusal(
  c: Coupon,
  f: CouponFacts,
): { kind: CouponRefusalKind; message: string } | null {
  const state = couponState(c, f.now);
  if (state === 'ended') return { kind: 'ended', message: couponMessages.ended(c.code, c.endsAt) };
  if (state === 'scheduled' && c.startsAt !== null) {
    return { kind: 'not-started', message: couponMessages.notStarted(c.code, c.startsAt) };
  }
  if (c.firstOrderOnly && f.hasOrders)
    return { kind: 'first-order', message: couponMessages.firstOrder(c.code) };
  if (f.usedByAccount >= c.perAccount) return { kind: 'used', message: couponMessages.used(c.code) };
  if (c.maxUses !== null && f.usedInAll >= c.maxUses)
    return { kind: 'used-up', message: couponMessages.usedUp(c.code) };
  if (f.subtotal !== null && f.subtotal < c.minItems) {
    return { kind: 'minimum', message: couponMessages.minimum(c.code, c.minItems) };
  }
  return null;
}

/** The rupees the coupon takes off items worth `subtotal` (0 under its minimum). */
export function couponTakes(c: Pick<Coupon, 'off' | 'minItems'>, subtotal: number): number {
  return subtotal < c.minItems ? 0 : couponDiscount(c.off, subtotal);
}

/** What the coupon takes off, as the owner's list and the banner word it: "₹200" or "10% up to ₹300". */
export function offText(off: CouponOff): string {
  return off.kind === 'flat' ? formatRupees(off.amount) : `${off.percent}% up to ${formatRupees(off.cap)}`;
}

/** The conditions in a line: "first order · items from ₹999 · 1 per account · 100 in all". */
export function conditionsText(
  c: Pick<Coupon, 'minItems' | 'firstOrderOnly' | 'perAccount' | 'maxUses'>,
): string {
  const parts = [
    c.firstOrderOnly ? 'first order only' : '',
    c.minItems > 0 ? `items from ${formatRupees(c.minItems)}` : '',
    `${c.perAccount} per account`,
    c.maxUses === null ? '' : `${c.maxUses} in all`,
  ];
  return parts.filter(Boolean).join(' · ');
}

export const couponFormMessages = {
  code: 'A coupon code is 2 to 30 letters and digits.',
  duplicate: (code: string) => `There is already a coupon ${code}: choose another code.`,
  amount: 'The amount off is a whole number of rupees, at least ₹1.',
  percent: 'The percentage is a whole number from 1 to 100.',
  cap: 'The cap is a whole number of rupees, at least ₹1.',
  minItems: 'The minimum order is a whole number of rupees, 0 for none.',
  maxUses: 'Uses in all is a whole number, at least 1, or empty for no limit.',
  perAccount: 'Uses per account is a whole number from 1 to 100.',
  when: 'A start or end is a date and time.',
  endsAt: 'The end must be after the start.',
  notFound: (code: string) => `No coupon is called ${code}.`,
  saved: (code: string) => `Coupon ${code} saved.`,
  created: (code: string) => `Coupon ${code} created.`,
  ended: (code: string) => `${code} has ended: shoppers can no longer use it.`,
  alreadyEnded: (code: string) => `${code} had already ended.`,
} as const;

const wholeRupees = (message: string, min: number) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(10_000_000, message));
const instant = v.nullable(
  v.pipe(
    v.number(couponFormMessages.when),
    v.integer(couponFormMessages.when),
    v.minValue(0, couponFormMessages.when),
    v.maxValue(8_640_000_000_000_000, couponFormMessages.when),
  ),
);

export const CouponCodeSchema = v.pipe(
  v.string(couponFormMessages.code),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9]{2,30}$/, couponFormMessages.code),
);

/** The owner's form, without the code (which a coupon keeps for life: orders name it). */
const CouponFieldsSchema = v.object({
  off: v.variant(
    'kind',
    [
      v.object({ kind: v.literal('flat'), amount: wholeRupees(couponFormMessages.amount, 1) }),
      v.object({
        kind: v.literal('percent'),
        percent: v.pipe(
          v.number(couponFormMessages.percent),
          v.integer(couponFormMessages.percent),
          v.minValue(1, couponFormMessages.percent),
          v.maxValue(100, couponFormMessages.percent),
        ),
        cap: wholeRupees(couponFormMessages.cap, 1),
      }),
    ],
    'What the coupon takes off is a flat amount or a percentage.',
  ),
  minItems: wholeRupees(couponFormMessages.minItems, 0),
  firstOrderOnly: v.boolean('First order only is yes or no.'),
  maxUses: v.nullable(
    v.pipe(
      v.number(couponFormMessages.maxUses),
      v.integer(couponFormMessages.maxUses),
      v.minValue(1, couponFormMessages.maxUses),
      v.maxValue(10_000_000, couponFormMessages.maxUses),
    ),
  ),
  perAccount: v.pipe(
    v.number(couponFormMessages.perAccount),
    v.integer(couponFormMessages.perAccount),
    v.minValue(1, couponFormMessages.perAccount),
    v.maxValue(100, couponFormMessages.perAccount),
  ),
  startsAt: instant,
  endsAt: instant,
});

/** A window's end comes after its start (either may be open). */
export function endsAfterStart(c: { startsAt: number | null; endsAt: number | null }): boolean {
  return c.startsAt === null || c.endsAt === null || c.endsAt > c.startsAt;
}

/** An end before (or at) the start is refused at the end's field. */
export const CouponEditSchema = v.pipe(
  v.strictObject(CouponFieldsSchema.entries),
  v.forward(
    v.check((c) => endsAfterStart(c), couponFormMessages.endsAt),
    ['endsAt'],
  ),
);
export const CouponInputSchema = v.pipe(
  v.strictObject({ code: CouponCodeSchema, ...CouponFieldsSchema.entries }),
  v.forward(
    v.check((c) => endsAfterStart(c), couponFormMessages.endsAt),
    ['endsAt'],
  ),
);
export type CouponEdit = v.InferOutput<typeof CouponEditSchema>;
export type CouponInput = v.InferOutput<typeof CouponInputSchema>;

export const CouponParamsSchema = v.object({ code: CouponCodeSchema });

/** A coupon on the owner's list: the coupon, where it stands, and what it has given. */
export const CouponSummarySchema = v.object({
  code: v.string(),
  off: CouponOffSchema,
  minItems: int,
  firstOrderOnly: v.boolean(),
  maxUses: v.nullable(int),
  perAccount: int,
  startsAt: v.nullable(v.number()),
  endsAt: v.nullable(v.number()),
  state: v.picklist(['live', 'scheduled', 'ended']),
  /** Orders that count (a cancelled order gives its use back). */
  uses: int,
  /** The rupees those orders took off. */
  discountGiven: int,
  createdAt: v.number(),
});
export type CouponSummary = v.InferOutput<typeof CouponSummarySchema>;
