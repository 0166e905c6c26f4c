/**
 * The row types of the device's database (`db.ts`), one place for what each table holds: the
 * modules that read and write a table take its row type from here, not from the database.
 */
import type { Product } from '../domain/catalogue.js';
import type { SavedRecipient } from '../domain/gifts.js';
import type { ShopperOrder } from '../domain/order-tracking.js';
import type { OrderHistoryRow } from '../domain/orders.js';
import type { RequestKind, RequestProblem } from '../domain/requests.js';

/** A product as stored: the API's object plus its category ids (`ProductChunk` indexes their union). */
export interface StoredProduct extends Product {
  categoryIds: number[];
}

/**
 * A row of `productChunks`: the products whose ids fall in one span (`chunkOf` in
 * `product-chunks.ts`), with the union of their category ids as a multi-entry index.
 */
export interface ProductChunk {
  chunk: number;
  /** In productID order. */
  products: StoredProduct[];
  /** Every category of the chunk's products (multi-entry index). */
  categoryIds: number[];
}

/** An image body kept on the device so it shows offline; keyed by the URL the page asks for. */
export interface StoredImage {
  url: string;
  blob: Blob;
  /** When it was stored (ms since epoch), to drop images of deleted products first. */
  storedAt: number;
  productID: number;
  /** thumb: the card variant kept for every product; src: the page variant of a viewed product (bounded, oldest dropped first). */
  kind?: 'thumb' | 'src';
}

/** One device setting as the feed sent it; `readSettings` (domain/settings.ts) checks it when read. */
export interface SettingRow {
  key: string;
  value: unknown;
}

/** Small facts about sync and the device, by name (see `MetaKey`). */
export interface MetaRow {
  key: MetaKey;
  value: string | number | boolean | null;
}
export type MetaKey =
  | 'catalogueCursor'
  | 'catalogueEtag'
  /** The last product id a full snapshot in progress has stored (sw/catalogue-sync.ts); null between snapshots. */
  | 'catalogueSnapshotFrom'
  | 'lastSyncedAt'
  | 'lastSyncError'
  | 'persisted';

/**
 * The signed-in session as the device keeps it (one row, key 'current'); the
 * spec's localStorage keys mirror it for the page. Only `sw/session.ts` reads
 * and writes it.
 */
export interface SessionRow {
  key: 'current';
  token: string;
  role: string;
  userId: number;
  email: string;
  phone: string;
  /** The token's `exp` claim in ms since epoch (null when the token has none). */
  expiresAt: number | null;
}

/** The last order history the device fetched for an account, so My Orders shows it offline. */
export interface OrderHistoryCache {
  /** The account's user id. */
  userId: number;
  rows: OrderHistoryRow[];
  fetchedAt: number;
  /** The answer's ETag: open screens poll with it, and an unchanged history costs a 304. */
  etag?: string;
}

/** One order as its page last fetched it (`/my-orders/{id}`), for offline; the account's only. */
export interface OrderDetailCache {
  orderID: number;
  userId: number;
  order: ShopperOrder;
  fetchedAt: number;
  etag: string | null;
}

/**
 * What the shopper typed in Checkout, one row per account, so a reload or a payment window that
 * took the page with it loses nothing (table `drafts`; `web/checkout/checkout-draft.ts` reads and writes it).
 * It goes when an order is placed from it, when the shopper clears it, and at logout.
 */
export interface CheckoutDraftRow {
  userId: number;
  /** The form's fields as typed: DeliveryDate, CustomerName, CustomerAddress, CustomerPincode. */
  fields: Record<string, string>;
  /** Whether the shopper chose the date (else the checkout's suggestion follows the slots). */
  dateChosen: boolean;
  slotID: number | null;
  /** The gift's choices as the checkout holds them (recipient, card, message, surprises). */
  gift: Record<string, unknown>;
  savedAt: number;
}

/** The account's saved recipients as last fetched or saved (My Profile, checkout); the account's only. */
export interface SavedRecipientsCache {
  userId: number;
  rows: SavedRecipient[];
  fetchedAt: number;
}

/** A request of the request queue (`requests.ts`): what a shopper asked about a placed order. */
export interface RequestRow {
  /** The Idempotency-Key, made when the shopper asked; resent unchanged until a definite answer. */
  key: string;
  userId: number;
  kind: RequestKind;
  orderID: number;
  /** `queued`: to send (when `nextAttemptAt` has come); `attention`: waits for a sign-in or the shopper. */
  state: 'queued' | 'attention';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  problem: RequestProblem | null;
  /** The token a 401 came with: the request continues once the account has another one. */
  refusedToken: string | null;
  createdAt: number;
  updatedAt: number;
}
