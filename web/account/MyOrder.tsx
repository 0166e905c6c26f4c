/**
 * `/my-orders/{id}`: one of the shopper's orders, its lines with pictures, delivery, address,
 * payment and figures (each refund: "Refund of ₹450 processed on 27 Nov"), and the timeline of
 * its statuses with their times (never the admin's notes: the server does not send them), and the
 * shopper's own Cancel while the rule allows it (`OrderCancel.tsx`). The page shows the copy kept on the device
 * (Dexie `orderDetails`) at once and polls the server with its ETag while open, so a move shows
 * within seconds; offline it says from when the copy is. Another account's order reads as missing.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { addressText } from '../../domain/address.js';
import { giftMessages, WITH_LOVE } from '../../domain/gifts.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { lineOption } from '../../domain/order-lines.js';
import { statusLabel, stepsToCome, trackingMessages as t } from '../../domain/order-tracking.js';
import type { OrderLine } from '../../domain/orders.js';
import { paymentMethodLabel } from '../../domain/payment-methods.js';
import { refundLine } from '../../domain/refunds.js';
import { nightOfLabel, windowLabel } from '../../domain/slots.js';
import { db } from '../../sw/db.js';
import { waitingRequest } from '../../sw/requests.js';
import { OrderBill } from '../checkout/OrderBill.js';
import { OrderLineList, type ShownLine } from '../checkout/OrderLines.js';
import { OrderSeller } from '../checkout/OrderSeller.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { OrderUpdatesOffer } from '../push/OrderUpdatesOffer.js';
import { useLiveRefresh } from './live-refresh.js';
import { OrderCancel } from './OrderCancel.js';
import { keptOrderDetail, orderRefunds, refreshOrderDetail } from './order-detail.js';
import './account.css';

const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
const formatTime = (at: string | number) => timeFormat.format(new Date(at));
/** A copy kept before lines had their value lacks it, and says "size not recorded" until refreshed. */
const orderLine = (l: OrderLine): ShownLine => ({
  productID: l.productID,
  title: l.productName,
  option: lineOption(l),
  unitPrice: l.unitPrice,
  quantity: l.quantity,
  lineTotal: l.lineTotal,
  image: l.productImage,
  message: l.cakeMessage ?? null,
  photo: l.photoID ? { blob: null, photoID: l.photoID } : null,
});
const statusClass = (s: string) => `orders__status orders__status--${s.replace(/\s+/g, '-')}`;

export default function MyOrder() {
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const userId = useSession()?.userId ?? 0;
  useTitle(valid ? t.title(id) : t.notFound);
  // undefined: IndexedDB has not answered yet (render nothing); null: not on this device.
  const kept = useLiveQuery(() => (valid ? keptOrderDetail(userId, id) : null), [userId, id, valid]);
  const refresh = useCallback(() => refreshOrderDetail(userId, id), [userId, id]);
  // A cancel asked for offline and not yet answered (the request queue).
  const request = useLiveQuery(() => (valid ? waitingRequest(db, userId, id) : null), [userId, id, valid]);
  const { offline, asked, refused } = useLiveRefresh(valid && userId ? refresh : null);

  if (!valid || (refused && refused.status === 404)) {
    return (
      <div className="page account account--wide order-page">
        <h1>{t.notFound}</h1>
        <Link to="/my-orders" className="btn btn--primary">
          Your Orders
        </Link>
      </div>
    );
  }
  if (kept === undefined) return null;
  if (!kept) {
    return (
      <div className="page account account--wide order-page">
        <h1>{t.title(id)}</h1>
        {offline ? <p className="orders__fetched">{t.notOnDevice}</p> : null}
        {asked && !offline && refused ? <p className="orders__fetched">{refused.message}</p> : null}
        <Link to="/my-orders">Back to Your Orders</Link>
      </div>
    );
  }

  const o = kept.order;
  const refunds = orderRefunds(o);
  const toCome = stepsToCome(o.status);
  return (
    <div className="page account account--wide order-page">
      <p className="order-page__back">
        <Link to="/my-orders">‹ Your Orders</Link>
      </p>
      <h1 className="order-page__title">
        {t.title(o.orderID)} <span className={statusClass(o.status)}>{statusLabel(o.status)}</span>
      </h1>
      <p className="orders__fetched" data-testid="order-fetched" role="status">
        {offline ? t.offline(formatTime(kept.fetchedAt)) : t.fetchedAt(formatTime(kept.fetchedAt))}
      </p>
      <OrderCancel order={o} request={request ?? null} />

      <section aria-labelledby="order-progress" className="order-page__section">
        <h2 id="order-progress">{t.timeline}</h2>
        <ol className="order-timeline">
          {o.timeline.map((step, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; the server's order is fixed.
              key={`${step.status}-${i}`}
              className={`order-timeline__step order-timeline__step--done${i === o.timeline.length - 1 ? ' order-timeline__step--now' : ''}`}
              aria-current={i === o.timeline.length - 1 ? 'step' : undefined}
            >
              <span className="order-timeline__status">{statusLabel(step.status)}</span>
              <time dateTime={step.at}>{formatTime(step.at)}</time>
            </li>
          ))}
          {toCome.map((status) => (
            <li key={status} className="order-timeline__step order-timeline__step--later">
              <span className="order-timeline__status">{statusLabel(status)}</span>
              <span className="order-timeline__when">{t.toCome}</span>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="order-items" className="order-page__section">
        <h2 id="order-items">Items</h2>
        <OrderLineList lines={o.lines.map(orderLine)} linkProducts />
      </section>

      <section aria-labelledby="order-delivery" className="order-page__section">
        <h2 id="order-delivery">Delivery</h2>
        <dl className="order-facts">
          <div>
            <dt>Delivery date</dt>
            <dd>{formatCalendarDay(o.deliveryDate)}</dd>
          </div>
          {o.deliverySlot ? (
            <div>
              <dt>Delivery slot</dt>
              <dd>
                {o.deliverySlot.name}, {windowLabel(o.deliverySlot)}
                {nightOfLabel(o.deliverySlot, o.deliveryDate) ? (
                  <span className="co-night">{nightOfLabel(o.deliverySlot, o.deliveryDate)}</span>
                ) : null}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Deliver to</dt>
            <dd>
              {o.recipient ? `${o.recipient.name} (a gift from you)` : o.customerName}
              <br />
              {addressText({ address: o.customerAddress, city: o.city, state: o.state, pincode: o.pincode })}
              <br />
              {o.recipient?.phone ?? o.customerPhone}
            </dd>
          </div>
          {o.card ? (
            <div>
              <dt>Card</dt>
              <dd>
                {o.card.occasion}
                {o.card.message ? `: ${o.card.message}` : ''} ({o.hideSender ? WITH_LOVE : 'from you'})
              </dd>
            </div>
          ) : null}
          {o.hidePrice || (o.hideSender && !o.card) ? (
            <div>
              <dt>Surprise</dt>
              <dd>
                {[o.hidePrice ? giftMessages.hidePrice : '', o.hideSender ? giftMessages.hideSender : '']
                  .filter(Boolean)
                  .join('; ')}
              </dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section aria-labelledby="order-payment" className="order-page__section">
        <h2 id="order-payment">Payment</h2>
        <dl className="order-facts">
          <div>
            <dt>Payment method</dt>
            <dd>{paymentMethodLabel(o.paymentMethod)}</dd>
          </div>
        </dl>
        <OrderBill
          totals={{
            subtotal: o.subtotal,
            deliveryCharge: o.deliveryCharge,
            slotCharge: o.slotCharge,
            discount: o.discount,
            total: o.totalAmount,
          }}
          slot={o.deliverySlot}
          couponCode={o.couponCode}
        />
        {refunds.length > 0 ? (
          <ul className="order-refunds" aria-label="Refunds" data-testid="order-refunds">
            {refunds.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: refunds have no id here; the server's order is fixed (oldest first).
              <li key={i}>{refundLine(r)}</li>
            ))}
          </ul>
        ) : null}
        <OrderSeller />
        <p className="orders__fetched">Ordered {formatTime(o.orderDate)}</p>
      </section>
      {o.status !== 'delivered' && o.status !== 'cancelled' ? <OrderUpdatesOffer /> : null}
    </div>
  );
}
