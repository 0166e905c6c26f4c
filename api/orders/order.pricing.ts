/**
 * Prices each requested line from the database, the only judge of money.
 * A line names its product by id, or (the spec's client) by exact title. The
 * spec's client sends no variation id either, only the line's price, so a
 * line found by title with a price that is exactly one of the product's
 * variation prices is that variation; anything else is the base price, and
 * the comparison with what the shopper saw decides.
 */
import type { Kysely, Transaction } from 'kysely';
import { unitPrice } from '../../domain/cart.js';
import { splitMedia } from '../../domain/catalogue-media.js';
import { messages } from '../../domain/messages.js';
import type { OrderItemRequest, PricedLine } from '../../domain/orders.js';
import type { Database } from '../db/schema.js';
import { badRequest, HttpError } from '../http/errors.js';
import { imageOf } from '../images/images.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface PricedOrderLine extends PricedLine {
  image: string;
  /** The line's gift parts as asked, checked against the product's flags by `../gifts`. */
  cakeMessage: string | null;
  photoID: string | null;
  takesMessage: boolean;
  photoCake: boolean;
}

interface ProductRow {
  id: number;
  title: string;
  price: number;
  size_or_weight: string;
  extra_media: string;
  takes_message: number;
  photo_cake: number;
}

const notFound = (name: string, data: unknown) => new HttpError(404, messages.productUnavailable(name), data);

interface VariationRow {
  id: number;
  product_id: number;
  name: string;
  value: string;
  price: number;
}

/** A live product as an order prices it: its row, its variations and the picture a line keeps. */
export interface ProductFacts {
  product: ProductRow;
  variations: VariationRow[];
  image: string;
}

const PRODUCT_COLUMNS = [
  'id',
  'title',
  'price',
  'size_or_weight',
  'extra_media',
  'takes_message',
  'photo_cake',
] as const;

/**
 * A line's picture is the product's own first picture (as its `imagePath` lists them: uploaded
 * images, then extra media), never the request's `ProductImage`: the admin's order pages show it,
 * and an address from the shopper would be a tracking pixel or a misleading picture for packers.
 *
 * The variations and first picture of `rows`, as facts by product id.
 */
async function factsOf(db: Db, rows: readonly ProductRow[]): Promise<Map<number, ProductFacts>> {
  const ids = rows.map((p) => p.id);
  const [variations, uploads] = ids.length
    ? await Promise.all([
        db
          .selectFrom('variations')
          .select(['id', 'product_id', 'name', 'value', 'price'])
          .where('product_id', 'in', ids)
          .execute(),
        db
          .selectFrom('product_images')
          .select(['product_id', 'file_stem', 'widths', 'width', 'height'])
          .where('product_id', 'in', ids)
          .orderBy('product_id')
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ])
    : [[], []];
  const firstUpload = new Map<number, string>();
  for (const i of uploads) {
    if (!firstUpload.has(i.product_id))
      firstUpload.set(i.product_id, imageOf(i.file_stem, i.widths, i.width, i.height).src);
  }
  return new Map(
    rows.map((product) => [
      product.id,
      {
        product,
        variations: variations.filter((v) => v.product_id === product.id),
        image: firstUpload.get(product.id) ?? splitMedia(product.extra_media)[0] ?? '',
      },
    ]),
  );
}

/** The live products among `ids` (three queries; `order-facts.ts` keeps them per catalogue version). */
export async function readProductFacts(db: Db, ids: readonly number[]): Promise<Map<number, ProductFacts>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('products')
    .select(PRODUCT_COLUMNS)
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
  return factsOf(db, rows);
}

/**
 * Prices each line from the database: by id through `byId` (the order's facts, `order-facts.ts`),
 * by name (a client written to the spec may send no id) with a query of its own.
 */
export async function priceItems(
  db: Db,
  items: readonly OrderItemRequest[],
  byIds: (ids: readonly number[]) => Promise<Map<number, ProductFacts>> = (ids) => readProductFacts(db, ids),
): Promise<PricedOrderLine[]> {
  const ids = [...new Set(items.flatMap((i) => (i.ProductID !== null ? [i.ProductID] : [])))];
  const names = [...new Set(items.flatMap((i) => (i.ProductID === null ? [i.ProductName] : [])))];
  const [byId, byNameRows] = await Promise.all([
    byIds(ids),
    names.length
      ? db
          .selectFrom('products')
          .select(PRODUCT_COLUMNS)
          .where('title', 'in', names)
          .where('deleted_at', 'is', null)
          .execute()
      : Promise.resolve([]),
  ]);
  const named = await factsOf(
    db,
    byNameRows.filter((p) => !byId.has(p.id)),
  );
  const factsFor = (id: number) => byId.get(id) ?? named.get(id);
  const byName = new Map<string, ProductRow[]>();
  for (const p of byNameRows) byName.set(p.title, [...(byName.get(p.title) ?? []), p]);

  return items.map((item) => {
    let product: ProductRow | undefined;
    if (item.ProductID !== null) {
      product = byId.get(item.ProductID)?.product;
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
    const facts = factsFor(product.id);
    const own = facts?.variations ?? [];
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
      // The base option's value is the product's own size ('' when it has none).
      variationValue: variation ? variation.value : (product.size_or_weight ?? ''),
      unitPrice: price,
      quantity: item.Quantity,
      lineTotal: price * item.Quantity,
      image: facts?.image ?? '',
      cakeMessage: item.CakeMessage ?? null,
      photoID: item.PhotoID ?? null,
      takesMessage: Number(product.takes_message) === 1,
      photoCake: Number(product.photo_cake) === 1,
    };
  });
}
