import { type FormEvent, useEffect, useState } from 'react';
import { addressText } from '../../domain/address.js';
import { adminApi } from '../../domain/admin.contract.js';
import type { AdminOrderDetail } from '../../domain/admin-answers.js';
import { NOTE_MAX } from '../../domain/admin-edits.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { giftsApi } from '../../domain/gifts.contract.js';
import { giftMessages, WITH_LOVE } from '../../domain/gifts.js';
import { formatCalendarDate, formatOrderDate } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { lineOption } from '../../domain/order-lines.js';
import type { OrderStatus } from '../../domain/orders.js';
import { paymentMethodLabel } from '../../domain/payment-methods.js';
import { slotChargeLabel } from '../../domain/slots.js';
import { ApiError, serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { CancelUnpaid } from './CancelUnpaid.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { download } from './download.js';
import { useLeaveGuardState } from './leave-guard.js';
import { PackingSlip, slotText } from './PackingSlip.js';
import { RefundPanel } from './RefundPanel.js';
import { LoadError, Loading, Screen } from './ui.js';

/** One order: its lines, customer, payment (an online one with its refunds), the timeline of its statuses, a status move with a note, and a packing slip. */
export default function OrderDetail({ id }: { id: string }) {
  const order = useAdminQuery(adminApi.order, { params: { id } }, `order-${id}`);
  return (
    <Screen
      title={`Order #${id}`}
      actions={
        order.data && (
          <button type="button" className="btn" onClick={() => globalThis.print()}>
            Print packing slip
          </button>
        )
      }
    >
      {order.error && <LoadError text={order.error} onRetry={order.reload} />}
      {order.loading && !order.data && <Loading text={messages.loadingOrders} />}
      {order.data && <Detail order={order.data} onMoved={order.reload} />}
      {order.data && <Slip id={id} status={order.data.status} />}
    </Screen>
  );
}

function Detail({ order, onMoved }: { order: AdminOrderDetail; onMoved(): void }) {
  return (
    <>
      <div className="admin-grid admin-no-print">
        <section className="admin-panel" aria-labelledby="customer-title">
          <h2 id="customer-title">Customer</h2>
          <dl className="admin-dl">
            <dt>Name</dt>
            <dd>{order.customerName}</dd>
            <dt>Email</dt>
            <dd>{order.customerEmail}</dd>
            <dt>Phone</dt>
            <dd>{order.customerPhone}</dd>
            <dt>{order.recipient ? "Recipient's address" : 'Address'}</dt>
            <dd data-testid="order-address">
              {addressText({
                address: order.customerAddress,
                city: order.city,
                state: order.state,
                pincode: order.pincode,
              })}
            </dd>
            <dt>Account</dt>
            <dd>{order.userEmail}</dd>
          </dl>
          {/* Offered beside an unpaid order only: a paid order's page is no place to cancel others. */}
          {order.payment ? null : (
            <CancelUnpaid
              account={{
                userID: order.userID,
                email: order.userEmail,
                unpaidOpen: order.accountUnpaidOpen,
                unpaidOnOneDate: order.accountUnpaidOnOneDate,
              }}
              onCancelled={onMoved}
            />
          )}
        </section>
        <GiftPanel order={order} />
        <section className="admin-panel" aria-labelledby="payment-title">
          <h2 id="payment-title">Payment</h2>
          <dl className="admin-dl">
            <dt>Method</dt>
            <dd>{paymentMethodLabel(order.paymentMethod)}</dd>
            {order.paymentId && (
              <>
                <dt>Payment ID</dt>
                <dd>{order.paymentId}</dd>
              </>
            )}
            <dt>Subtotal</dt>
            <dd>{formatRupees(order.subtotal)}</dd>
            <dt>Delivery</dt>
            <dd>{formatRupees(order.deliveryCharge)}</dd>
            {order.deliverySlot && order.slotCharge > 0 && (
              <>
                <dt>{slotChargeLabel(order.deliverySlot)}</dt>
                <dd>{formatRupees(order.slotCharge)}</dd>
              </>
            )}
            {order.discount > 0 && (
              <>
                <dt>Coupon {order.couponCode}</dt>
                <dd>−{formatRupees(order.discount)}</dd>
              </>
            )}
            <dt>Total</dt>
            <dd>
              <strong>{formatRupees(order.totalAmount)}</strong>
            </dd>
            <dt>Ordered</dt>
            <dd>{formatOrderDate(order.orderDate)}</dd>
            <dt>Delivery date</dt>
            <dd>{formatCalendarDate(order.deliveryDate)}</dd>
            <dt>Delivery slot</dt>
            <dd data-testid="order-slot">{slotText(order.deliverySlot)}</dd>
          </dl>
        </section>
        <section className="admin-panel" aria-labelledby="status-title">
          <h2 id="status-title">
            Status:{' '}
            <span
              className={`admin-status admin-status--${order.status.replace(/ /g, '-')}`}
              data-testid="order-status"
            >
              {order.status}
            </span>
          </h2>
          <MoveForm order={order} onMoved={onMoved} />
          <h3>Timeline</h3>
          <ol className="admin-timeline">
            {order.timeline.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only grows at its end.
              <li key={i}>
                <strong>{s.to}</strong> <span className="muted">{formatOrderDate(s.at)}</span>
                <br />
                by {s.by}
                {s.note && <p className="admin-timeline__note">{s.note}</p>}
              </li>
            ))}
          </ol>
        </section>
      </div>
      {order.payment && <RefundPanel orderID={order.orderID} payment={order.payment} />}
      <section className="admin-panel admin-no-print" aria-labelledby="lines-title">
        <h2 id="lines-title">Items</h2>
        <section
          className="admin-table-wrap"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls is reached by keyboard this way.
          tabIndex={0}
          aria-label="Items table"
        >
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Product</th>
                <th scope="col">Size</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Line total</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((l, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines keep their order.
                <tr key={i}>
                  <td>
                    {l.productImage ? (
                      <img src={l.productImage} alt="" width={48} height={48} loading="lazy" />
                    ) : (
                      'No Image Available'
                    )}
                  </td>
                  <td>
                    {l.productName}
                    {l.cakeMessage ? (
                      <p className="admin-cake-message" data-testid="cake-message">
                        {giftMessages.onTheCake(l.cakeMessage)}
                      </p>
                    ) : null}
                    {l.photoID ? <CakePhoto photoID={l.photoID} name={l.productName} /> : null}
                  </td>
                  <td>{lineOption(l) ?? 'No size'}</td>
                  <td>{l.quantity}</td>
                  <td>{formatRupees(l.unitPrice)}</td>
                  <td>{formatRupees(l.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </section>
    </>
  );
}

function MoveForm({ order, onMoved }: { order: AdminOrderDetail; onMoved(): void }) {
  const [to, setTo] = useState<OrderStatus | ''>(order.nextStatuses[0] ?? '');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const adminCall = useAdminCall();
  const confirm = useConfirm();
  useLeaveGuardState(note.trim() !== '');
  if (!order.nextStatuses.length)
    return <p className="muted">This order is {order.status}: no further steps.</p>;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!to) return;
    // A cancel asks first, and says what happens to money taken online: it goes back.
    if (to === 'cancelled') {
      const pay = order.payment;
      const words = adminMessages.cancelDialog(
        order.orderID,
        pay && pay.refundable > 0 ? { left: pay.refundable, paid: pay.paid } : null,
      );
      if (!(await confirm(words.question, words.yes, words.keep))) return;
    }
    setBusy(true);
    try {
      await adminCall(adminApi.moveOrder, { params: { id: order.orderID }, body: { status: to, note } });
      notify(adminMessages.statusMoved(order.orderID, to), 'success');
      setNote('');
      onMoved();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin-form" onSubmit={submit}>
      <label className="admin-field">
        <span>Move to</span>
        <select value={to} onChange={(e) => setTo(e.target.value as OrderStatus)}>
          {order.nextStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="admin-field">
        <span>Note (optional)</span>
        <textarea rows={2} maxLength={NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <button type="submit" className="btn btn--primary" disabled={busy}>
        Update status
      </button>
    </form>
  );
}

/** The gift choices, stated plainly so nobody packs a price or a name by mistake. */
function GiftPanel({ order }: { order: AdminOrderDetail }) {
  if (!order.recipient && !order.hidePrice && !order.hideSender && !order.card) return null;
  return (
    <section className="admin-panel" aria-labelledby="gift-title" data-testid="gift-panel">
      <h2 id="gift-title">Gift</h2>
      <dl className="admin-dl">
        <dt>Recipient</dt>
        <dd>
          {order.recipient
            ? `${order.recipient.name}, ${order.recipient.phone}`
            : 'The buyer (not a gift to someone else)'}
        </dd>
        <dt>Price in the box</dt>
        <dd>
          {order.hidePrice ? 'No price in the box: the packing slip shows none' : 'Prices may be shown'}
        </dd>
        <dt>Sender</dt>
        <dd>
          {order.hideSender
            ? `Don't say who it's from: sign the card "${WITH_LOVE}"`
            : `Say it is from ${order.customerName}`}
        </dd>
        <dt>Card</dt>
        <dd>
          {order.card ? (
            <>
              {order.card.occasion}
              {order.card.message ? <p className="admin-card-message">{order.card.message}</p> : null}
            </>
          ) : (
            'No card'
          )}
        </dd>
      </dl>
    </section>
  );
}

/**
 * A cake's photo, private to the shop: fetched with the admin's token (an <img src> could not
 * carry it) and shown from an object URL; "Download full size" saves the printer's copy.
 */
function CakePhoto({ photoID, name }: { photoID: string; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const notify = useNotify();
  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    download(giftsApi.photo, { photoID }, abort.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setProblem(serverMessageOr(err, messages.somethingWentWrongTryAgain));
      });
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [photoID]);
  const full = async () => {
    try {
      const blob = await download(giftsApi.photo, { photoID }, undefined, { size: 'full' });
      const href = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = href;
      a.download = `cake-photo-${photoID}.webp`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline ? err.message : messages.somethingWentWrongTryAgain,
        'error',
      );
    }
  };
  return (
    // The spreadsheet's Cake Photo link lands here (domain/orders-csv.ts cakePhotoLink).
    <div className="admin-cake-photo" id="cake-photo">
      {url ? (
        <img src={url} alt={`To print on ${name}`} width={160} height={160} data-testid="cake-photo" />
      ) : problem ? (
        <p className="muted">{problem}</p>
      ) : (
        <p className="muted">Loading the cake's photo…</p>
      )}
      <button type="button" className="btn btn--small" onClick={() => void full()}>
        Download full size
      </button>
    </div>
  );
}

/** The order's packing slip, the same component the day's print uses; asked again when the status moves. */
function Slip({ id, status }: { id: string; status: OrderStatus }) {
  const slip = useAdminQuery(giftsApi.packingSlip, { params: { id } }, `slip-${id}-${status}`);
  if (slip.error) return <LoadError text={slip.error} onRetry={slip.reload} />;
  if (!slip.data) return null;
  return <PackingSlip slip={slip.data} />;
}
