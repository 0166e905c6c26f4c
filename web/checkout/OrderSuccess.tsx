import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { WITH_LOVE } from '../../domain/gifts.js';
import { formatRupees } from '../../domain/money.js';
import { slotChargeLabel, windowLabel } from '../../domain/slots.js';
import { ownOutboxRow } from '../../sw/account-data.js';
import { markAnnounced } from '../../sw/outbox.js';
import { upgradeRow } from '../../sw/outbox-row.js';
import { useSession } from '../hooks/useSession.js';
import { OrderUpdatesOffer } from '../push/OrderUpdatesOffer.js';
import { isIosSafariOutsideApp } from '../pwa/ios.js';
import { Attention, madeLabel, OrderLines, StateChip } from './OutboxOrder.js';
import './checkout.css';

/**
 * `/order-success?order={key}`: the order as the device knows it, live. Placed:
 * number, items, total, delivery date, payment. Queued: what happens next.
 * Refused: what to decide. The page follows the row, so a queued order turns
 * into a placed one here when a sender gets it through. Another account's
 * order (a shared phone, a link kept from another session) reads as missing.
 */
const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
function deliveryLabel(date: string): string {
  const t0 = Date.parse(`${date}T00:00:00`);
  return Number.isNaN(t0) ? date : dateFormat.format(t0);
}

export default function OrderSuccess() {
  const [params] = useSearchParams();
  const key = params.get('order') ?? '';
  const userId = useSession()?.userId;
  // null: no such order of this account; undefined: the store has not answered yet (render nothing rather than "missing").
  const stored = useLiveQuery(() => ownOutboxRow(key, userId), [key, userId]);
  const row = stored ? upgradeRow(stored) : null;

  // The shopper saw it placed here: the worker must not announce it again.
  useEffect(() => {
    if (row?.state === 'sent' && !row.announced) void markAnnounced(row.key);
  }, [row?.state, row?.announced, row?.key]);

  if (stored === undefined) return null;
  if (!row) {
    return (
      <div className="page co-success">
        <h1>{t.successMissing}</h1>
        <Link to="/home" className="btn btn--primary">
          {t.continueShopping}
        </Link>
      </div>
    );
  }

  const title =
    row.state === 'sent'
      ? t.successTitle
      : row.state === 'attention'
        ? t.stateAttention
        : row.state === 'cancelled'
          ? t.successCancelledTitle
          : row.state === 'sending'
            ? t.successSendingTitle
            : t.successQueuedTitle;
  const total = row.placed?.totalAmount ?? row.figures.total;
  const method = row.placed?.paymentMethod ?? row.request.PaymentMethod ?? 'Cash on Delivery';
  const deliveryDate = row.placed?.deliveryDate ?? row.request.DeliveryDate;
  // The server's slot once placed; until then what the shopper chose (rows from before slots have neither).
  const slot = row.placed?.deliverySlot ?? row.slot ?? null;
  const slotCharge = row.placed?.slotCharge ?? row.figures.slotCharge;

  return (
    <div className="page co-success">
      <h1>{title}</h1>
      <section className={`co-card co-card--${row.state}`} aria-labelledby="co-order-title">
        <div className="co-card__head">
          <h2 id="co-order-title">{madeLabel(row)}</h2>
          <StateChip state={row.state} />
        </div>
        {row.state === 'queued' || row.state === 'sending' ? (
          <div className="co-next">
            <p>{t.successQueuedNext}</p>
            {isIosSafariOutsideApp() ? (
              <p className="co-warning">
                {t.iosWarning} {t.iosInstall}
              </p>
            ) : null}
          </div>
        ) : null}
        {row.state === 'attention' ? <Attention row={row} /> : null}
        <dl className="co-facts">
          <div>
            <dt>{t.deliveryOn}</dt>
            <dd>{deliveryLabel(deliveryDate)}</dd>
          </div>
          {slot ? (
            <div>
              <dt>{t.deliverySlot}</dt>
              <dd>
                {slot.name}, {windowLabel(slot)}
              </dd>
            </div>
          ) : null}
          {slot && slotCharge > 0 ? (
            <div>
              <dt>{slotChargeLabel(slot)}</dt>
              <dd>{formatRupees(slotCharge)}</dd>
            </div>
          ) : null}
          {row.request.Recipient ? (
            <div>
              <dt>Deliver to</dt>
              <dd>
                {row.request.Recipient.Name}, {row.request.Recipient.Phone}
              </dd>
            </div>
          ) : null}
          {row.request.Card ? (
            <div>
              <dt>Card</dt>
              <dd className="co-on-cake">
                {row.request.Card.Occasion}
                {row.request.Card.Message?.trim() ? `: ${row.request.Card.Message.trim()}` : ''}
                {row.request.HideSender ? ` (${WITH_LOVE})` : ''}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t.paymentMethod}</dt>
            <dd>{method}</dd>
          </div>
          {row.placed?.discount ? (
            <div>
              <dt>Coupon {row.placed.couponCode ?? ''}</dt>
              <dd>-{formatRupees(row.placed.discount)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t.total}</dt>
            <dd>{formatRupees(total)}</dd>
          </div>
        </dl>
        <h3 className="co-items-title">{t.items}</h3>
        <OrderLines row={row} />
      </section>
      {row.state !== 'cancelled' ? <OrderUpdatesOffer /> : null}
      <div className="co-actions">
        <Link to="/products" className="btn btn--primary">
          {t.continueShopping}
        </Link>
        <Link
          to={row.placed ? `/my-orders/${row.placed.orderID}` : '/my-orders'}
          className="btn btn--outline"
        >
          {t.myOrders}
        </Link>
      </div>
    </div>
  );
}
