/**
 * The gift rules of an order, checked by the server with the same functions the
 * checkout uses (`domain/gifts.ts`). A refusal is a 422 whose `data` names the rule and the line,
 * so a queued order waits for the shopper with the reason instead of retrying. Also the cake
 * photos' quota and keeping.
 */

import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  giftMessages,
  giftPaymentProblem,
  PHOTO_QUOTA_BYTES,
  photoCakeDateProblem,
} from '../../domain/gifts.js';
import type { GiftProblem, GiftRefusal, OrderRequest } from '../../domain/orders.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { HttpError } from '../http/errors.js';
import { readShopSettings } from '../settings/settings.service.js';
import { encodeCakePhoto } from './cake-photo.js';
import { insertPhoto, ownPhotoIds, photoByKey, photoBytesUsed, saveRecipient } from './gift.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

interface GiftLine {
  productName: string;
  cakeMessage: string | null;
  photoID: string | null;
  takesMessage: boolean;
  photoCake: boolean;
}

const refuse = (
  message: string,
  problem: GiftProblem,
  line: number | null,
  extra: Partial<GiftRefusal> = {},
) => new HttpError(422, message, { reason: 'gift', problem, line, ...extra } satisfies GiftRefusal);

/** The order-wide rule, checked before anything is priced: it needs no database. */
export function checkGiftPayment(body: OrderRequest): void {
  const problem = giftPaymentProblem({
    recipient: Boolean(body.Recipient),
    hidePrice: body.HidePrice === true,
    paymentMethod: body.PaymentMethod,
  });
  if (problem) throw refuse(problem, 'gift-cod', null);
}

/** The lines' rules, once the products' flags are known from the database. */
export async function checkGiftLines(
  db: Db,
  userId: number,
  deliveryDate: string,
  lines: readonly GiftLine[],
  now: Date,
): Promise<void> {
  const photos = await ownPhotoIds(
    db,
    userId,
    lines.flatMap((l) => (l.photoID ? [l.photoID] : [])),
  );
  // The notice is the owner's setting, read fresh: a change applies to the next order in every process.
  const tooSoon = lines.some((l) => l.photoCake)
    ? photoCakeDateProblem(deliveryDate, now, (await readShopSettings(db)).photoCakeNoticeDays)
    : null;
  for (const [i, l] of lines.entries()) {
    if (l.cakeMessage && !l.takesMessage)
      throw refuse(giftMessages.noMessageHere(l.productName), 'message-not-taken', i);
    if (l.photoID && !l.photoCake)
      throw refuse(giftMessages.notPhotoCake(l.productName), 'not-photo-cake', i);
    if (!l.photoCake) continue;
    if (!l.photoID) throw refuse(giftMessages.photoMissing(l.productName), 'photo-missing', i);
    if (!photos.has(l.photoID)) throw refuse(giftMessages.photoUnknown, 'photo-unknown', i);
    if (tooSoon) {
      throw refuse(giftMessages.photoTooSoon(l.productName, tooSoon.earliest), 'photo-too-soon', i, {
        earliestDeliveryDate: tooSoon.earliest,
      });
    }
  }
}

/**
 * `Recipient.Save`: keeps the recipient with the order's address, in the order's transaction. An
 * account that keeps `RECIPIENTS_MAX` already keeps no new one, and the order goes all the same:
 * the checkout says so before (`GiftOptions`), and a full address book is no reason to lose a sale.
 */
export async function saveOrderRecipient(db: Db, userId: number, body: OrderRequest): Promise<void> {
  if (!body.Recipient?.Save) return;
  await saveRecipient(db, userId, {
    name: body.Recipient.Name,
    phone: body.Recipient.Phone,
    address: body.CustomerAddress,
    city: body.City,
    state: body.State,
    pincode: body.CustomerPincode,
  });
}

/** A quota refusal: the account's photos would pass `PHOTO_QUOTA_BYTES`. */
const quotaFull = () => new HttpError(413, giftMessages.photoQuotaFull);

/** Full already: an upload is refused before the photo is read and decoded. */
export async function checkPhotoRoom(db: Kysely<Database>, userId: number): Promise<void> {
  if ((await photoBytesUsed(db, userId)) >= PHOTO_QUOTA_BYTES) throw quotaFull();
}

export interface KeptPhoto {
  id: string;
  width: number;
  height: number;
}

/**
 * Encodes a cake photo and keeps it within the account's quota (the insert checks it again, with
 * the photo's size). `replayed` when the same key was sent twice at once and the first to commit
 * made the photo: this one answers it.
 */
export async function keepCakePhoto(
  db: Kysely<Database>,
  userId: number,
  key: string | null,
  buffer: Buffer,
): Promise<{ photo: KeptPhoto; replayed: boolean }> {
  const photo = await encodeCakePhoto(buffer);
  const id = randomUUID();
  let kept: boolean;
  try {
    kept = await insertPhoto(db, { id, userId, key, ...photo }, PHOTO_QUOTA_BYTES);
  } catch (err) {
    const other = key && isUniqueViolation(err) ? await photoByKey(db, userId, key) : null;
    if (!other) throw err;
    return { photo: other, replayed: true };
  }
  if (!kept) throw quotaFull();
  return { photo: { id, width: photo.width, height: photo.height }, replayed: false };
}
