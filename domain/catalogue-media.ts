/**
 * The media and category rules a product card needs, apart from `catalogue.ts`'s valibot
 * schemas: the first screen imports only this file, so the admin input schemas never reach
 * the shopper's first download.
 */
import type { Product } from './catalogue.js';

/** Products with no image show this (the spec's default placeholder). */
export const PLACEHOLDER_IMAGE = '/placeholder.svg';

const VIDEO = /\.(mp4|webm|ogg)(\?.*)?$/i;
/** The spec: a media file ending .mp4, .webm or .ogg counts as video. */
export function isVideo(path: string): boolean {
  return VIDEO.test(path.trim());
}

/** A media list as stored and sent (comma-separated, as the admin gave it) as its entries. */
export function splitMedia(list: string): string[] {
  return list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

export function mediaPaths(product: Pick<Product, 'imagePath'>): string[] {
  return splitMedia(product.imagePath);
}

/** The first image (not video) of a product, or the placeholder. */
export function firstImage(product: Pick<Product, 'imagePath'>): string {
  return mediaPaths(product).find((p) => !isVideo(p)) ?? PLACEHOLDER_IMAGE;
}

/**
 * The card image: the card variant when the product has one (the device keeps it for every
 * product, so cards show offline), else its first listed image. No srcset on purpose: a phone's
 * high-density screen would pick the larger variant, which is only on the device for products
 * already opened. The server names it too, for the first card of a category page (`api/pages`).
 */
export function cardImage(p: Pick<Product, 'images' | 'imagePath'>): string {
  return p.images[0]?.thumb ?? firstImage(p);
}

/**
 * The spec's category matching: the route's category is compared, trimmed and
 * case-insensitively, against each of the product's category names.
 */
export function inCategory(product: Pick<Product, 'categories'>, name: string): boolean {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return false;
  return product.categories.some((c) => c.categoryName.trim().toLowerCase() === wanted);
}
