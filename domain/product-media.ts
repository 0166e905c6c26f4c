/**
 * What a product page shows in its gallery, and how large its main picture is drawn: one rule for
 * the page (`web/storefront/ProductDetails.tsx`) and the server, which names the first picture in
 * the page's HTML (`api/pages`) so a first visit fetches it beside the app's code.
 */
import type { Product } from './catalogue.js';
import { isVideo, mediaPaths } from './catalogue-media.js';

export interface Media {
  path: string;
  video: boolean;
  thumb: string;
  srcSet?: string | undefined;
}

/** The main picture's `sizes`: the whole width on a phone, 480 px beside the details from 768 px. */
export const PRODUCT_IMAGE_SIZES = '(min-width: 768px) 480px, 100vw';

/** The product's media: listed paths (images or videos); images use their stored responsive variants when known. */
export function mediaOf(product: Pick<Product, 'imagePath' | 'images'>): Media[] {
  const paths = mediaPaths(product);
  const list: Media[] = paths.map((path) => {
    if (isVideo(path)) return { path, video: true, thumb: path };
    const img = product.images.find((i) => i.src === path || i.thumb === path || i.srcset.includes(path));
    return img
      ? { path: img.src, video: false, thumb: img.thumb, srcSet: img.srcset }
      : { path, video: false, thumb: path };
  });
  if (!list.length)
    for (const img of product.images)
      list.push({ path: img.src, video: false, thumb: img.thumb, srcSet: img.srcset });
  return list;
}
