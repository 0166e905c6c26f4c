import { type FormEvent, useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import { type AdminOrderDetail, formatCalendarDate, formatOrderDate, NOTE_MAX } from '../../domain/admin.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import type { OrderStatus } from '../../domain/orders.js';
import { type OrderSlot, slotChargeLabel, windowLabel } from '../../domain/slots.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { LoadError, Loading, Screen } from './ui.js';

/** "Midnight, 11 PM – 12 AM"; orders written outside the app may have no slot. */
function slotText(slot: OrderSlot | null): string {
  return slot ? `${slot.name}, ${windowLabel(slot)}` : 'Standard';
}

/** One order: its lines, customer, payment, the timeline of its statuses, a status move with a note, and a packing slip. */
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
            <dt>Address</dt>
            <dd>
              {order.customerAddress}, {order.city}, {order.state} {order.pincode}
            </dd>
            <dt>Account</dt>
            <dd>{order.userEmail}</dd>
          </dl>
        </section>
        <section className="admin-panel" aria-labelledby="payment-title">
          <h2 id="payment-title">Payment</h2>
          <dl className="admin-dl">
            <dt>Method</dt>
            <dd>{order.paymentMethod}</dd>
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
      <section className="admin-panel admin-slip" aria-labelledby="slip-title">
        <h2 id="slip-title">Packing slip: order #{order.orderID}</h2>
        <p>
          <strong>{order.customerName}</strong>
          <br />
          {order.customerAddress}
          <br />
          {order.city}, {order.state} {order.pincode}
          <br />
          Phone {order.customerPhone}
        </p>
        <p>
          Deliver on {formatCalendarDate(order.deliveryDate)}, {slotText(order.deliverySlot)}. Payment:{' '}
          {order.paymentMethod}
          {order.paymentMethod === 'Cash on Delivery'
            ? `, collect ${formatRupees(order.totalAmount)}`
            : ', paid'}
          .
        </p>
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Product</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Line total</th>
                <th scope="col" className="admin-print-only">
                  Packed
                </th>
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
                    {l.variationName && ` (${l.variationName})`}
                  </td>
                  <td>{l.quantity}</td>
                  <td>{formatRupees(l.unitPrice)}</td>
                  <td>{formatRupees(l.lineTotal)}</td>
                  <td className="admin-print-only">☐</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
  useLeaveGuardState(note.trim() !== '');
  if (!order.nextStatuses.length)
    return <p className="muted">This order is {order.status}: no further steps.</p>;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!to) return;
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
