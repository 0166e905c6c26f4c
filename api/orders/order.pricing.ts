import type { Kysely, Transaction } from 'kysely';
import { unitPrice } from '../../domain/cart.js';
import { splitMedia } from '../../domain/catalogue-media.js';
import { messages } from '../../domain/messages.js';
import type { OrderItemRequest, PricedLine } from '../../domain/orders.js';
import type { Database } from '../db/schema.js';
import { badRequest, HttpError } from '../http/errors.js';

/**
 * Prices each requested line from the database, the only judge of money.
 * A line names its product by id, or (the spec's client) by exact title. The
 * spec's client sends no variation id either, only the line's price, so a
 * line found by title with a price that is exactly one of the product's
 * variation prices is that variation; anything else is the base price, and
 * the comparison with what the shopper saw decides.
 */
type Db = Kysely<Database> | Transaction<Database>;

export interface PricedOrderLine extends PricedLine {
  image: string;
}

interface ProductRow {
  id: number;
  title: string;
  price: number;
  extra_media: string;
}

const notFound = (name: string, data: unknown) => new HttpError(404, messages.productUnavailable(name), data);

/** Only our own paths and web addresses are kept as a line's picture; anything else is dropped. */
function safeImage(client: string, product: ProductRow): string {
  if (/^(\/(?!\/)|https?:\/\/)/i.test(client)) return client;
  return splitMedia(product.extra_media)[0] ?? '';
}

export async function priceItems(db: Db, items: readonly OrderItemRequest[]): Promise<PricedOrderLine[]> {
  const ids = [...new Set(items.flatMap((i) => (i.ProductID !== null ? [i.ProductID] : [])))];
  const names = [...new Set(items.flatMap((i) => (i.ProductID === null ? [i.ProductName] : [])))];
  const columns = ['id', 'title', 'price', 'extra_media'] as const;
  const [byIdRows, byNameRows] = await Promise.all([
    ids.length
      ? db
          .selectFrom('products')
          .select(columns)
          .where('id', 'in', ids)
          .where('deleted_at', 'is', null)
          .execute()
      : Promise.resolve([]),
    names.length
      ? db
          .selectFrom('products')
          .select(columns)
          .where('title', 'in', names)
          .where('deleted_at', 'is', null)
          .execute()
      : Promise.resolve([]),
  ]);
  const byId = new Map<number, ProductRow>(byIdRows.map((p) => [p.id, p]));
  const byName = new Map<string, ProductRow[]>();
  for (const p of byNameRows) byName.set(p.title, [...(byName.get(p.title) ?? []), p]);

  const productIds = [...new Set([...byIdRows, ...byNameRows].map((p) => p.id))];
  const variations = productIds.length
    ? await db
        .selectFrom('variations')
        .select(['id', 'product_id', 'name', 'price'])
        .where('product_id', 'in', productIds)
        .execute()
    : [];

  return items.map((item) => {
    let product: ProductRow | undefined;
    if (item.ProductID !== null) {
      product = byId.get(item.ProductID);
      if (!product) {
        throw notFound(item.ProductName || `Product ${item.ProductID}`, {
          reason: 'product-gone',
          productID: item.ProductID,
          productName: item.ProductName,
        });
      }
    } else {
      const found = byName.get(item.ProductName) ?? [];
      if (found.length === 0)
        throw notFound(item.ProductName, {
          reason: 'product-gone',
          productID: null,
          productName: item.ProductName,
        });
      if (found.length > 1) throw badRequest(messages.productAmbiguous(item.ProductName));
      product = found[0];
    }
    if (!product) throw notFound(item.ProductName, null);
    const own = variations.filter((v) => v.product_id === product.id);
    let variation = null as (typeof own)[number] | null;
    if (item.VariationID !== null) {
      variation = own.find((v) => v.id === item.VariationID) ?? null;
      if (!variation) {
        throw new HttpError(404, messages.variationUnavailable(product.title), {
          reason: 'product-gone',
          productID: product.id,
          variationID: item.VariationID,
        });
      }
    } else if (item.ProductID === null && item.Price !== product.price) {
      const same = own.filter((v) => v.price === item.Price);
      if (same.length === 1) variation = same[0] ?? null;
    }
    const price = unitPrice(product, variation);
    return {
      productID: product.id,
      variationID: variation?.id ?? null,
      productName: product.title,
      variationName: variation?.name ?? null,
      unitPrice: price,
      quantity: item.Quantity,
      lineTotal: price * item.Quantity,
      image: safeImage(item.ProductImage, product),
    };
  });
}
