import { SAME_DAY_AREAS } from './delivery.js';
import { CATEGORIES } from './shop.js';

/*
 * The product page's fixed texts and lists, apart from domain/shop.ts: shop.ts is read by
 * the header on the first screen, and these (with the delivery table behind
 * the same-day line) are only needed once a product page opens.
 */

/** Product details: the fixed rating text and benefit bullets (spec section 2). */
export const PRODUCT_RATING = '4.9 | 48';
export const PRODUCT_BENEFITS = [
  '100% eggless',
  'Free standard shipping across India',
  `Same-day delivery in ${SAME_DAY_AREAS} (order before 6 PM)`,
  'Freshly made on the day of delivery',
] as const;
export const SHIPPING_DETAILS = `Free standard shipping across India. Same-day delivery in ${SAME_DAY_AREAS} for orders placed before 6 PM; orders after 6 PM are delivered the next day.`;

/** Product details: related lists from ids 24 and 25, up to 6 each. */
export const RELATED_LISTS = [CATEGORIES.allCakes, CATEGORIES.allFlowers] as const;
export const RELATED_LIST_SIZE = 6;

export const WELCOME_OFFER = {
  title: '₹200 off on your first purchase',
  code: 'SAVE200',
  amount: 200,
} as const;
export const COPIED_MS = 2000;
