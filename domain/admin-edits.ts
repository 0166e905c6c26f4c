/**
 * What the admin's changes accept: a bulk delete, a category's new name, an order's next status
 * with its note, the cancel of an account's unpaid orders, a product's image order.
 */
import * as v from 'valibot';
import { AddCategorySchema, isTypedText, LIMITS } from './catalogue.js';
import { NEXT_STATUSES, ORDER_STATUSES } from './orders.js';
import { IdSchema } from './validation.js';

const int = v.pipe(v.number(), v.integer());

/** The largest page: one page's selection at most. */
export const MAX_BULK = 100;
export const BulkDeleteSchema = v.object({
  productIDs: v.pipe(
    v.array(IdSchema, 'productIDs must be a list of product ids.'),
    v.minLength(1, 'Choose at least one product.'),
    v.maxLength(MAX_BULK, `At most ${MAX_BULK} products at once.`),
  ),
});

/** Renaming takes the same rules as adding (the spec's "Please enter a category name."). */
export const RenameCategorySchema = AddCategorySchema;

export const NOTE_MAX = 500;
export const AdminStatusUpdateSchema = v.object({
  status: v.picklist(ORDER_STATUSES, `The status must be one of: ${ORDER_STATUSES.join(', ')}.`),
  note: v.optional(
    v.pipe(
      v.string('The note must be text.'),
      v.trim(),
      v.maxLength(NOTE_MAX, `A note has at most ${NOTE_MAX} characters.`),
      v.check(isTypedText, 'The note contains characters that are not allowed.'),
    ),
    '',
  ),
});

const UPLOAD_NUMBER_INVALID = `An upload is named by its number, from 0 to ${LIMITS.imagesPerProduct - 1}.`;

/** The image list of a product after an edit: kept images by their `src`, new uploads by index. */
export const ImageOrderSchema = v.pipe(
  v.array(
    v.union(
      [
        v.object({ src: v.pipe(v.string(), v.regex(/^\/media\/[\w.-]+\.webp$/, 'Unknown image.')) }),
        v.object({
          file: v.pipe(
            v.number(UPLOAD_NUMBER_INVALID),
            v.integer(UPLOAD_NUMBER_INVALID),
            v.minValue(0, UPLOAD_NUMBER_INVALID),
            v.maxValue(LIMITS.imagesPerProduct - 1, UPLOAD_NUMBER_INVALID),
          ),
        }),
      ],
      `Each image is {"src": a kept image} or {"file": an upload's number from 0 to ${LIMITS.imagesPerProduct - 1}}.`,
    ),
    'The image order must be a list.',
  ),
  v.minLength(1, 'A product keeps at least one image.'),
  v.maxLength(LIMITS.imagesPerProduct, `At most ${LIMITS.imagesPerProduct} images.`),
);
export type ImageOrderEntry = v.InferOutput<typeof ImageOrderSchema>[number];

/**
 * The statuses an unpaid order can be cancelled from: the account's "unpaid open" orders, which an
 * admin cancels in one step (an account holding delivery slots it will not pay for).
 */
export const UNPAID_OPEN_STATUSES = ORDER_STATUSES.filter((s) => NEXT_STATUSES[s].includes('cancelled'));

/**
 * Whether the one-step cancel of an account's unpaid orders is offered: only when the account
 * holds more than one unpaid open order for one delivery date, the hoarding it was made for. One
 * unpaid order is an ordinary Cash on Delivery order, cancelled (if ever) on its own page.
 */
export function offersCancelUnpaid(account: { unpaidOnOneDate: number }): boolean {
  return account.unpaidOnOneDate > 1;
}

export const CancelUnpaidSchema = v.object({
  userID: IdSchema,
  note: AdminStatusUpdateSchema.entries.note,
});
export const CancelUnpaidAnswerSchema = v.object({
  userID: int,
  /** How many were cancelled (each through the same status move as one cancel). */
  cancelled: int,
  orderIDs: v.array(int),
});
export type CancelUnpaidAnswer = v.InferOutput<typeof CancelUnpaidAnswerSchema>;
