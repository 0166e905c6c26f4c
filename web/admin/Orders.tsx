import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import {
  type AdminOrderSummary,
  DEFAULT_PAGE_SIZE,
  EXPORT_PAGE_SIZE,
  formatOrderDate,
  ordersCsv,
} from '../../domain/admin.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { slotsApi } from '../../domain/slots.contract.js';
import { formatCalendarDay, windowLabel } from '../../domain/slots.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { Pager, Screen } from './ui.js';

/**
 * All User Orders: the spec's table (Loading orders..., the error banner, its
 * columns, No orders found), with filters, search, pages, status moves and a
 * CSV export of what the filters select. Filters live in the URL. Delivery
 * date and slot filters (issue 25) and the packing order (by the slot's window)
 * serve the day's packing: "Print packing slips" prints one slip per order of
 * the filters, in slot order.
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
  const [slips, setSlips] = useState<AdminOrderSummary[] | null>(null);
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
    ...(sort ? { sort: 'slot' as const } : {}),
  };
  const query = { ...filters, page: String(page), pageSize: String(DEFAULT_PAGE_SIZE) };
  const list = useAdminQuery(adminApi.orders, { query }, JSON.stringify(query));

  const move = async (o: AdminOrderSummary, next: OrderStatus) => {
    if (!(await confirm(adminMessages.statusMoveConfirm(o.orderID, next), 'Move'))) return;
    try {
      await adminCall(adminApi.moveOrder, { params: { id: o.orderID }, body: { status: next } });
      notify(adminMessages.statusMoved(o.orderID, next), 'success');
      list.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  /** Every order the filters select, page by page (the export's largest pages). */
  const everyOrder = async (extra: { sort?: 'slot' } = {}) => {
    const all: AdminOrderSummary[] = [];
    for (let p = 1; ; p++) {
      const res = await adminCall(adminApi.orders, {
        query: { ...filters, ...extra, page: String(p), pageSize: String(EXPORT_PAGE_SIZE) },
      });
      const data = res.data;
      if (!data) break;
      all.push(...data.items);
      if (all.length >= data.total || !data.items.length) break;
    }
    return all;
  };

  // The slips are on the page before the print dialog opens; they leave once it closes.
  useEffect(() => {
    if (!slips) return;
    globalThis.print();
    setSlips(null);
  }, [slips]);

  const printSlips = async () => {
    try {
      setSlips(await everyOrder({ sort: 'slot' }));
    } catch (err) {
      notify(serverMessageOr(err, messages.ordersFetchError), 'error');
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await everyOrder();
      const blob = new Blob([ordersCsv(all)], { type: 'text/csv;charset=utf-8' });
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
          <button type="button" className="btn" onClick={printSlips} disabled={!list.data?.total}>
            Print packing slips
          </button>
          <button type="button" className="btn" onClick={exportCsv} disabled={exporting || !list.data?.total}>
            {exporting ? 'Exporting...' : 'Export CSV'}
          </button>
        </>
      }
    >
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
          <div className="admin-table-wrap" aria-busy={list.loading}>
            <table className="admin-table admin-table--cards admin-orders">
              <thead>
                <tr>
                  <th scope="col">Order ID</th>
                  <th scope="col">Status</th>
                  <th scope="col">User Email</th>
                  <th scope="col">Customer Email</th>
                  <th scope="col">Customer Phone</th>
                  <th scope="col">Customer Address</th>
                  <th scope="col">Product</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Image</th>
                  <th scope="col">Total Amount (INR)</th>
                  <th scope="col">Order Date</th>
                  <th scope="col">Delivery</th>
                  <th scope="col">Next step</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.length === 0 && (
                  <tr>
                    <td colSpan={13} className="empty">
                      {messages.noOrdersFound}
                    </td>
                  </tr>
                )}
                {list.data.items.map((o) => {
                  const pictures = o.items.map((i) => i.productImage).filter(Boolean);
                  return (
                    <tr key={o.orderID}>
                      <td data-label="Order ID">
                        <Link to={`/admin-orders/${o.orderID}`} aria-label={`Order ${o.orderID}`}>
                          #{o.orderID}
                        </Link>
                      </td>
                      <td data-label="Status">
                        <span
                          className={`admin-status admin-status--${o.status.replace(/ /g, '-')}`}
                          data-testid={`status-${o.orderID}`}
                        >
                          {o.status}
                        </span>
                      </td>
                      <td data-label="User Email">{o.userEmail}</td>
                      <td data-label="Customer Email">{o.customerEmail}</td>
                      <td data-label="Customer Phone">{o.customerPhone}</td>
                      <td data-label="Customer Address">{o.customerAddress}</td>
                      <td data-label="Product">{o.items.map((i) => i.productName).join(', ')}</td>
                      <td data-label="Quantity">{o.items.reduce((n, i) => n + i.quantity, 0)}</td>
                      <td data-label="Image">
                        {pictures.length ? (
                          <div className="admin-thumbs">
                            {o.items
                              .filter((item) => item.productImage)
                              .map((item) => (
                                <img
                                  key={`${item.productName}-${item.productImage}`}
                                  src={item.productImage}
                                  alt={item.productName}
                                  width={40}
                                  height={40}
                                  loading="lazy"
                                />
                              ))}
                          </div>
                        ) : (
                          'No Image Available'
                        )}
                      </td>
                      <td data-label="Total Amount (INR)">{formatRupees(o.totalAmount)}</td>
                      <td data-label="Order Date">{formatOrderDate(o.orderDate)}</td>
                      <td data-label="Delivery">
                        {formatCalendarDay(o.deliveryDate)}
                        {o.deliverySlot ? `, ${o.deliverySlot.name} (${windowLabel(o.deliverySlot)})` : ''}
                        {o.slotCharge ? `, ${formatRupees(o.slotCharge)}` : ''}
                      </td>
                      <td data-label="Next step">
                        <div className="admin-moves">
                          {o.nextStatuses.map((s) => (
                            <button
                              key={s}
                              type="button"
                              className={`btn ${s === 'cancelled' ? 'admin-danger' : ''}`}
                              onClick={() => move(o, s)}
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
                })}
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
      {slips ? <PackingSlips orders={slips} /> : null}
    </Screen>
  );
}

/** One slip per order, in the order given (slot order): what to pack, for whom, when. Shown only in print. */
function PackingSlips({ orders }: { orders: AdminOrderSummary[] }) {
  return (
    <div className="admin-slips">
      {orders.map((o) => (
        <section
          key={o.orderID}
          className="admin-slip admin-slip--sheet"
          aria-label={`Packing slip ${o.orderID}`}
        >
          <h2>Packing slip: order #{o.orderID}</h2>
          <p>
            <strong>
              {formatCalendarDay(o.deliveryDate)}
              {o.deliverySlot ? `, ${o.deliverySlot.name} ${windowLabel(o.deliverySlot)}` : ''}
            </strong>
          </p>
          <p>
            {o.customerName}, {o.customerPhone}
            <br />
            {o.customerAddress}
          </p>
          <ul>
            {o.items.map((i) => (
              <li key={`${i.productName}-${i.quantity}`}>
                {i.quantity} x {i.productName}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
