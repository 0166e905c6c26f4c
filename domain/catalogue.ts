/**
 * The catalogue as the API answers it and the device stores it. Field names
 * are the spec's (section 3), so a client written against the spec reads ours
 * unchanged; what we add (`images`, `version`, `updatedAt`, `variationID`) is
 * extra and optional for such a client.
 */
export interface Category {
  categoryID: number;
  categoryName: string;
}

export interface Variation {
  variationID: number;
  variationName: string;
  /** The spec's admin form calls it VariationType; the API field is variationValue. */
  variationValue: string;
  /** Whole rupees; replaces the product's price in a cart line when chosen. */
  price: number;
}

/** One uploaded or generated image with its responsive variants (all WebP). */
export interface ProductImage {
  /** The largest variant, for the product page (under 60 KB). */
  src: string;
  /** The card variant (under 15 KB). */
  thumb: string;
  /** Every variant as a `srcset` string ("url 320w, url 640w, ..."). */
  srcset: string;
  width: number;
  height: number;
}

export interface Product {
  productID: number;
  title: string;
  /** Sanitized HTML (sanitized again in the browser before it is shown). */
  description: string;
  /** Whole rupees. */
  price: number;
  /** The spec's comma-separated list of image or video locations (first image first). */
  imagePath: string;
  categories: Category[];
  /** The names of the product's categories, comma-separated, as the old API answered. */
  categoryName: string;
  labelHeading: string;
  labelDescription: string;
  sizeOrWeight: string;
  variations: Variation[];
  images: ProductImage[];
  /** ISO time of the last change. */
  updatedAt: string;
  /** The catalogue version at the product's last change (see the delta feed). */
  version: number;
}

/**
 * The delta feed (`GET /api/sync/catalogue?since=<cursor>`): what changed
 * since the cursor. Without `since` it is a full snapshot (`full: true`).
 * Answers come in pages: while `hasMore` is true, ask again with `cursor`.
 * Variations travel inside their product; a changed variation re-sends it.
 */
export interface CatalogueDelta {
  cursor: string;
  full: boolean;
  hasMore: boolean;
  categories: Category[];
  products: Product[];
  deletedProductIds: number[];
  deletedCategoryIds: number[];
}

/** Products with no image show this (the spec's default placeholder). */
export const PLACEHOLDER_IMAGE = '/placeholder.svg';

const VIDEO = /\.(mp4|webm|ogg)(\?.*)?$/i;
/** The spec: a media file ending .mp4, .webm or .ogg counts as video. */
export function isVideo(path: string): boolean {
  return VIDEO.test(path.trim());
}

export function mediaPaths(product: Pick<Product, 'imagePath'>): string[] {
  return product.imagePath
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The first image (not video) of a product, or the placeholder. */
export function firstImage(product: Pick<Product, 'imagePath'>): string {
  return mediaPaths(product).find((p) => !isVideo(p)) ?? PLACEHOLDER_IMAGE;
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
