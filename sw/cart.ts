/**
 * The cart on the device. Dexie is the truth (one line per product and
 * variation, same in every tab through liveQuery, kept across restarts); the
 * spec's `cartItems` localStorage key is a mirror rewritten after every
 * change so anything written against the old client still reads it.
 */
import {
  type CartLine,
  type ChosenPhoto,
  choiceFields,
  lineKey,
  MAX_LINE_QUANTITY,
  unitPrice,
} from '../domain/cart.js';
import type { Product, Variation } from '../domain/catalogue.js';
import { firstImage } from '../domain/catalogue-media.js';
import { db, type ShopDatabase } from './db.js';
import { getProducts } from './product-reads.js';

/** The spec's cart item: the product's fields plus quantity and uniqueId. */
export interface LegacyCartItem extends Omit<Product, 'price'> {
  price: number;
  quantity: number;
  uniqueId: number;
  /** Our line key, so the mirror can be told apart from the old client's duplicates. */
  key: string;
  variationID: number | null;
  variationName: string | null;
  variationValue: string | null;
}

export const CART_STORAGE_KEY = 'cartItems';

/** Products by id, for the mirror (the spec's item carries the product's fields). */
async function productsFor(store: ShopDatabase, lines: readonly CartLine[]): Promise<Map<number, Product>> {
  const ids = [...new Set(lines.map((l) => l.productID))];
  const rows = await getProducts(store, ids);
  const map = new Map<number, Product>();
  for (const row of rows) {
    if (!row) continue;
    const { categoryIds: _ignored, ...product } = row;
    map.set(row.productID, product);
  }
  return map;
}

/** The spec's cart item for one line; falls back to the line's own copy when the product left the catalogue. */
export function toLegacyItem(line: CartLine, product: Product | undefined): LegacyCartItem {
  const base: Omit<Product, 'price'> = product ?? {
    productID: line.productID,
    title: line.title,
    description: '',
    imagePath: line.image,
    categories: [],
    categoryName: '',
    labelHeading: '',
    labelDescription: '',
    sizeOrWeight: '',
    variations: [],
    images: [],
    updatedAt: new Date(line.addedAt).toISOString(),
    version: 0,
    takesMessage: false,
    photoCake: false,
  };
  return {
    ...base,
    price: line.price,
    quantity: line.quantity,
    uniqueId: line.addedAt,
    key: line.key,
    variationID: line.variationID,
    variationName: line.variationName,
    variationValue: line.variationValue ?? null,
  };
}

/** Rewrites the `cartItems` mirror from Dexie; a no-op where there is no localStorage (the worker). */
export async function writeMirror(store: ShopDatabase = db): Promise<void> {
  const storage = globalThis.localStorage as Storage | undefined;
  if (!storage) return;
  const lines = await store.cart.orderBy('addedAt').toArray();
  const products = await productsFor(store, lines);
  const items = lines.map((l) => toLegacyItem(l, products.get(l.productID)));
  try {
    storage.setItem(CART_STORAGE_KEY, JSON.stringify(items));
  } catch {
    // A full or blocked localStorage must not lose the cart: Dexie already holds it.
  }
}

function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.floor(quantity)));
}

/** What makes a cake a gift: its message and its photo. */
export interface CakeChoices {
  cakeMessage?: string | null;
  photo?: ChosenPhoto | null;
}

/** A message as the line keeps it: trimmed (as the server trims it), and none when empty. */
function cleanMessage(message: string | null | undefined): string | null {
  return message?.trim() || null;
}

/**
 * Adds a product (with its chosen variation) to the cart. The same product and
 * variation added again raises the existing line's quantity instead of adding
 * a second line; the line keeps the price it was first added at. A message or a
 * photo makes another line (see `lineKey`).
 */
export async function addToCart(
  product: Product,
  variation: Variation | null,
  quantity = 1,
  store: ShopDatabase = db,
  choices: CakeChoices = {},
): Promise<CartLine> {
  const cakeMessage = cleanMessage(choices.cakeMessage);
  const photo = choices.photo ?? null;
  const key = lineKey(product.productID, variation?.variationID ?? null, cakeMessage, photo?.key);
  const wanted = clampQuantity(quantity);
  const line = await store.transaction('rw', store.cart, async () => {
    const existing = await store.cart.get(key);
    if (existing) {
      const merged = { ...existing, quantity: clampQuantity(existing.quantity + wanted) };
      await store.cart.put(merged);
      return merged;
    }
    const fresh: CartLine = {
      key,
      productID: product.productID,
      variationID: variation?.variationID ?? null,
      ...choiceFields(product, variation),
      title: product.title,
      image: product.images[0]?.thumb ?? firstImage(product),
      price: unitPrice(product, variation),
      quantity: wanted,
      // Date.now() can repeat within a millisecond; the spec's uniqueId must not.
      addedAt: await nextAddedAt(store),
      ...(cakeMessage ? { cakeMessage } : {}),
      ...(photo ? { photo } : {}),
      ...(product.takesMessage ? { takesMessage: true } : {}),
    };
    await store.cart.put(fresh);
    return fresh;
  });
  await writeMirror(store);
  return line;
}

async function nextAddedAt(store: ShopDatabase): Promise<number> {
  const last = await store.cart.orderBy('addedAt').last();
  const now = Date.now();
  return last && last.addedAt >= now ? last.addedAt + 1 : now;
}

/** Sets a line's quantity; zero or below removes the line (the header's rule). */
export async function setQuantity(key: string, quantity: number, store: ShopDatabase = db): Promise<void> {
  if (!Number.isFinite(quantity) || quantity <= 0) {
    await removeFromCart(key, store);
    return;
  }
  await store.transaction('rw', store.cart, async () => {
    const existing = await store.cart.get(key);
    if (!existing) return;
    await store.cart.put({ ...existing, quantity: clampQuantity(quantity) });
  });
  await writeMirror(store);
}

/**
 * Changes a line's message (the cart's edit). The message is part of the line's
 * identity, so the line moves to its new key, in its place in the cart; when a
 * line of that key exists already, the two become one.
 */
export async function setCakeMessage(
  key: string,
  message: string | null,
  store: ShopDatabase = db,
): Promise<string | null> {
  const cakeMessage = cleanMessage(message);
  const moved = await store.transaction('rw', store.cart, async () => {
    const line = await store.cart.get(key);
    if (!line) return null;
    const next = lineKey(line.productID, line.variationID, cakeMessage, line.photo?.key);
    if (next === key) return key;
    const same = await store.cart.get(next);
    await store.cart.delete(key);
    if (same) await store.cart.put({ ...same, quantity: clampQuantity(same.quantity + line.quantity) });
    else await store.cart.put({ ...line, key: next, cakeMessage });
    return next;
  });
  await writeMirror(store);
  return moved;
}

export async function removeFromCart(key: string, store: ShopDatabase = db): Promise<void> {
  await store.cart.delete(key);
  await writeMirror(store);
}

export async function clearCart(store: ShopDatabase = db): Promise<void> {
  await store.cart.clear();
  await writeMirror(store);
}

/** Every line, oldest first (the order the shopper added them). */
export function cartLines(store: ShopDatabase = db): Promise<CartLine[]> {
  return store.cart.orderBy('addedAt').toArray();
}

/** Total number of items, for the header badge. */
export async function cartCount(store: ShopDatabase = db): Promise<number> {
  const lines = await store.cart.toArray();
  return lines.reduce((sum, l) => sum + l.quantity, 0);
}
