import sharp from 'sharp';
import { LIMITS } from '../../domain/catalogue.js';
import { giftMessages, PHOTO_FULL_MAX, PHOTO_PREVIEW_MAX } from '../../domain/gifts.js';
import { HttpError } from '../http/errors.js';
import { inspectImage } from '../images/images.js';

/**
 * A cake photo, checked by its content like a product image (`../images/images.ts`) and
 * re-encoded to WebP: the full size for the cake printer and a preview. Sharp writes no metadata
 * unless told to (`keepMetadata`/`withMetadata`, never called here), so the phone's EXIF, its GPS
 * position included, and any other block of the upload are gone; `rotate()` first applies the
 * EXIF orientation, so the picture stands as it did on the phone.
 */
const PHOTO_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);

export interface EncodedPhoto {
  full: Buffer;
  preview: Buffer;
  width: number;
  height: number;
}

export async function encodeCakePhoto(buffer: Buffer): Promise<EncodedPhoto> {
  await inspectImage(buffer, 'The photo', PHOTO_FORMATS, () => new HttpError(415, giftMessages.photoType));
  try {
    const input = sharp(buffer, { limitInputPixels: LIMITS.imagePixels, failOn: 'error' }).rotate();
    const within = (max: number) => ({
      width: max,
      height: max,
      fit: 'inside' as const,
      withoutEnlargement: true,
    });
    const full = await input
      .clone()
      .resize(within(PHOTO_FULL_MAX))
      .webp({ quality: 85, effort: 2 })
      .toBuffer({
        resolveWithObject: true,
      });
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
