/**
 * Product images. An upload is never stored as sent: its content is sniffed
 * by sharp (the file name and content type are the client's word, not
 * evidence), decoded under a pixel limit, and re-encoded to WebP variants
 * under a generated name, so no uploaded byte is ever served back. Variants:
 * 320 px wide for cards (`thumb`, under 15 KB) and 640 px for the product page
 * (`src`, under 60 KB). Each variant is `<stem>-<width>.webp` in the media
 * store (media-store.ts: a folder or the database), served at `/media/<stem>-<width>.webp`.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_WIDTHS, LIMITS, type ProductImage } from '../../domain/catalogue.js';
import { badRequest, HttpError } from '../http/errors.js';
import type { MediaStore } from './media-store.js';

export const MEDIA_PREFIX = '/media/';
const VARIANTS = [
  { width: IMAGE_WIDTHS.thumb, maxBytes: 15 * 1024 },
  { width: IMAGE_WIDTHS.src, maxBytes: 60 * 1024 },
] as const;
/** Formats we decode. SVG is refused: it is a document, not a picture, and sharp would fetch nothing safer. */
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export function variantUrl(stem: string, width: number): string {
  return `${MEDIA_PREFIX}${variantName(stem, width)}`;
}

/** The API's image object from a stored image row. */
export function imageOf(stem: string, widthsList: string, width: number, height: number): ProductImage {
  const widths = widthsList
    .split(',')
    .map(Number)
    .filter((w) => w > 0)
    .sort((a, b) => a - b);
  const largest = widths[widths.length - 1] ?? IMAGE_WIDTHS.src;
  const smallest = widths[0] ?? IMAGE_WIDTHS.thumb;
  return {
    src: variantUrl(stem, largest),
    thumb: variantUrl(stem, smallest),
    srcset: widths.map((w) => `${variantUrl(stem, w)} ${w}w`).join(', '),
    width,
    height,
  };
}

export interface ProcessedImage {
  stem: string;
  widths: number[];
  /** Size of the largest variant. */
  width: number;
  height: number;
}

/** Encodes at the highest quality that fits the byte budget (flat artwork stays crisp, photos shrink). */
async function encodeWithin(
  input: sharp.Sharp,
  width: number,
  maxBytes: number,
): Promise<{ data: Buffer; info: sharp.OutputInfo }> {
  let last: { data: Buffer; info: sharp.OutputInfo } | null = null;
  for (const quality of [80, 70, 60, 50, 40, 30, 20]) {
    last = await input
      .clone()
      .resize({ width, height: width * 2, fit: 'inside', withoutEnlargement: true })
      // Effort 2 of 6: a few percent larger files for half the encoding time (the byte budget still holds).
      .webp({ quality, effort: 2 })
      .toBuffer({ resolveWithObject: true });
    if (last.data.length <= maxBytes) return last;
  }
  if (!last) throw new Error('unreachable: the quality list is not empty');
  return last;
}

export function newStem(prefix = 'p'): string {
  return `${prefix}${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

function variantName(stem: string, width: number): string {
  return `${stem}-${width}.webp`;
}

/**
 * Reads an upload's header and checks it is a picture of an accepted format (by its content,
 * never its name or type) within the pixel limit: a 400 (or the caller's refusal) for anything
 * else, a 413 for too many pixels. Product images and cake photos (`../gifts`) both pass here.
 */
export async function inspectImage(
  buffer: Buffer,
  label: string,
  accepted: ReadonlySet<string> = ACCEPTED,
  refuse: () => HttpError = () =>
    badRequest(`${label} is not an image we can read (use JPEG, PNG, WebP, AVIF or GIF).`),
): Promise<{ format: string; width: number; height: number }> {
  let meta: sharp.Metadata;
  try {
    // Only the header is read here, so no pixel limit yet: the size check below gives the truthful 413.
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse();
  }
  if (!meta.format || !accepted.has(meta.format)) throw refuse();
  const { width = 0, height = 0 } = meta;
  if (!width || !height) throw badRequest(`${label} has no size.`);
  if (width * height > LIMITS.imagePixels) {
    throw new HttpError(413, `${label} is too large (at most ${LIMITS.imagePixels / 1_000_000} megapixels).`);
  }
  return { format: meta.format, width, height };
}

/**
 * Checks and re-encodes one image into its variants in the media store. Throws a
 * 400 for content that is not a picture we read, a 413 for one with too many
 * pixels. `label` names the file in messages.
 */
export async function processImage(
  buffer: Buffer,
  store: MediaStore,
  label: string,
  stem = newStem(),
): Promise<ProcessedImage> {
  await inspectImage(buffer, label);
  // `rotate()` applies the EXIF orientation before the metadata is dropped by re-encoding.
  const input = sharp(buffer, { limitInputPixels: LIMITS.imagePixels, failOn: 'error' }).rotate();
  const written: string[] = [];
  try {
    let largest = { width: 0, height: 0 };
    for (const variant of VARIANTS) {
      const { data, info } = await encodeWithin(input, variant.width, variant.maxBytes);
      const name = variantName(stem, variant.width);
      // Counted before the write: a write that fails halfway is removed too.
      written.push(name);
      await store.put(name, data);
      largest = { width: info.width, height: info.height };
    }
    return { stem, widths: VARIANTS.map((v) => v.width), width: largest.width, height: largest.height };
  } catch (err) {
    await store.remove(written);
    if (err instanceof HttpError) throw err;
    // A file that passed the header check but fails to decode (truncated, corrupt) is the client's fault.
    throw badRequest(`${label} could not be processed: the file looks damaged.`);
  }
}

/** Removes every variant of these images (used when a product is not created after all). */
export async function removeImages(store: MediaStore, images: readonly ProcessedImage[]): Promise<void> {
  await store.remove(images.flatMap((img) => img.widths.map((w) => variantName(img.stem, w))));
}
