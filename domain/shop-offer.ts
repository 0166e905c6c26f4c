/**
 * The offer the product pages advertise: none, or one of the shop's coupons, chosen by the owner
 * (`offer` in `domain/settings.ts`, set through `PUT /api/admin/offer`, which takes only a live
 * coupon). The setting keeps the coupon as it was when chosen, so a phone offline can word the
 * banner from the coupon itself; the banner goes when the coupon's end has passed, and the server
 * clears the setting when the coupon is ended or removed.
 */
import * as v from 'valibot';
import { formatRupees } from './money.js';

export const OfferSchema = v.nullable(
  v.object({
    code: v.pipe(v.string(), v.regex(/^[A-Z0-9]{2,30}$/)),
    /** Rupees off. */
    amount: v.pipe(v.number(), v.integer(), v.minValue(1)),
    firstOrderOnly: v.boolean(),
    /** Epoch ms when the coupon stops working; null for no end. */
    endsAt: v.nullable(v.number()),
  }),
);
export type Offer = NonNullable<v.InferOutput<typeof OfferSchema>>;

/** The offer as the banner shows it, or null when there is none or it has ended by `now`. */
export function liveOffer(offer: Offer | null | undefined, now: number): Offer | null {
  if (!offer) return null;
  return offer.endsAt !== null && offer.endsAt <= now ? null : offer;
}

/** The banner's headline, from the coupon itself: "₹200 off your first order". */
export function offerTitle(offer: Offer): string {
  return `${formatRupees(offer.amount)} off ${offer.firstOrderOnly ? 'your first order' : 'your order'}`;
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
