/**
 * The product page's texts and lists, apart from domain/shop.ts: shop.ts is read by the header
 * on the first screen, and these are only needed once a product page opens. Their delivery
 * lines come from the shop's delivery areas (domain/delivery-words.ts). No rating is shown: the
 * shop has no buyers' reviews yet, and a fixed figure on every product would be invented.
 */
import type { Product, Variation } from './catalogue.js';
import { DELIVERY_BY_PINCODE, type DeliveryFacts, deliveryLine } from './delivery-words.js';
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

const KIND_BENEFITS: Record<ProductKind, readonly string[]> = {
  cake: ['Freshly baked on the day of delivery'],
  flowers: ['Fresh flowers, hand-tied on the day of delivery'],
  plants: ['A healthy plant, potted and ready to gift'],
  chocolates: ['Packed fresh, ready to gift'],
  gifts: ['Gift-wrapped by hand', 'Add a free card with your message at checkout'],
  combo: ['Everything arrives together, in one delivery'],
  other: [],
};

/**
 * The product page's benefit bullets, for this product's kind (spec section 2: "benefit
 * bullets"), ending with where it is delivered. A photo cake says its notice, and claims the
 * same day only when the notice is none.
 */
export function productBenefits(
  product: Pick<Product, 'categories' | 'photoCake'>,
  { areas, noticeDays }: DeliveryFacts,
  /** The shop's own claim (its profile's `eggless`): only a shop that says so says it of its cakes. */
  { eggless = false }: { eggless?: boolean } = {},
): string[] {
  const kind = productKind(product);
  const own = kind === 'cake' && eggless ? ['100% eggless', ...KIND_BENEFITS.cake] : KIND_BENEFITS[kind];
  if (product.photoCake)
    return [
      ...own,
      'Your photo printed on the cake',
      giftMessages.photoCakeNotice(noticeDays),
      deliveryLine(areas, noticeDays <= 0),
    ];
  return [...own, deliveryLine(areas)];
}

/**
 * The shipping details under the description: where, what it costs, and what decides the day:
 * the pincode and the slot's order cut-off, which the checkout shows (no fixed hour here that an
 * admin's change of a slot would make untrue).
 */
export function shippingDetails(
  product: Pick<Product, 'photoCake'>,
  { areas, noticeDays }: DeliveryFacts,
): string {
  const notice = product.photoCake ? `${giftMessages.photoCakeNotice(noticeDays)} ` : '';
  if (!areas?.length) return `${notice}${DELIVERY_BY_PINCODE}.`;
  const sameDay = (!product.photoCake || noticeDays <= 0) && areas.some((a) => a.sameDay);
  const charge = areas.some((a) => a.charge > 0) ? " The charge is your pincode's." : '';
  const today = sameDay ? " Orders placed before their delivery slot's cut-off come the same day." : '';
  return `${notice}${deliveryLine(areas, sameDay)}.${charge}${today}`;
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

export const COPIED_MS = 2000;
