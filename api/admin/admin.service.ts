/** The admin area's rules beyond a read: a product's new image list, and cancelling an account's unpaid orders. */
import type { Kysely } from 'kysely';
import type { ImageOrderEntry } from '../../domain/admin-edits.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { type ImageSlot, replaceProductImages } from '../catalogue/catalogue.service.js';
import type { Database } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { type ProcessedImage, processImage, removeImages } from '../images/images.js';
import type { MediaStore } from '../images/media-store.js';
import { type CancelRefunds, changeOrderStatus } from '../orders/order.status.js';
import { unpaidOpenOrders, userExists } from './admin-orders.repository.js';

/**
 * Replaces a product's images with `entries` (kept ones by their address, new ones by their
 * number among `files`). Nothing is half-written: when an image or the write fails, the files
 * made for it are removed; uploaded files the list did not place are not kept.
 */
export async function saveProductImages(
  db: Kysely<Database>,
  media: MediaStore,
  productId: number,
  entries: ImageOrderEntry[],
  files: Buffer[],
): Promise<void> {
  const processed: ProcessedImage[] = [];
  try {
    for (const [i, buffer] of files.entries()) {
      processed.push(await processImage(buffer, media, `Image ${i + 1}`));
    }
    const slots: ImageSlot[] = entries.map((e) =>
      'file' in e
        ? { add: processed[e.file] as ProcessedImage }
        : { keep: e.src.replace(/^\/media\//, '').replace(/-\d+\.webp$/, '') },
    );
    await db.transaction().execute((trx) => replaceProductImages(trx, productId, slots));
  } catch (err) {
    await removeImages(media, processed);
    throw err;
  }
  const used = new Set(entries.flatMap((e) => ('file' in e ? [e.file] : [])));
  await removeImages(
    media,
    processed.filter((_, i) => !used.has(i)),
  );
}

/** Cancels every unpaid open order of an account; answers the ids it cancelled (404 for an unknown account). */
export async function cancelUnpaidOrders(
  db: Kysely<Database>,
  userId: number,
  by: { id: number; email: string },
  note: string,
  refunds: CancelRefunds | null = null,
): Promise<number[]> {
  if (!(await userExists(db, userId))) throw notFound(adminMessages.accountNotFound(userId));
  const cancelled: number[] = [];
  // One move each, as a single cancel makes it (timeline, coupon back, the shopper's push): an
  // order another admin moved meanwhile is left as it now is.
  for (const id of await unpaidOpenOrders(db, userId)) {
    try {
      await changeOrderStatus(db, id, 'cancelled', by, note, { refunds });
      cancelled.push(id);
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
    }
  }
  return cancelled;
}
