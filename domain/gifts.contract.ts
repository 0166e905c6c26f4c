/**
 * Gifts: cake photos (private: never under `/media/`, only their owner and admins
 * see them), the account's saved recipients, and the admin's packing slip. The gift fields of
 * an order travel in `place-order` (`domain/orders.ts`).
 */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import {
  CakePhotoSchema,
  OrderRecipientSchema,
  PhotoSizeQuerySchema,
  SavedRecipientInputSchema,
  SavedRecipientSchema,
} from './gifts.js';
import { OrderStatusSchema } from './orders.js';
import { PaymentMethodSchema } from './payment-methods.js';
import { OrderSlotSchema } from './slots.js';
import { IdSchema } from './validation.js';

const int = v.pipe(v.number(), v.integer());

/**
 * The packing slip. With `hidePrice` it carries no price at all (no unit prices, line totals or
 * total), so nothing printed from it can show one.
 */
export const PackingSlipSchema = v.object({
  orderID: int,
  /** The order's status: a slip of a cancelled order (printed from its own page) says CANCELLED across it. */
  status: OrderStatusSchema,
  deliveryDate: v.string(),
  slot: v.nullable(OrderSlotSchema),
  /** Who receives it: the recipient, or the buyer for their own order. */
  deliverTo: OrderRecipientSchema,
  recipient: v.nullable(OrderRecipientSchema),
  address: v.string(),
  city: v.string(),
  state: v.string(),
  pincode: v.string(),
  lines: v.array(
    v.object({
      productName: v.string(),
      variationName: v.nullable(v.string()),
      /** The size to make ("1 kg"); '' for none; null: an old order did not record it. */
      variationValue: v.nullable(v.string()),
      quantity: int,
      cakeMessage: v.nullable(v.string()),
      photoID: v.nullable(v.string()),
      unitPrice: v.optional(int),
      lineTotal: v.optional(int),
    }),
  ),
  total: v.optional(int),
  /** `from` is the buyer's name, or "With love" when the sender is hidden. */
  card: v.nullable(v.object({ occasion: v.string(), message: v.string(), from: v.string() })),
  hidePrice: v.boolean(),
  hideSender: v.boolean(),
  /** "Cash on Delivery" tells the driver to collect; the slip says "Paid online" for "Razorpay". */
  paymentMethod: PaymentMethodSchema,
  /**
   * Who sends the box, from the shop's profile: its name, legal name, customer-care phone and FSSAI
   * number (FSSAI asks for it on every bill and receipt); '' for what the shop has not written.
   */
  seller: v.object({ name: v.string(), legalName: v.string(), phone: v.string(), fssai: v.string() }),
});
export type PackingSlip = v.InferOutput<typeof PackingSlipSchema>;

const PhotoParams = v.object({
  photoID: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}$/i, 'No such photo.')),
});
const IdParams = v.object({ id: IdSchema });

export const giftsApi = {
  uploadPhoto: endpoint({
    method: 'POST',
    path: '/cake-photos',
    summary:
      'Upload the photo for a photo cake (multipart, one file field "photo": JPEG, PNG or WebP up to 10 MB). Re-encoded as WebP with EXIF and GPS removed, the full size within 2 MB; an account keeps at most 50 MB of photos (413 beyond); the same Idempotency-Key header from the same account answers the same photo again',
    tag: 'orders',
    access: 'user',
    status: 201,
    response: CakePhotoSchema,
    refusals: [413, 415, 422, 429],
  }),
  photo: endpoint({
    method: 'GET',
    path: '/cake-photos/{photoID}',
    summary:
      "A cake photo as WebP (its owner or an admin; another shopper's is a 404): a preview up to 800 px, or ?size=full for the cake printer",
    tag: 'orders',
    access: 'user',
    response: v.string(),
    download: 'image/webp',
    params: PhotoParams,
    query: PhotoSizeQuerySchema,
  }),
  myRecipients: endpoint({
    method: 'GET',
    path: '/my-recipients',
    summary: "The account's saved recipients, newest first",
    tag: 'accounts',
    access: 'user',
    response: v.array(SavedRecipientSchema),
  }),
  addRecipient: endpoint({
    method: 'POST',
    path: '/my-recipients',
    summary:
      'Save a recipient (the same name, phone and address again answers the one already saved). At most 50 per account (422 for a new one beyond) and 30 saves an hour (429)',
    tag: 'accounts',
    access: 'user',
    status: 201,
    response: SavedRecipientSchema,
    body: SavedRecipientInputSchema,
    refusals: [422, 429],
  }),
  deleteRecipient: endpoint({
    method: 'DELETE',
    path: '/my-recipients/{id}',
    summary: "Forget a saved recipient (another account's is a 404)",
    tag: 'accounts',
    access: 'user',
    response: v.object({ id: int }),
    params: IdParams,
  }),
  packingSlip: endpoint({
    method: 'GET',
    path: '/admin/orders/{id}/packing-slip',
    summary:
      "An order's packing slip: lines with the cakes' messages, the card and who it is from; no price at all when the buyer chose no price in the box",
    tag: 'Admin',
    access: 'admin',
    response: PackingSlipSchema,
    params: IdParams,
  }),
} as const;
