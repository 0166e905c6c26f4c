import Dexie, { type EntityTable } from 'dexie';
import type { CartLine } from '../domain/cart.js';
import type { Category, Product } from '../domain/catalogue.js';

/**
 * The one local database, shared by the page and the service worker. The page
 * reads it through `useLiveQuery` and writes the cart; the worker writes the
 * catalogue and images from the delta feed. Everything a screen shows comes
 * from here, so screens never wait on the network.
 *
 * Schema changes add a new `this.version(n)` block below the last one and never
 * edit an old one (Dexie upgrades the device's copy step by step). The order
 * outbox and the session are meant to arrive that way as version 2.
 */

/** A product as stored: the API's object plus the category ids as a multi-entry index. */
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
export type MetaKey = 'catalogueCursor' | 'catalogueEtag' | 'lastSyncedAt' | 'lastSyncError' | 'persisted';

export class ShopDatabase extends Dexie {
  categories!: EntityTable<Category, 'categoryID'>;
  products!: EntityTable<StoredProduct, 'productID'>;
  images!: EntityTable<StoredImage, 'url'>;
  cart!: EntityTable<CartLine, 'key'>;
  meta!: EntityTable<MetaRow, 'key'>;

  constructor(name = 'storefront') {
    super(name);
    this.version(1).stores({
      categories: 'categoryID, categoryName',
      products: 'productID, *categoryIds, price, updatedAt',
      images: 'url, productID, storedAt',
      cart: 'key, productID, addedAt',
      meta: 'key',
    });
  }
}

/** The instance both the page and the worker use (each in its own global scope). */
export const db = new ShopDatabase();
