import Dexie, { type EntityTable } from 'dexie';
import type { CartLine } from '../domain/cart.js';
import type { Category, Product } from '../domain/catalogue.js';
import type { SavedRecipient } from '../domain/gifts.js';
import type { ShopperOrder } from '../domain/order-tracking.js';
import type { OrderHistoryRow } from '../domain/orders.js';
import type { ClosedDate, DeliverySlot } from '../domain/slot-schema.js';
import type { OutboxRow } from './outbox-row.js';
import { CHUNK_SPAN, type ProductChunk, packChunks } from './product-chunks.js';

/**
 * The one local database, shared by the page and the service worker. The page
 * reads it through `useLiveQuery` and writes the cart; the worker writes the
 * catalogue and images from the delta feed. Everything a screen shows comes
 * from here, so screens never wait on the network.
 *
 * Schema changes add a new `this.version(n)` block below the last one with the whole schema
 * (every table, as Dexie 3 and later compare it with the device's own); a block with an upgrade
 * function stays as long as devices may need it, the others are folded into the next. Each
 * declared version costs the page's start-up (Dexie builds every version's table schemas when the
 * database object is made): seven blocks were about 6 ms of a fast machine's CPU, 25 ms on a
 * phone, inside the first screen's longest task (issue 17's profile); one block is 0.2 ms.
 *
 * What the versions brought: 2, the session (the worker has no localStorage and sends queued
 * orders with it), the order outbox and the last order history fetched; 3, the shop's delivery
 * slots and closed dates (issue 25), replaced whole by the catalogue sync, so the checkout offers
 * slots offline; 4, the shopper's orders as their order pages last fetched them (issue 19), so an
 * order opens offline; 5, the account's saved recipients (issue 26), so a gift to Mum is two taps
 * offline too (a cake's photo needs no table: it is a Blob inside its cart line, then inside its
 * outbox row, and leaves with them); 6, products stored a hundred to a row (`productChunks`, see
 * `product-chunks.ts`; issue 17: a put per product made a first sync of 10,000 products
 * CPU-bound), the device's products moved there by its upgrade; 7, the old `products` table
 * dropped (Dexie lets an upgrade read a table only when a later version deletes it).
 */

/** A product as stored: the API's object plus its category ids (`ProductChunk` indexes their union). */
export interface StoredProduct extends Product {
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

/** The account's saved recipients as last fetched or saved (My Profile, checkout); the account's only. */
export interface SavedRecipientsCache {
  userId: number;
  rows: SavedRecipient[];
  fetchedAt: number;
}

export class ShopDatabase extends Dexie {
  categories!: EntityTable<Category, 'categoryID'>;
  /** Read and written only through `product-chunks.ts`. */
  productChunks!: EntityTable<ProductChunk, 'chunk'>;
  images!: EntityTable<StoredImage, 'url'>;
  cart!: EntityTable<CartLine, 'key'>;
  meta!: EntityTable<MetaRow, 'key'>;
  session!: EntityTable<SessionRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'key'>;
  orderHistory!: EntityTable<OrderHistoryCache, 'userId'>;
  slots!: EntityTable<DeliverySlot, 'slotID'>;
  closedDates!: EntityTable<ClosedDate, 'date'>;
  orderDetails!: EntityTable<OrderDetailCache, 'orderID'>;
  recipients!: EntityTable<SavedRecipientsCache, 'userId'>;

  /** Product ids per `productChunks` row; tests use small spans so that chunks cross feed pages. */
  readonly chunkSpan: number;

  constructor(name = 'storefront', options: { chunkSpan?: number } = {}) {
    super(name);
    this.chunkSpan = options.chunkSpan ?? CHUNK_SPAN;
    const tables = {
      categories: 'categoryID, categoryName',
      images: 'url, productID, storedAt',
      cart: 'key, productID, addedAt',
      meta: 'key',
      session: 'key',
      outbox: 'key, state, userId, createdAt',
      orderHistory: 'userId',
      slots: 'slotID',
      closedDates: 'date',
      orderDetails: 'orderID, userId',
      recipients: 'userId',
      productChunks: 'chunk, *categoryIds',
    };
    this.version(6)
      .stores({ ...tables, products: 'productID, *categoryIds, price, updatedAt' })
      .upgrade(async (tx) => {
        const products = (await tx.table('products').toArray()) as StoredProduct[];
        await tx.table('productChunks').bulkPut(packChunks(this, products));
      });
    this.version(7).stores({ ...tables, products: null });
  }
}

// Dexie turns its debugging aids on for any page of localhost or 127.0.0.1, built or not: a console
// task per table call and long stack traces, which cost a phone's first screen tens of milliseconds
// (issue 17's trace, on the bench's 127.0.0.1). A built shop runs as it would anywhere else.
if (import.meta.env?.PROD) Dexie.debug = false;

/** The instance both the page and the worker use (each in its own global scope). */
export const db = new ShopDatabase();
