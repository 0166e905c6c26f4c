import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router-dom';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { formatRupees } from '../../domain/money.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { Attention, madeLabel, StateChip } from './OutboxOrder.js';
import './checkout.css';

/**
 * The outbox's orders at the top of My Orders: queued, sending, needing
 * attention, and sent ones the server's history does not list yet (once it
 * does, the history's row is the one shown: no order appears twice).
 */
export function QueuedOrders({
  userId,
  knownOrderIds,
}: {
  userId: number;
  knownOrderIds: ReadonlySet<number>;
}) {
  const rows = useLiveQuery(() => ownOutboxRows(userId), [userId]);
  const shown = (rows ?? [])
    .map(upgradeRow)
    .filter((r) => r.state !== 'cancelled' && !(r.placed && knownOrderIds.has(r.placed.orderID)))
    .sort((a, b) => b.createdAt - a.createdAt);
  if (!shown.length) return null;
  return (
    <section className="co-queued" aria-labelledby="co-queued-title">
      <h2 id="co-queued-title">{t.queuedHeading}</h2>
      <ul className="co-queued__list">
        {shown.map((row) => (
          <QueuedRow key={row.key} row={row} />
        ))}
      </ul>
    </section>
  );
}

function QueuedRow({ row }: { row: OutboxRow }) {
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
        {row.state === 'queued' && row.lastError
          ? ` · ${t.lastTry(row.lastError.replace(/^transport:/, ''))}`
          : ''}
      </p>
      {row.state === 'attention' ? <Attention row={row} /> : null}
    </li>
  );
}
