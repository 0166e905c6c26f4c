/**
 * The one local database, shared by the page and the service worker. The page
 * reads it through `useLiveQuery` and writes the cart; the worker writes the
 * catalogue and images from the delta feed. Everything a screen shows comes
 * from here, so screens never wait on the network. Its row types are in `db-rows.ts`.
 *
 * Schema changes add a new `this.version(n)` block below the last one with the whole schema
 * (every table, as Dexie 3 and later compare it with the device's own); a block with an upgrade
 * function stays as long as devices may need it, the others are folded into the next. Each
 * declared version costs the page's start-up (Dexie builds every version's table schemas when the
 * database object is made, inside the first screen's longest task), so the blocks are kept few.
 *
 * What the versions brought: 2, the session (the worker has no localStorage and sends queued
 * orders with it), the order outbox and the last order history fetched; 3, the shop's delivery
 * slots and closed dates, replaced whole by the catalogue sync, so the checkout offers slots
 * offline; 4, the shopper's orders as their order pages last fetched them, so an order opens
 * offline; 5, the account's saved recipients, so a gift to Mum is two taps offline too (a cake's
 * photo needs no table: it is a Blob inside its cart line, then inside its outbox row, and leaves
 * with them); 6, products stored a hundred to a row (`productChunks`, see `product-chunks.ts`: a
 * put per product made a first sync of a big catalogue CPU-bound), the device's products moved
 * there by its upgrade; 7, the old `products` table dropped (Dexie lets an upgrade read a table
 * only when a later version deletes it); 8, the delivery areas by pincode and the device settings
 * (the cursor reset by its upgrade, so they arrive with a full snapshot); 9, the payments in
 * progress (`PaymentRow` in `outbox-row.ts`), so a page killed in the UPI app does not forget a payment;
 * 10 (9 folded in), the checkout's draft per account (`drafts`, `CheckoutDraftRow`), so what was typed
 * survives a reload and a payment window that took the page; 11 (10 folded in), the request queue
 * (`requests`, `RequestRow` in `db-rows.ts`): a cancel asked for offline, sent once when back.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { CartLine } from '../domain/cart.js';
import type { Category } from '../domain/catalogue.js';
import type { DeliveryArea } from '../domain/delivery-areas.js';
import type { ClosedDate, DeliverySlot } from '../domain/slot-schema.js';
import type {
  MetaRow,
  OrderDetailCache,
  OrderHistoryCache,
  ProductChunk,
  RequestRow,
  SavedRecipientsCache,
  SessionRow,
  SettingRow,
  StoredImage,
  StoredProduct,
} from './db-rows.js';
import type { OutboxRow, PaymentRow } from './outbox-row.js';
import { CHUNK_SPAN, packChunks } from './product-chunks.js';

// The tables and the span are `declare`d: Dexie makes the tables in `stores()`, and a class field the
// compiler would emit for each is bytes of the first screen's JavaScript that do nothing.
export class ShopDatabase extends Dexie {
  declare categories: EntityTable<Category, 'categoryID'>;
  /** Read and written only through `product-chunks.ts`. */
  declare productChunks: EntityTable<ProductChunk, 'chunk'>;
  declare images: EntityTable<StoredImage, 'url'>;
  declare cart: EntityTable<CartLine, 'key'>;
  declare meta: EntityTable<MetaRow, 'key'>;
  declare session: EntityTable<SessionRow, 'key'>;
  declare outbox: EntityTable<OutboxRow, 'key'>;
  declare orderHistory: EntityTable<OrderHistoryCache, 'userId'>;
  declare slots: EntityTable<DeliverySlot, 'slotID'>;
  declare closedDates: EntityTable<ClosedDate, 'date'>;
  declare orderDetails: EntityTable<OrderDetailCache, 'orderID'>;
  declare recipients: EntityTable<SavedRecipientsCache, 'userId'>;
  /** The shop's delivery areas by pincode, kept from the catalogue feed row by row. */
  declare areas: EntityTable<DeliveryArea, 'pincode'>;
  /** The device settings (`domain/settings.ts`), one row per key, from the catalogue feed. */
  declare settings: EntityTable<SettingRow, 'key'>;
  /** Payments in progress (`PaymentRow` in `outbox-row.ts`), until their order is in the outbox or known. */
  declare payments: EntityTable<PaymentRow, 'key'>;
  /** The request queue (`requests.ts`): cancels asked for offline, until the server answers. */
  declare requests: EntityTable<RequestRow, 'key'>;

  /** Product ids per `productChunks` row; tests use small spans so that chunks cross feed pages. */
  declare readonly chunkSpan: number;

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
      areas: 'pincode',
      settings: 'key',
      payments: 'key',
      // What each account typed in Checkout (`CheckoutDraftRow`, read through `checkout-drafts.ts`);
      // a short name, as this object is in the first screen's JavaScript.
      drafts: 'userId',
      // What a shopper asks about a placed order while offline (`RequestRow` in `db-rows.ts`).
      requests: 'key, state, userId',
    };
    this.version(6)
      .stores({ ...tables, products: 'productID, *categoryIds, price, updatedAt' })
      .upgrade(async (tx) => {
        const products = await tx.table<StoredProduct>('products').toArray();
        await tx.table('productChunks').bulkPut(packChunks(this, products));
      });
    // 8 brings the areas and settings: a device synced before has a cursor past their rows, so its
    // cursor goes and the next sync is a full snapshot that brings them.
    this.version(8)
      .stores({ ...tables, products: null })
      .upgrade(async (tx) => {
        await tx.table('meta').bulkDelete(['catalogueCursor', 'catalogueEtag']);
      });
    this.version(11).stores(tables);
  }
}

// Dexie turns its debugging aids on for any page of localhost or 127.0.0.1, built or not: a console
// task per table call and long stack traces, which cost a phone's first screen tens of milliseconds
// (the bench runs on 127.0.0.1). A built shop runs as it would anywhere else.
if (import.meta.env?.PROD) Dexie.debug = false;

/** The instance both the page and the worker use (each in its own global scope). */
export const db = new ShopDatabase();
