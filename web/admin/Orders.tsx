import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import type { AdminOrderSummary } from '../../domain/admin-answers.js';
import { liveMessages } from '../../domain/admin-live.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { DEFAULT_PAGE_SIZE, EXPORT_PAGE_SIZE, type Paged } from '../../domain/admin-queries.js';
import type { PackingSlip as Slip } from '../../domain/gifts.contract.js';
import { formatCalendarDay, formatOrderDate } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { ordersCsv } from '../../domain/orders-csv.js';
import { PAYMENT_METHODS, paymentMethodLabel } from '../../domain/payment-methods.js';
import { slotsApi } from '../../domain/slots.contract.js';
import { windowLabel } from '../../domain/slots.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { LiveOrdersBar, useLiveOrders, useRowInPlace } from './AdminLiveOrders.js';
import { CancelUnpaid } from './CancelUnpaid.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { PackingSlip } from './PackingSlip.js';
import { Pager, Screen } from './ui.js';

/**
 * All User Orders: the spec's table (Loading orders..., the error banner, No orders found) with
 * the columns a day of packing needs (delivery date and slot, who receives it, the lines with
 * their sizes, the total), filters in the URL, search, pages, status moves, a CSV export of what
 * the filters select, and the day's packing slips: one request for the slips of the filters, in
 * the packing order, printed one to a page with nothing of the screen around them.
 */
export default function Orders() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const q = params.get('q') ?? '';
  const deliveryDate = params.get('deliveryDate') ?? '';
  const slotId = params.get('slotId') ?? '';
  const sort = params.get('sort') === 'slot' ? 'slot' : '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  const [exporting, setExporting] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [slips, setSlips] = useState<Slip[] | null>(null);
  const slotList = useAdminQuery(slotsApi.adminList, {}, 'slots');
  const notify = useNotify();
  const adminCall = useAdminCall();
  const confirm = useConfirm();
  useEffect(() => setText(q), [q]);

  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  const filters = {
    ...(status ? { status: status as OrderStatus } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(q ? { q } : {}),
    ...(deliveryDate ? { deliveryDate } : {}),
    ...(slotId ? { slotId } : {}),
  };
  const query = {
    ...filters,
    ...(sort ? { sort: 'slot' as const } : {}),
    page: String(page),
    pageSize: String(DEFAULT_PAGE_SIZE),
  };
  const list = useAdminQuery(adminApi.orders, { query }, JSON.stringify(query));
  const selection = JSON.stringify(filters);
  // New orders and others' moves show within seconds, the row being read kept in its place.
  const hold = useRowInPlace(list.data);
  const live = useLiveOrders(() => {
    hold();
    list.reload();
  });

  const move = async (o: AdminOrderSummary, next: OrderStatus) => {
    // Cancelling an order paid online refunds what is left of it: the question and its yes say so.
    const left = o.totalAmount - (o.refunded ?? 0);
    const paidOnline = o.paymentMethod === PAYMENT_METHODS.online && left > 0;
    const words =
      next === 'cancelled'
        ? adminMessages.cancelDialog(o.orderID, paidOnline ? { left, paid: o.totalAmount } : null)
        : { question: adminMessages.statusMoveConfirm(o.orderID, next), yes: 'Move', keep: undefined };
    if (!(await confirm(words.question, words.yes, words.keep))) return;
    try {
      await adminCall(adminApi.moveOrder, { params: { id: o.orderID }, body: { status: next } });
      notify(adminMessages.statusMoved(o.orderID, next), 'success');
      list.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  // Slips printed for one selection are not another's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new selection is the trigger.
  useEffect(() => setSlips(null), [selection]);

  // The slips are on the page (hidden on screen) before the print dialog opens, and leave once it closes.
  useEffect(() => {
    if (!slips) return;
    const done = () => setSlips(null);
    globalThis.addEventListener('afterprint', done, { once: true });
    globalThis.print();
    return () => globalThis.removeEventListener('afterprint', done);
  }, [slips]);

  const printSlips = async () => {
    setPrinting(true);
    try {
      setSlips(
        await everyPage((p) =>
          adminCall(adminApi.packingSlips, {
            query: { ...filters, page: String(p), pageSize: String(EXPORT_PAGE_SIZE) },
          }),
        ),
      );
    } catch (err) {
      notify(serverMessageOr(err, messages.ordersFetchError), 'error');
    } finally {
      setPrinting(false);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await everyPage((p) =>
        adminCall(adminApi.orders, {
          query: { ...filters, page: String(p), pageSize: String(EXPORT_PAGE_SIZE) },
        }),
      );
      const csv = ordersCsv(all, { origin: globalThis.location.origin });
      const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `orders-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notify(adminMessages.exportReady(all.length), 'success');
    } catch (err) {
      notify(serverMessageOr(err, messages.ordersFetchError), 'error');
    } finally {
      setExporting(false);
    }
  };

  const search = (e: FormEvent) => {
    e.preventDefault();
    set({ q: text.trim() });
  };
  const failed = list.error ? (list.offline ? messages.ordersFetchError : messages.ordersFetchFailed) : null;

  return (
    <Screen
      title="All User Orders"
      actions={
        <>
          <button type="button" className="btn" onClick={printSlips} disabled={printing || !list.data?.slips}>
            {printing ? 'Preparing slips...' : adminMessages.printSlips(list.data?.slips)}
          </button>
          <button type="button" className="btn" onClick={exportCsv} disabled={exporting || !list.data?.total}>
            {exporting ? 'Exporting...' : 'Export CSV'}
          </button>
        </>
      }
    >
      <LiveOrdersBar live={live} />
      <form className="admin-filters" onSubmit={search}>
        <label className="admin-field">
          <span>Status</span>
          <select value={status} onChange={(e) => set({ status: e.target.value })}>
            <option value="">Every status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          <span>From</span>
          <input
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => set({ from: e.target.value })}
          />
        </label>
        <label className="admin-field">
          <span>To</span>
          <input
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => set({ to: e.target.value })}
          />
        </label>
        <label className="admin-field">
          <span>Delivery date</span>
          <input type="date" value={deliveryDate} onChange={(e) => set({ deliveryDate: e.target.value })} />
        </label>
        <label className="admin-field">
          <span>Delivery slot</span>
          <select value={slotId} onChange={(e) => set({ slotId: e.target.value })}>
            <option value="">Every slot</option>
            {(slotList.data?.slots ?? []).map((slot) => (
              <option key={slot.slotID} value={String(slot.slotID)}>
                {slot.name} ({windowLabel(slot)}){slot.retired ? ', retired' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          <span>Order</span>
          <select value={sort} onChange={(e) => set({ sort: e.target.value })}>
            <option value="">Newest first</option>
            <option value="slot">Delivery date and slot (packing)</option>
          </select>
        </label>
        <label className="admin-field">
          <span>Order ID, email or phone</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" className="btn btn--primary">
          Search
        </button>
      </form>
      {failed && (
        <div className="admin-banner admin-banner--error" role="alert">
          {failed}{' '}
          <button type="button" className="btn btn--link" onClick={list.reload}>
            Try again
          </button>
        </div>
      )}
      {list.loading && !list.data && (
        <p className="admin-loading" role="status">
          {messages.loadingOrders}
        </p>
      )}
      {list.data && (
        <>
          {list.data.account && (
            <div className="admin-account-note">
              <CancelUnpaid account={list.data.account} onCancelled={list.reload} />
            </div>
          )}
          <div className="admin-table-wrap" aria-busy={list.loading}>
            <table className="admin-table admin-table--cards admin-orders">
              <thead>
                <tr>
                  <th scope="col">Order ID</th>
                  <th scope="col">Delivery</th>
                  <th scope="col">Deliver to</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Items</th>
                  <th scope="col">Total Amount (INR)</th>
                  <th scope="col">Next step</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.length === 0 && (
                  <tr>
                    <td colSpan={7} className="empty">
                      {messages.noOrdersFound}
                    </td>
                  </tr>
                )}
                {list.data.items.map((o) => (
                  <OrderRow key={o.orderID} order={o} onMove={move} fresh={live.fresh.has(o.orderID)} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Order"
            page={list.data.page}
            pageSize={list.data.pageSize}
            total={list.data.total}
            onPage={(n) => set({ page: String(n) })}
          />
        </>
      )}
      {slips ? (
        <div className="admin-slips" data-testid="packing-slips">
          {slips.map((slip) => (
            <PackingSlip key={slip.orderID} slip={slip} sheet />
          ))}
        </div>
      ) : null}
    </Screen>
  );
}

/** Every page of a paged answer, in order (the export's and the slips' largest pages). */
async function everyPage<T>(fetchPage: (page: number) => Promise<{ data: Paged<T> | null }>): Promise<T[]> {
  const all: T[] = [];
  for (let p = 1; ; p++) {
    const { data } = await fetchPage(p);
    if (!data) break;
    all.push(...data.items);
    if (all.length >= data.total || !data.items.length) break;
  }
  return all;
}

/**
 * One order as the packer reads it: when, to whom (the recipient of a gift, else the buyer),
 * what with its size, and the total; the buyer's contact in one column (the account's email
 * only where it differs from the one on the order).
 */
function OrderRow({
  order: o,
  onMove,
  fresh,
}: {
  order: AdminOrderSummary;
  onMove(o: AdminOrderSummary, next: OrderStatus): void;
  /** Came in while the list was open. */
  fresh: boolean;
}) {
  const to = o.recipient ?? { name: o.customerName, phone: o.customerPhone };
  return (
    <tr data-live-row={o.orderID} className={fresh ? 'admin-live-row--new' : undefined}>
      <td data-label="Order ID">
        <span>
          <Link to={`/admin-orders/${o.orderID}`} aria-label={`Order ${o.orderID}`}>
            #{o.orderID}
          </Link>{' '}
          <span
            className={`admin-status admin-status--${o.status.replace(/ /g, '-')}`}
            data-testid={`status-${o.orderID}`}
          >
            {o.status}
          </span>
          {fresh ? <span className="admin-live-new">{liveMessages.newTag}</span> : null}
          <span className="admin-orders__note">{formatOrderDate(o.orderDate)}</span>
        </span>
      </td>
      <td data-label="Delivery">
        <span>
          <strong>{formatCalendarDay(o.deliveryDate)}</strong>
          {o.deliverySlot ? (
            <span className="admin-orders__note">
              {o.deliverySlot.name} ({windowLabel(o.deliverySlot)})
              {o.slotCharge ? `, ${formatRupees(o.slotCharge)}` : ''}
            </span>
          ) : null}
        </span>
      </td>
      <td data-label="Deliver to">
        <span>
          <strong>{to.name}</strong>
          {o.recipient ? <span className="admin-orders__note">Gift from {o.customerName}</span> : null}
          <span className="admin-orders__note">{to.phone}</span>
          <span className="admin-orders__note">
            {o.city} {o.pincode}
          </span>
        </span>
      </td>
      <td data-label="Customer">
        <span>
          <span className="admin-orders__email">{o.customerEmail}</span>
          {o.userEmail.toLowerCase() !== o.customerEmail.toLowerCase() ? (
            <span className="admin-orders__note admin-orders__email">Account: {o.userEmail}</span>
          ) : null}
          {o.recipient ? <span className="admin-orders__note">{o.customerPhone}</span> : null}
        </span>
      </td>
      <td data-label="Items">
        <ul className="admin-orders__items">
          {o.items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines keep their order.
            <li key={i}>
              {item.productImage ? (
                <img src={item.productImage} alt="" width={32} height={32} loading="lazy" />
              ) : null}
              <span>
                {item.quantity} x {item.productName}
              </span>
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Total Amount (INR)">
        <span>
          <strong>{formatRupees(o.totalAmount)}</strong>
          <span className="admin-orders__note">{paymentMethodLabel(o.paymentMethod)}</span>
        </span>
      </td>
      <td data-label="Next step">
        <div className="admin-moves">
          {o.nextStatuses.map((s) => (
            <button
              key={s}
              type="button"
              className={`btn ${s === 'cancelled' ? 'admin-danger' : ''}`}
              onClick={() => onMove(o, s)}
              aria-label={`Move order ${o.orderID} to ${s}`}
            >
              {s}
            </button>
          ))}
          {o.nextStatuses.length === 0 && <span className="muted">final</span>}
        </div>
      </td>
    </tr>
  );
}
