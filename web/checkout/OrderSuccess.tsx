/**
 * `/order-success?order={key}`: the order as the device knows it, live. Placed:
 * number, items, the bill, delivery date, payment. Queued: what happens next.
 * Refused: what to decide. The page follows the row, so a queued order turns
 * into a placed one here when a sender gets it through. Another account's
 * order (a shared phone, a link kept from another session) reads as missing.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { deliverToOf } from '../../domain/deliver-to.js';
import { WITH_LOVE } from '../../domain/gifts.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { PAYMENT_METHODS, paymentMethodLabel } from '../../domain/payment-methods.js';
import { nightOfLabel, windowLabel } from '../../domain/slots.js';
import { ownOutboxRow } from '../../sw/account-data.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { markAnnounced } from '../../sw/outbox-shopper.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { OrderUpdatesOffer } from '../push/OrderUpdatesOffer.js';
import { isIosSafariOutsideApp } from '../pwa/ios.js';
import { DeliverTo } from './DeliverTo.js';
import { OrderBill } from './OrderBill.js';
import { OrderLineList } from './OrderLines.js';
import { OrderSeller } from './OrderSeller.js';
import { Attention, madeLabel, StateChip } from './OutboxOrder.js';
import { rowFigures, rowLines, useRowProducts } from './outbox-lines.js';
import './checkout.css';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
function deliveryLabel(date: string): string {
  const t0 = Date.parse(`${date}T00:00:00`);
  return Number.isNaN(t0) ? date : dateFormat.format(t0);
}

/** Where a request sends the order: its own address, or the gift's recipient there. */
function requestDeliverTo(r: OrderRequestInput) {
  return deliverToOf({
    customerName: r.CustomerName,
    customerPhone: r.CustomerPhone,
    customerAddress: r.CustomerAddress,
    city: r.City,
    state: r.State,
    pincode: r.CustomerPincode,
    recipient: r.Recipient ? { name: r.Recipient.Name, phone: r.Recipient.Phone } : null,
  });
}

/** The heading, and the tab's title but for a placed order's, which names its number to tell tabs and history apart. */
function titleOf(row: OutboxRow | null | undefined): string | undefined {
  if (row === undefined) return undefined;
  if (row === null) return t.successMissing;
  switch (row.state) {
    case 'sent':
      return t.successTitle;
    case 'attention':
      return t.stateAttention;
    case 'cancelled':
      return t.successCancelledTitle;
    case 'sending':
      return t.successSendingTitle;
    default:
      return t.successQueuedTitle;
  }
}

export default function OrderSuccess() {
  const [params] = useSearchParams();
  const key = params.get('order') ?? '';
  const userId = useSession()?.userId;
  // null: no such order of this account; undefined: the store has not answered yet (render nothing rather than "missing").
  const stored = useLiveQuery(() => ownOutboxRow(key, userId), [key, userId]);
  const row = stored ? upgradeRow(stored) : stored;
  const products = useRowProducts(row ? [row] : []);
  const title = titleOf(row);
  useTitle(row?.placed ? t.notificationTitle(row.placed.orderID) : title);

  // The shopper saw it placed here: the worker must not announce it again.
  useEffect(() => {
    if (row?.state === 'sent' && !row.announced) void markAnnounced(row.key);
  }, [row?.state, row?.announced, row?.key]);

  if (row === undefined) return null;
  if (!row) {
    return (
      <div className="page co-success">
        <h1>{title}</h1>
        <Link to="/home" className="btn btn--primary">
          {t.continueShopping}
        </Link>
      </div>
    );
  }

  const placed = row.placed;
  const method = placed?.paymentMethod ?? row.request.PaymentMethod ?? PAYMENT_METHODS.cod;
  const deliveryDate = placed?.deliveryDate ?? row.request.DeliveryDate;
  // The server's slot once placed; until then what the shopper chose (rows from before slots have neither).
  const slot = placed?.deliverySlot ?? row.slot ?? null;
  const { totals, couponCode } = rowFigures(row);

  return (
    <div className="page co-success">
      <h1>{title}</h1>
      <section className={`co-card co-card--${row.state}`} aria-labelledby="co-order-title">
        <div className="co-card__head">
          <h2 id="co-order-title">{madeLabel(row)}</h2>
          <StateChip row={row} />
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
                {nightOfLabel(slot, deliveryDate) ? (
                  <span className="co-night">{nightOfLabel(slot, deliveryDate)}</span>
                ) : null}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t.deliverTo}</dt>
            <dd>
              <DeliverTo to={requestDeliverTo(row.request)} />
            </dd>
          </div>
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
            <dd>{paymentMethodLabel(method)}</dd>
          </div>
        </dl>
        <h3 className="co-items-title">{t.items}</h3>
        <OrderLineList lines={rowLines(row, products)} />
        <OrderBill totals={totals} slot={slot} couponCode={couponCode} />
        <OrderSeller />
      </section>
      {row.state !== 'cancelled' ? <OrderUpdatesOffer /> : null}
      <div className="co-actions">
        <Link to="/products" className="btn btn--primary">
          {t.continueShopping}
        </Link>
        <Link to={placed ? `/my-orders/${placed.orderID}` : '/my-orders'} className="btn btn--outline">
          {t.myOrders}
        </Link>
      </div>
    </div>
  );
}
