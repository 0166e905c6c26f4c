/**
 * /my-orders (spec sections 2, 8): "Your Orders", the spec's columns (Order
 * ID, Product Name, Image, Quantity, Total Amount in INR without decimals,
 * Order Date in medium format) plus the order's status. The list is the last
 * history the device fetched (Dexie), refreshed on every visit, so it shows
 * offline with the time it was fetched. Orders still in the outbox come first
 * (`QueuedOrders`, the checkout's). On a phone each order is a card instead of
 * table rows, which would not fit. Each order that may still be cancelled has its Cancel
 * (`OrderCancel.tsx`).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { accountMessages } from '../../domain/account-messages.js';
import type { DeliverTo as DeliverToPlace } from '../../domain/deliver-to.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { statusLabel } from '../../domain/order-tracking.js';
import type { OrderHistoryRow } from '../../domain/orders.js';
import { paymentMethodLabel } from '../../domain/payment-methods.js';
import { refundLine, type ShopperRefund } from '../../domain/refunds.js';
import { nightOfLabel, windowLabel } from '../../domain/slots.js';
import { db } from '../../sw/db.js';
import { accountRequests, type RequestRow } from '../../sw/requests.js';
import { ApiError } from '../api/client.js';
import { DeliverTo } from '../checkout/DeliverTo.js';
import { OrderLineList, OrderLineText } from '../checkout/OrderLines.js';
import { QueuedOrders } from '../checkout/QueuedOrders.js';
import { ProductImage } from '../components/ProductImage.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { useLiveRefresh } from './live-refresh.js';
import { OrderCancel } from './OrderCancel.js';
import { historyLine, historyRefunds, keptOrderHistory, refreshOrderHistory } from './order-history.js';
import './account.css';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string | number) => dateFormat.format(new Date(iso));

interface OrderGroup {
  orderID: number;
  orderDate: string;
  status: string;
  totalAmount: number;
  paymentMethod: string;
  delivery: string;
  /** Absent on a copy kept before the history said where orders go. */
  deliverTo: DeliverToPlace | undefined;
  refunds: ShopperRefund[];
  lines: OrderHistoryRow[];
}

/**
 * "Thu 26 Nov 2026, Midnight 11 PM – 12 AM (₹250). Night of 26 Nov, before the 27th begins": when the
 * order comes, what its slot cost, and which night a late slot is.
 */
function deliveryText(r: OrderHistoryRow): string {
  const slot = r.deliverySlot;
  const when = formatCalendarDay(r.deliveryDate);
  if (!slot) return when;
  const charge = r.slotCharge ? ` (${formatRupees(r.slotCharge)})` : '';
  const night = nightOfLabel(slot, r.deliveryDate);
  return `${when}, ${slot.name} ${windowLabel(slot)}${charge}${night ? `. ${night}` : ''}`;
}

function groups(rows: OrderHistoryRow[]): OrderGroup[] {
  const byId = new Map<number, OrderGroup>();
  for (const r of rows) {
    const g = byId.get(r.orderID);
    if (g) g.lines.push(r);
    else
      byId.set(r.orderID, {
        orderID: r.orderID,
        orderDate: r.orderDate,
        status: r.status,
        totalAmount: r.totalAmount,
        paymentMethod: r.paymentMethod,
        delivery: deliveryText(r),
        deliverTo: r.deliverTo,
        refunds: historyRefunds(r),
        lines: [r],
      });
  }
  return [...byId.values()];
}

/** An order's refunds, one line each ("Refund of ₹450 processed on 27 Nov"). */
function Refunds({ refunds }: { refunds: ShopperRefund[] }) {
  if (refunds.length === 0) return null;
  return (
    <ul className="order-refunds" aria-label="Refunds">
      {refunds.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: refunds have no id here; the server's order is fixed (oldest first).
        <li key={i}>{refundLine(r)}</li>
      ))}
    </ul>
  );
}

/** An order's Cancel on its row (`OrderCancel.tsx`), judged from the row's own facts. */
function RowCancel(props: {
  group: OrderGroup | undefined;
  requests: readonly RequestRow[];
  onCancelled(): void;
}) {
  const o = props.group;
  const first = o?.lines[0];
  if (!o || !first) return null;
  return (
    <OrderCancel
      compact
      order={{
        orderID: o.orderID,
        status: first.status,
        orderDate: o.orderDate,
        deliveryDate: first.deliveryDate,
        deliverySlot: first.deliverySlot,
        paymentMethod: first.paymentMethod,
        totalAmount: o.totalAmount,
      }}
      request={props.requests.find((r) => r.orderID === o.orderID) ?? null}
      onCancelled={props.onCancelled}
    />
  );
}

const TITLE = 'Your Orders';

export default function MyOrders() {
  useTitle(TITLE);
  const session = useSession();
  const notify = useNotify();
  const userId = session?.userId ?? 0;
  const email = session?.email ?? '';
  const kept = useLiveQuery(() => keptOrderHistory(userId), [userId]);
  // Refreshed on every visit, then polled with its ETag while open (live-refresh.ts), so an
  // admin's move shows within seconds without a reload.
  const refresh = useCallback(
    () => (userId && email ? refreshOrderHistory(userId, email) : Promise.resolve()),
    [userId, email],
  );
  // Said once per visit: a poll failing every 5 s must not fill the alert region.
  const told = useRef(false);
  const { offline, asked } = useLiveRefresh(userId && email ? refresh : null, (err) => {
    if (told.current) return;
    told.current = true;
    // The spec: the server's message on failure; a fetch that never got an answer is only logged.
    if (err instanceof ApiError && err.envelope) notify(err.message, 'error');
    else console.error('Order history could not be fetched', err);
  });

  const rows = kept?.rows ?? [];
  // Undefined until the kept history answers (QueuedOrders waits for it before showing sent orders).
  const knownOrderIds = useMemo(
    () => (kept === undefined ? undefined : new Set(rows.map((r) => r.orderID))),
    [kept, rows],
  );
  const orders = useMemo(() => groups(rows), [rows]);
  // Cancels asked for offline and not yet answered (the request queue), by order.
  const requests = useLiveQuery(() => accountRequests(db, userId), [userId]) ?? [];

  return (
    <div className="page account account--wide orders">
      <h1>{TITLE}</h1>
      {userId > 0 && <QueuedOrders userId={userId} knownOrderIds={knownOrderIds} />}
      {kept && (
        <p className="orders__fetched" data-testid="orders-fetched">
          {offline
            ? accountMessages.ordersOffline(formatDate(kept.fetchedAt))
            : accountMessages.ordersFetchedAt(formatDate(kept.fetchedAt))}
        </p>
      )}
      {kept === null && offline && <p className="orders__fetched">{accountMessages.ordersNotOnDevice}</p>}
      {kept && rows.length === 0 && <p className="empty">{messages.noOrdersFound}</p>}
      {kept === null && asked && !offline && <p className="empty">{messages.noOrdersFound}</p>}
      {rows.length > 0 && (
        <>
          <div className="orders__table-wrap">
            <table className="orders__table">
              <caption className="visually-hidden">Your orders, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Order ID</th>
                  <th scope="col">Product Name</th>
                  <th scope="col">Image</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Total Amount</th>
                  <th scope="col">Order Date</th>
                  <th scope="col">Status</th>
                  <th scope="col">Delivery</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a history line has no id of its own; the answer's order is fixed.
                  <tr key={`${r.orderID}-${i}`}>
                    <td>
                      <Link
                        to={`/my-orders/${r.orderID}`}
                        aria-label={`Order ${r.orderID}: details and progress`}
                      >
                        {r.orderID}
                      </Link>
                    </td>
                    <td>
                      <OrderLineText line={historyLine(r)} />
                    </td>
                    <td>
                      <ProductImage
                        src={r.productImage}
                        alt=""
                        className="orders__img"
                        width={56}
                        height={56}
                      />
                    </td>
                    <td>{r.quantity}</td>
                    <td>
                      {formatRupees(r.totalAmount)}
                      {/* Every row of an order carries its refunds: said once, on its first row. */}
                      {rows[i - 1]?.orderID !== r.orderID ? <Refunds refunds={historyRefunds(r)} /> : null}
                    </td>
                    <td>{formatDate(r.orderDate)}</td>
                    <td>
                      <span className={`orders__status orders__status--${r.status.replace(/\s+/g, '-')}`}>
                        {statusLabel(r.status)}
                      </span>
                      {rows[i - 1]?.orderID !== r.orderID ? (
                        <RowCancel
                          group={orders.find((o) => o.orderID === r.orderID)}
                          requests={requests}
                          onCancelled={() => void refresh()}
                        />
                      ) : null}
                    </td>
                    <td>
                      {deliveryText(r)}
                      {/* Every row of an order says where it goes: said once, on its first row. */}
                      {r.deliverTo && rows[i - 1]?.orderID !== r.orderID ? (
                        <DeliverTo to={r.deliverTo} />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ol className="orders__list">
            {orders.map((o) => (
              <li key={o.orderID} className="orders__card">
                <h2 className="orders__card-title">
                  <Link to={`/my-orders/${o.orderID}`}>Order #{o.orderID}</Link>{' '}
                  <span className={`orders__status orders__status--${o.status.replace(/\s+/g, '-')}`}>
                    {statusLabel(o.status)}
                  </span>
                </h2>
                <p className="orders__meta">
                  {formatDate(o.orderDate)} · Total {formatRupees(o.totalAmount)} ·{' '}
                  {paymentMethodLabel(o.paymentMethod)}
                </p>
                <p className="orders__meta">Delivery: {o.delivery}</p>
                {o.deliverTo ? (
                  <p className="orders__meta">
                    Deliver to: <DeliverTo to={o.deliverTo} />
                  </p>
                ) : null}
                <Refunds refunds={o.refunds} />
                <OrderLineList lines={o.lines.map(historyLine)} />
                <RowCancel group={o} requests={requests} onCancelled={() => void refresh()} />
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
