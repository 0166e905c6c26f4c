/** Row types of gifts (migration 20261126_0100_gifts). They never leave the repository. */
import type { Generated } from 'kysely';

export interface CakePhotosTable {
  /** A UUID made by the server: the `photoID` of the API. */
  id: string;
  user_id: number;
  /** The device's key for the upload; a retry with it finds this row. */
  idempotency_key: string | null;
  /** Re-encoded WebP, no metadata: the cake printer's copy. */
  full_webp: Uint8Array;
  /** At most `PHOTO_PREVIEW_MAX` px on its longest side. */
  preview_webp: Uint8Array;
  width: number;
  height: number;
  created_at: number;
  /** Both copies' bytes (migration 20261127_1500_cake_photo_bytes): the account's quota sums them. */
  bytes: number;
}

export interface SavedRecipientsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  pincode: string;
  /** SHA-256 of the fields above: unique per user, so saving the same recipient twice keeps one. */
  same_key: string;
  created_at: number;
}

export interface GiftTables {
  cake_photos: CakePhotosTable;
  saved_recipients: SavedRecipientsTable;
}
