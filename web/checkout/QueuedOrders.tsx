import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router-dom';
import { choiceFields, lineLabel } from '../../domain/cart.js';
import type { Product } from '../../domain/catalogue.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { giftMessages } from '../../domain/gifts.js';
import { formatRupees } from '../../domain/money.js';
import { formatCalendarDay, windowLabel } from '../../domain/slots.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import { db } from '../../sw/db.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { getProducts } from '../../sw/product-reads.js';
import { ProductImage } from '../components/ProductImage.js';
import { Attention, madeLabel, StateChip } from './OutboxOrder.js';
import './checkout.css';

/**
 * The outbox's orders at the top of My Orders: queued, sending, needing
 * attention, and sent ones the server's history does not list yet (once it
 * does, the history's row is the one shown: no order appears twice). Until the
 * history kept on the device has answered (`knownOrderIds` undefined) sent ones
 * wait: shown at once, every order the phone ever sent flashed up as waiting in
 * a new tab, and went again when the history came.
 */
export function QueuedOrders({
  userId,
  knownOrderIds,
}: {
  userId: number;
  knownOrderIds: ReadonlySet<number> | undefined;
}) {
  const rows = useLiveQuery(() => ownOutboxRows(userId), [userId]);
  const shown = (rows ?? [])
    .map(upgradeRow)
    .filter(
      (r) =>
        r.state !== 'cancelled' && !(r.placed && (!knownOrderIds || knownOrderIds.has(r.placed.orderID))),
    )
    .sort((a, b) => b.createdAt - a.createdAt);
  // The device's catalogue names each line's chosen option (the request carries only its id).
  const productIds = [
    ...new Set(
      shown.flatMap((r) => r.request.OrderItems.map((i) => Number(i.ProductID ?? 0))).filter((id) => id > 0),
    ),
  ];
  const products = useLiveQuery(() => getProducts(db, productIds), [productIds.join(',')]);
  if (!shown.length) return null;
  const byId = new Map<number, Product>();
  for (const p of products ?? []) if (p) byId.set(p.productID, p);
  return (
    <section className="co-queued" aria-labelledby="co-queued-title">
      <h2 id="co-queued-title">{t.queuedHeading}</h2>
      <ul className="co-queued__list">
        {shown.map((row) => (
          <QueuedRow key={row.key} row={row} products={byId} />
        ))}
      </ul>
    </section>
  );
}

interface ShownLine {
  name: string;
  image: string;
  quantity: number;
  sum: number;
  /** The message on the cake, as typed (issue 26). */
  message: string | null;
}

/**
 * An order's lines as the server's history shows them (picture, title with the
 * chosen option, quantity, price), so queued orders read apart: the server's
 * lines once placed, else the request's with the option named from the device's
 * catalogue (the request's own title when the product is no longer there).
 */
function shownLines(row: OutboxRow, products: ReadonlyMap<number, Product>): ShownLine[] {
  const items = row.request.OrderItems;
  if (row.placed) {
    return row.placed.items.map((i, n) => ({
      name: i.variationName ? `${i.productName} (${i.variationName})` : i.productName,
      image: items[n]?.ProductImage ?? '',
      quantity: i.quantity,
      sum: i.lineTotal,
      message: i.cakeMessage ?? items[n]?.CakeMessage ?? null,
    }));
  }
  return items.map((i) => {
    // The request's ids are as the form typed them (a number, or its digits in a string).
    const product = i.ProductID == null ? undefined : products.get(Number(i.ProductID));
    const variation =
      product?.variations.find((v) => i.VariationID != null && v.variationID === Number(i.VariationID)) ??
      null;
    const name = product
      ? lineLabel({
          title: i.ProductName || product.title,
          variationID: variation ? variation.variationID : null,
          ...choiceFields(product, variation),
        })
      : (i.ProductName ?? '');
    return {
      name,
      image: i.ProductImage ?? '',
      quantity: i.Quantity,
      sum: i.Price * i.Quantity,
      message: i.CakeMessage ?? null,
    };
  });
}

function QueuedRow({ row, products }: { row: OutboxRow; products: ReadonlyMap<number, Product> }) {
  const items = row.request.OrderItems.reduce((n, i) => n + i.Quantity, 0);
  return (
    <li className={`co-card co-card--${row.state}`}>
      <div className="co-card__head">
        <Link to={`/order-success?order=${encodeURIComponent(row.key)}`} className="co-card__title">
          {madeLabel(row)}
        </Link>
        <StateChip state={row.state} />
      </div>
      <p className="co-hint">
        {items} {items === 1 ? 'item' : 'items'} ·{' '}
        {formatRupees(row.placed?.totalAmount ?? row.figures.total)} ·{' '}
        {row.request.PaymentMethod ?? 'Cash on Delivery'}
        {row.slot ? ` · ${formatCalendarDay(row.slot.date)}, ${row.slot.name} ${windowLabel(row.slot)}` : ''}
        {row.state === 'queued' && row.lastError
          ? ` · ${t.lastTry(row.lastError.replace(/^transport:/, ''))}`
          : ''}
      </p>
      <ul className="orders__lines co-queued__lines">
        {shownLines(row, products).map((l, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never reorder.
          <li key={n}>
            <ProductImage src={l.image} alt="" className="orders__img" width={56} height={56} />
            <span>
              {l.name} <span className="orders__qty">× {l.quantity}</span> · {formatRupees(l.sum)}
              {l.message ? (
                <span className="orders__qty co-on-cake">{giftMessages.onTheCake(l.message)}</span>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {row.state === 'attention' ? <Attention row={row} /> : null}
    </li>
  );
}
