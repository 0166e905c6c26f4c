/**
 * Cart rules shared by the device and the server. A line is one product with
 * one chosen variation (or none); adding the same pair again raises the
 * quantity of the existing line (a deliberate fix of the spec's duplicate
 * lines). The chosen variation's price replaces the product's price.
 */
import type { Product, Variation } from './catalogue.js';

export interface CartLine {
  /** `${productID}:${variationID ?? 'base'}`, the one key used by the header and the cart page. */
  key: string;
  productID: number;
  variationID: number | null;
  variationName: string | null;
  /**
   * The chosen variation's value ("1 kg"), so lines of one product read apart.
   * Optional: lines stored before it was kept have none and still render.
   */
  variationValue?: string | null;
  /**
   * Set only on a base-price line of a product that offers variations: the
   * product's own size ("0.5 kg", or '' when it has none), so the base option
   * never reads like a variation at the same price.
   */
  baseSize?: string | null;
  title: string;
  image: string;
  /** Unit price in whole rupees at the time it was added (the server re-prices at checkout). */
  price: number;
  quantity: number;
  addedAt: number;
  /** The message on the cake, as typed; absent or null: none. */
  cakeMessage?: string | null;
  /** The product takes a message, so the cart offers to write or change it. */
  takesMessage?: boolean;
  /** The photo for a photo cake, kept on the device until its order uploads it. */
  photo?: ChosenPhoto | null;
}

/** A photo the shopper chose for a photo cake. */
export interface ChosenPhoto {
  /** Made on the device when the photo was chosen: the upload's Idempotency-Key, and part of the line's key. */
  key: string;
  blob: Blob;
}

/**
 * A line is a product, an option, a message and a photo: two of one cake with
 * two messages are two lines. A line with neither keeps the key it had before
 * messages, so carts stored then still merge.
 */
export function lineKey(
  productID: number,
  variationID: number | null,
  cakeMessage?: string | null,
  photoKey?: string | null,
): string {
  const base = `${productID}:${variationID ?? 'base'}`;
  return `${base}${cakeMessage ? `:m:${cakeMessage}` : ''}${photoKey ? `:p:${photoKey}` : ''}`;
}

/** What was chosen, in words ("Weight: 1 kg", "Base price, 0.5 kg"), or null for a product without options. */
export function lineChoice(
  line: Pick<CartLine, 'variationID' | 'variationName' | 'variationValue' | 'baseSize'>,
): string | null {
  if (line.variationID !== null) {
    const name = line.variationName?.trim() ?? '';
    const value = line.variationValue?.trim() ?? '';
    if (name && value) return `${name}: ${value}`;
    return value || name || null;
  }
  if (line.baseSize === undefined || line.baseSize === null) return null;
  const size = line.baseSize.trim();
  return size ? `Base price, ${size}` : 'Base price';
}

/**
 * The one name of a cart line, used by the header's popup, the cart page,
 * checkout and orders: "Chocolate Truffle Delight (Weight: 1 kg)".
 */
export function lineLabel(
  line: Pick<CartLine, 'title' | 'variationID' | 'variationName' | 'variationValue' | 'baseSize'>,
): string {
  const choice = lineChoice(line);
  return choice ? `${line.title} (${choice})` : line.title;
}

/** The choice fields a new line keeps, from the product and the variation picked (null: the base option, the product's own size). */
export function choiceFields(
  product: Pick<Product, 'sizeOrWeight' | 'variations'>,
  variation: Pick<Variation, 'variationName' | 'variationValue'> | null,
): Pick<CartLine, 'variationName' | 'variationValue' | 'baseSize'> {
  if (variation) {
    return {
      variationName: variation.variationName,
      variationValue: variation.variationValue,
      baseSize: null,
    };
  }
  return {
    variationName: null,
    variationValue: null,
    baseSize: product.variations.length > 0 ? product.sizeOrWeight : null,
  };
}

export function unitPrice(
  product: Pick<Product, 'price'>,
  variation: Pick<Variation, 'price'> | null,
): number {
  return variation ? variation.price : product.price;
}

export function lineTotal(line: Pick<CartLine, 'price' | 'quantity'>): number {
  return line.price * line.quantity;
}

export function cartSubtotal(lines: readonly Pick<CartLine, 'price' | 'quantity'>[]): number {
  return lines.reduce((sum, line) => sum + lineTotal(line), 0);
}

/** Quantities are positive whole numbers; the UI removes a line rather than keep one at zero. */
export const MAX_LINE_QUANTITY = 99;
export function isValidQuantity(q: unknown): q is number {
  return typeof q === 'number' && Number.isInteger(q) && q >= 1 && q <= MAX_LINE_QUANTITY;
}
