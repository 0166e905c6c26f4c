/**
 * The offer the product pages advertise: none, or one of the shop's coupons, chosen by the owner
 * (`offer` in `domain/settings.ts`, set through `PUT /api/admin/offer`, which takes only a live
 * coupon). The setting keeps the coupon as it was when chosen, so a phone offline can word the
 * banner from the coupon itself; the banner goes when the coupon's end has passed, and the server
 * clears the setting when the coupon is ended or removed.
 */
import * as v from 'valibot';
import { CouponOffSchema } from './coupon-terms.js';
import { formatRupees } from './money.js';

export const OfferSchema = v.nullable(
  v.object({
    code: v.pipe(v.string(), v.regex(/^[A-Z0-9]{2,30}$/)),
    /** Rupees off. */
    amount: v.pipe(v.number(), v.integer(), v.minValue(1)),
    firstOrderOnly: v.boolean(),
    /** Epoch ms when the coupon stops working; null for no end. */
    endsAt: v.nullable(v.number()),
    /** A percentage coupon's terms (`amount` is then its cap); left out by offers chosen before percentages. */
    off: v.optional(CouponOffSchema),
    /** The items' total the coupon needs; 0 or left out for none. */
    minItems: v.optional(v.number()),
    /** Epoch ms when the coupon starts; the banner waits for it. */
    startsAt: v.optional(v.nullable(v.number())),
  }),
);
export type Offer = NonNullable<v.InferOutput<typeof OfferSchema>>;

/** The offer as the banner shows it, or null when there is none or it has ended by `now`. */
export function liveOffer(offer: Offer | null | undefined, now: number): Offer | null {
  if (!offer) return null;
  if (offer.startsAt != null && offer.startsAt > now) return null;
  return offer.endsAt !== null && offer.endsAt <= now ? null : offer;
}

/**
 * The banner's headline, from the coupon itself: "₹200 off your first order", "10% (up to ₹300)
 * off your order of ₹999 or more".
 */
export function offerTitle(offer: Offer): string {
  const off =
    offer.off?.kind === 'percent'
      ? `${offer.off.percent}% (up to ${formatRupees(offer.off.cap)})`
      : formatRupees(offer.amount);
  const whom = offer.firstOrderOnly ? 'your first order' : 'your order';
  const min = offer.minItems ? ` of ${formatRupees(offer.minItems)} or more` : '';
  return `${off} off ${whom}${min}`;
}

export const offerMessages = {
  notLive: (code: string) => `${code} is not one of the shop's live coupons: choose one from the list.`,
  code: 'A coupon code is 2 to 30 letters and digits.',
  saved: (offer: Offer | null) =>
    offer ? `Product pages now advertise ${offer.code}.` : 'Product pages advertise no offer now.',
  headline: 'Offer',
} as const;

/** The owner's choice: one of the live coupons by its code, or none. */
export const OfferChoiceSchema = v.strictObject({
  code: v.nullable(
    v.pipe(
      v.string(offerMessages.code),
      v.trim(),
      v.toUpperCase(),
      v.regex(/^[A-Z0-9]{2,30}$/, offerMessages.code),
    ),
  ),
});

/** The admin's view: the advertised offer and the coupons that may be advertised now. */
export const OfferAnswerSchema = v.object({
  offer: OfferSchema,
  coupons: v.array(v.nonNullable(OfferSchema)),
});
