/**
 * The product page's texts and lists, apart from domain/shop.ts: shop.ts is read by the header
 * on the first screen, and these (with the delivery table behind the same-day line) are only
 * needed once a product page opens. No rating is shown: the shop has no buyers' reviews yet, and
 * a fixed figure on every product would be invented.
 */
import type { Product, Variation } from './catalogue.js';
import { SAME_DAY_AREAS } from './delivery.js';
import { giftMessages } from './gifts.js';
import { formatRupees } from './money.js';
import { CATEGORIES } from './shop.js';

/**
 * What a product is, for the texts that depend on it: a bouquet is not eggless and a plant is
 * not baked. Read from its categories' names (the demo's and any the admin adds: "Birthday
 * Cakes", "Roses"), the most specific kind first, since a combo lists a cake and flowers by name.
 */
export type ProductKind = 'combo' | 'cake' | 'flowers' | 'plants' | 'chocolates' | 'gifts' | 'other';
const KIND_BY_NAME: readonly [ProductKind, RegExp][] = [
  ['combo', /\bcombos?\b/i],
  ['cake', /\bcakes?\b/i],
  ['flowers', /\b(flowers?|bouquets?|roses?)\b/i],
  ['plants', /\bplants?\b/i],
  ['chocolates', /\b(chocolates?|sweets?)\b/i],
  ['gifts', /\b(gifts?|hampers?)\b/i],
];

export function productKind(product: Pick<Product, 'categories' | 'photoCake'>): ProductKind {
  if (product.photoCake) return 'cake';
  const names = product.categories.map((c) => c.categoryName);
  for (const [kind, pattern] of KIND_BY_NAME) if (names.some((n) => pattern.test(n))) return kind;
  return 'other';
}

/** The delivery lines every kind shares; a photo cake's day of notice replaces the same-day one. */
const FREE_SHIPPING = 'Free standard shipping across India';
const SAME_DAY = `Same-day delivery in ${SAME_DAY_AREAS} (order before 6 PM)`;

const KIND_BENEFITS: Record<ProductKind, readonly string[]> = {
  cake: ['100% eggless', 'Freshly baked on the day of delivery'],
  flowers: ['Fresh flowers, hand-tied on the day of delivery'],
  plants: ['A healthy plant, potted and ready to gift'],
  chocolates: ['Packed fresh, ready to gift'],
  gifts: ['Gift-wrapped by hand', 'Add a free card with your message at checkout'],
  combo: ['Everything arrives together, in one delivery'],
  other: [],
};

/** The product page's benefit bullets, for this product's kind (spec section 2: "benefit bullets"). */
export function productBenefits(product: Pick<Product, 'categories' | 'photoCake'>): string[] {
  const own = KIND_BENEFITS[productKind(product)];
  if (product.photoCake)
    return [...own, 'Your photo printed on the cake', giftMessages.photoCakeNotice(), FREE_SHIPPING];
  return [...own, SAME_DAY, FREE_SHIPPING];
}

/** The shipping details under the description; a photo cake says when it can come instead of "same day". */
export function shippingDetails(product: Pick<Product, 'photoCake'>): string {
  return product.photoCake
    ? `${FREE_SHIPPING}. ${giftMessages.photoCakeNotice()} We deliver it in ${SAME_DAY_AREAS} on the date you choose.`
    : `${FREE_SHIPPING}. Same-day delivery in ${SAME_DAY_AREAS} for orders placed before 6 PM; orders after 6 PM are delivered the next day.`;
}

/**
 * One choice of the option picker: "0.5 kg: ₹649". `key` is the `<option>` value: the variation's
 * id, or '' for the product's own size at its own price (no variation on the cart line).
 */
export interface SizeOption {
  key: string;
  variation: Variation | null;
  label: string;
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The picker's choices, in the variations' order, each named by its value and price; the
 * product's own size and price is one of them. Where a variation is that same size at that same
 * price (the demo lists "0.5 kg" among a cake's weights), it stands for it, so no size is offered
 * twice and the line reads "Weight: 0.5 kg" like the others; otherwise the product's own size
 * comes first. Empty for a product without variations (no picker).
 */
export function sizeOptions(product: Pick<Product, 'price' | 'sizeOrWeight' | 'variations'>): SizeOption[] {
  if (!product.variations.length) return [];
  const label = (size: string, price: number) => `${size.trim() || 'Standard'}: ${formatRupees(price)}`;
  const options = product.variations.map(
    (v): SizeOption => ({
      key: String(v.variationID),
      variation: v,
      label: label(v.variationValue || v.variationName, v.price),
    }),
  );
  if (baseVariation(product)) return options;
  return [{ key: '', variation: null, label: label(product.sizeOrWeight, product.price) }, ...options];
}

/** The variation that is the product's own size at its own price, if one is. */
function baseVariation(
  product: Pick<Product, 'price' | 'sizeOrWeight' | 'variations'>,
): Variation | undefined {
  const size = product.sizeOrWeight;
  return size.trim()
    ? product.variations.find((v) => v.price === product.price && sameText(v.variationValue, size))
    : undefined;
}

/** The picker's first choice: the product's own size, the price its cards show. */
export function defaultSizeKey(product: Pick<Product, 'price' | 'sizeOrWeight' | 'variations'>): string {
  const base = baseVariation(product);
  return base ? String(base.variationID) : '';
}

/**
 * "Weight: 2 kg": the chosen option, shown with the description so the two never disagree. The
 * product's own size is named as its options are when they share a name ("Weight"), else "Size".
 */
export function chosenSize(
  product: Pick<Product, 'sizeOrWeight' | 'variations'>,
  variation: Pick<Variation, 'variationName' | 'variationValue'> | null,
): { name: string; value: string } | null {
  if (variation) {
    const value = variation.variationValue.trim() || variation.variationName.trim();
    return value ? { name: variation.variationName.trim() || 'Size', value } : null;
  }
  const size = product.sizeOrWeight.trim();
  const names = new Set(product.variations.map((v) => v.variationName.trim()));
  const [only] = names;
  return size ? { name: names.size === 1 && only ? only : 'Size', value: size } : null;
}

/** Product details: related lists from ids 24 and 25, up to 6 each. */
export const RELATED_LISTS = [CATEGORIES.allCakes, CATEGORIES.allFlowers] as const;
export const RELATED_LIST_SIZE = 6;

export const WELCOME_OFFER = {
  title: '₹200 off on your first purchase',
  code: 'SAVE200',
  amount: 200,
} as const;
export const COPIED_MS = 2000;
