import type { Product, Variation } from './catalogue.js';

/**
 * Cart rules shared by the device and the server. A line is one product with
 * one chosen variation (or none); adding the same pair again raises the
 * quantity of the existing line (a deliberate fix of the spec's duplicate
 * lines). The chosen variation's price replaces the product's price.
 */
export interface CartLine {
  /** `${productID}:${variationID ?? 'base'}`, the one key used by the header and the cart page. */
  key: string;
  productID: number;
  variationID: number | null;
  variationName: string | null;
  title: string;
  image: string;
  /** Unit price in whole rupees at the time it was added (the server re-prices at checkout). */
  price: number;
  quantity: number;
  addedAt: number;
}

export function lineKey(productID: number, variationID: number | null): string {
  return `${productID}:${variationID ?? 'base'}`;
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
