import { useLiveQuery } from 'dexie-react-hooks';
import { choiceFields } from '../../domain/cart.js';
import type { Product } from '../../domain/catalogue.js';
import { cartLineOption } from '../../domain/checkout.js';
import { lineOption, orderLineLabel } from '../../domain/order-lines.js';
import type { OrderTotals } from '../../domain/orders.js';
import { asRepriced } from '../../domain/outbox.js';
import { db } from '../../sw/db.js';
import type { OutboxRow, QueuedLine } from '../../sw/outbox-row.js';
import { getProducts } from '../../sw/product-reads.js';
import type { LinePhoto } from './CakePhoto.js';
import type { ShownLine } from './OrderLines.js';

/**
 * An outbox order's lines as `OrderLineList` shows them: the server's once placed; until then the
 * request's (at the server's new prices while a repriced order waits for the shopper), with what each line chose from the row (kept when it was queued), else from the
 * device's catalogue (a row queued before choices were kept), else the request's title alone.
 */
export function rowLines(row: OutboxRow, products: ReadonlyMap<number, Product>): ShownLine[] {
  const items = row.request.OrderItems;
  if (row.placed) {
    return row.placed.items.map((i, n) => {
      // An answer stored before values were kept lacks the value: the queued line's choice has it.
      const kept = keptChoice(row, i.productID, i.variationID);
      const variationValue = i.variationValue ?? (kept ? cartLineOption(kept).variationValue : undefined);
      return {
        productID: i.productID,
        title: i.productName,
        option: lineOption({ variationName: i.variationName, variationValue }),
        unitPrice: i.unitPrice,
        quantity: i.quantity,
        lineTotal: i.lineTotal,
        image: items[n]?.ProductImage ?? '',
        message: i.cakeMessage ?? items[n]?.CakeMessage ?? null,
        photo: rowPhoto(row, n, i.photoID ?? null),
      };
    });
  }
  return items.map((i, n) => {
    // The request's ids are as the form typed them (a number, or its digits in a string).
    const productID = i.ProductID == null ? null : Number(i.ProductID);
    const variationID = i.VariationID == null ? null : Number(i.VariationID);
    const product = productID === null ? undefined : products.get(productID);
    const choice =
      keptChoice(row, productID, variationID) ??
      (product ? catalogueChoice(product, productID, variationID) : null);
    const now = repricedLine(row, productID, variationID);
    return {
      productID,
      title: i.ProductName || product?.title || '',
      option: choice ? lineOption(cartLineOption(choice)) : null,
      unitPrice: now?.price ?? i.Price,
      quantity: i.Quantity,
      lineTotal: now?.lineTotal ?? i.Price * i.Quantity,
      image: i.ProductImage ?? '',
      message: i.CakeMessage ?? null,
      photo: rowPhoto(row, n, null),
    };
  });
}

/**
 * The bill an outbox order shows: the server's once placed; the server's new figures while a
 * repriced order waits for the shopper's Confirm (the box above compares them with the old ones,
 * and the bill below must not show a second, older total); else the figures the checkout showed.
 */
export function rowFigures(row: OutboxRow): { totals: OrderTotals; couponCode: string | null } {
  const placed = row.placed;
  if (placed) {
    return {
      totals: {
        subtotal: placed.subtotal,
        deliveryCharge: placed.deliveryCharge,
        slotCharge: placed.slotCharge,
        discount: placed.discount,
        total: placed.totalAmount,
      },
      couponCode: placed.couponCode,
    };
  }
  const couponCode = row.request.CouponCode ?? null;
  const repriced = row.state === 'attention' && row.problem ? asRepriced(row.problem.data) : null;
  if (!repriced) return { totals: row.figures, couponCode };
  return {
    totals: {
      subtotal: repriced.subtotal,
      deliveryCharge: repriced.deliveryCharge,
      // A refusal kept before slots were priced has no slot charge of its own: the slot's did not change.
      slotCharge: repriced.slotCharge ?? row.figures.slotCharge,
      discount: repriced.discount,
      total: repriced.total.new,
    },
    couponCode: repriced.coupon && !repriced.coupon.applied ? null : couponCode,
  };
}

/** The new price of a queued line while its order waits for the shopper to confirm new figures. */
function repricedLine(row: OutboxRow, productID: number | null, variationID: number | null) {
  const repriced = row.state === 'attention' && row.problem ? asRepriced(row.problem.data) : null;
  return repriced?.lines.find((l) => l.productID === productID && l.variationID === variationID)?.new ?? null;
}

/** Line `item`'s photo: on the phone while the row keeps it, else by the id the upload or the server answered. */
function rowPhoto(row: OutboxRow, item: number, placedID: string | null): LinePhoto | null {
  const kept = row.photos?.find((p) => p.item === item);
  const photoID = placedID ?? kept?.photoID ?? null;
  return kept?.blob || photoID ? { blob: kept?.blob ?? null, photoID } : null;
}

/** "Chocolate Truffle Delight (Weight: 1 kg)" for a line the server named by product and option (a repriced line). */
export function queuedLineLabel(
  row: OutboxRow,
  line: { productID: number; variationID: number | null; productName: string },
): string {
  const kept = keptChoice(row, line.productID, line.variationID);
  return kept ? orderLineLabel({ productName: line.productName, ...cartLineOption(kept) }) : line.productName;
}

/** The row's own record of a line's choice; by product and option, since a removed line moves the items. */
function keptChoice(row: OutboxRow, productID: number | null, variationID: number | null): QueuedLine | null {
  return row.lines?.find((l) => l.productID === productID && l.variationID === variationID) ?? null;
}

function catalogueChoice(
  product: Product,
  productID: number | null,
  variationID: number | null,
): QueuedLine | null {
  if (productID === null) return null;
  const variation =
    variationID === null ? null : product.variations.find((v) => v.variationID === variationID);
  // An option the catalogue no longer has is not guessed at.
  if (variation === undefined) return null;
  return { productID, variationID, ...choiceFields(product, variation) };
}

/** The device's catalogue entries of the products in `rows` still waiting, for `rowLines`. */
export function useRowProducts(rows: readonly OutboxRow[]): ReadonlyMap<number, Product> {
  const ids = [
    ...new Set(
      rows
        .filter((r) => !r.placed)
        .flatMap((r) => r.request.OrderItems.map((i) => Number(i.ProductID ?? 0)))
        .filter((id) => id > 0),
    ),
  ];
  const products = useLiveQuery(() => (ids.length ? getProducts(db, ids) : []), [ids.join(',')]);
  const byId = new Map<number, Product>();
  for (const p of products ?? []) if (p) byId.set(p.productID, p);
  return byId;
}
