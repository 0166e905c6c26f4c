/** The product pages' offer: which coupon they advertise (`domain/shop-offer.ts`). */
import { endpoint } from './contract.js';
import { OfferAnswerSchema, OfferChoiceSchema } from './shop-offer.js';

export const offerApi = {
  get: endpoint({
    method: 'GET',
    path: '/admin/offer',
    summary:
      'The coupon the product pages advertise (null: none) and the live coupons that may be advertised',
    tag: 'Admin',
    access: 'admin',
    response: OfferAnswerSchema,
  }),
  change: endpoint({
    method: 'PUT',
    path: '/admin/offer',
    summary:
      'Advertise one of the live coupons on the product pages, or none (code null); the banner reaches phones with the next sync',
    tag: 'Admin',
    access: 'admin',
    response: OfferAnswerSchema,
    body: OfferChoiceSchema,
  }),
} as const;
