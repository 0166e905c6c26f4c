/**
 * A cake photo, checked by its content like a product image (`../images/images.ts`) and
 * re-encoded to WebP: the full size for the cake printer and a preview. Sharp writes no metadata
 * unless told to (`keepMetadata`/`withMetadata`, never called here), so the phone's EXIF, its GPS
 * position included, and any other block of the upload are gone; `rotate()` first applies the
 * EXIF orientation, so the picture stands as it did on the phone. The full size is kept within
 * `PHOTO_FULL_MAX_BYTES` (`fullWithin`), so no upload, however noisy, costs the disk more.
 */
import sharp from 'sharp';
import { LIMITS } from '../../domain/catalogue.js';
import { giftMessages, PHOTO_FULL_MAX, PHOTO_FULL_MAX_BYTES, PHOTO_PREVIEW_MAX } from '../../domain/gifts.js';
import { HttpError } from '../http/errors.js';
import { inspectImage } from '../images/images.js';

const PHOTO_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);

export interface EncodedPhoto {
  full: Buffer;
  preview: Buffer;
  width: number;
  height: number;
}

const within = (max: number) => ({
  width: max,
  height: max,
  fit: 'inside' as const,
  withoutEnlargement: true,
});

type Encoded = { data: Buffer; info: sharp.OutputInfo };

/** The full size's first quality, and the lowest it goes before the picture is made smaller. */
const FULL_QUALITY = 85;
const FULL_QUALITY_FLOOR = 60;

/**
 * The full size within `maxBytes`: the quality is lowered first (a phone photo fits at the first
 * try), then the picture is made smaller. WebP's size follows the pixel count, so each step
 * scales the sides by the root of the ratio still to lose, a little under, and at least by a
 * tenth: a few encodes even for noise, and the loop ends (a small enough picture always fits).
 */
async function fullWithin(input: sharp.Sharp, maxBytes: number): Promise<Encoded> {
  const encode = (side: number, quality: number) =>
    input.clone().resize(within(side)).webp({ quality, effort: 2 }).toBuffer({ resolveWithObject: true });
  let out = await encode(PHOTO_FULL_MAX, FULL_QUALITY);
  if (out.data.length <= maxBytes) return out;
  out = await encode(PHOTO_FULL_MAX, FULL_QUALITY_FLOOR);
  while (out.data.length > maxBytes) {
    const scale = Math.min(0.9, Math.sqrt(maxBytes / out.data.length) * 0.95);
    const side = Math.max(1, Math.floor(Math.max(out.info.width, out.info.height) * scale));
    out = await encode(side, FULL_QUALITY_FLOOR);
  }
  return out;
}

export async function encodeCakePhoto(buffer: Buffer): Promise<EncodedPhoto> {
  await inspectImage(buffer, 'The photo', PHOTO_FORMATS, () => new HttpError(415, giftMessages.photoType));
  try {
    const input = sharp(buffer, { limitInputPixels: LIMITS.imagePixels, failOn: 'error' }).rotate();
    const full = await fullWithin(input, PHOTO_FULL_MAX_BYTES);
    const preview = await input
      .clone()
      .resize(within(PHOTO_PREVIEW_MAX))
      .webp({ quality: 75, effort: 2 })
      .toBuffer();
    return { full: full.data, preview, width: full.info.width, height: full.info.height };
  } catch {
    // The header was readable but the pixels are not (truncated, corrupt): the upload's fault.
    throw new HttpError(422, giftMessages.photoUnreadable);
  }
}
