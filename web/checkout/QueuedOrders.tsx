import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router-dom';
import type { Product } from '../../domain/catalogue.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { PAYMENT_METHODS, paymentMethodLabel } from '../../domain/payment-methods.js';
import { windowLabel } from '../../domain/slots.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { OrderLineList } from './OrderLines.js';
import { Attention, madeLabel, StateChip } from './OutboxOrder.js';
import { rowFigures, rowLines, useRowProducts } from './outbox-lines.js';
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
  // The device's catalogue names the options of orders queued before their rows kept them.
  const products = useRowProducts(shown);
  if (!shown.length) return null;
  return (
    <section className="co-queued" aria-labelledby="co-queued-title">
      <h2 id="co-queued-title">{t.queuedHeading}</h2>
      <ul className="co-queued__list">
        {shown.map((row) => (
          <QueuedRow key={row.key} row={row} products={products} />
        ))}
      </ul>
    </section>
  );
}

function QueuedRow({ row, products }: { row: OutboxRow; products: ReadonlyMap<number, Product> }) {
  const items = row.request.OrderItems.reduce((n, i) => n + i.Quantity, 0);
  return (
    <li className={`co-card co-card--${row.state}`}>
      <div className="co-card__head">
        <Link to={`/order-success?order=${encodeURIComponent(row.key)}`} className="co-card__title">
          {madeLabel(row)}
        </Link>
        <StateChip row={row} />
      </div>
      <p className="co-hint">
        {items} {items === 1 ? 'item' : 'items'} · {formatRupees(rowFigures(row).totals.total)} ·{' '}
        {paymentMethodLabel(row.placed?.paymentMethod ?? row.request.PaymentMethod ?? PAYMENT_METHODS.cod)}
        {row.slot ? ` · ${formatCalendarDay(row.slot.date)}, ${row.slot.name} ${windowLabel(row.slot)}` : ''}
        {row.state === 'queued' && row.lastError
          ? ` · ${t.lastTry(row.lastError.replace(/^transport:/, ''))}`
          : ''}
      </p>
      <OrderLineList lines={rowLines(row, products)} className="co-queued__lines" />
      {row.state === 'attention' ? <Attention row={row} /> : null}
    </li>
  );
}
