/**
 * The top bar's bell: real orders placed since this admin last opened it (the time is kept on this
 * device), looked at every minute while the tab is visible and at once when the open orders list
 * or dashboard hears of new orders (AdminLiveOrders.tsx).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import { NEW_ORDERS_EVENT } from '../../domain/admin-live.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { formatRupees } from '../../domain/money.js';
import { useAdminQuery } from './connection.js';
import { Dropdown } from './Dropdown.js';

const SEEN_KEY = 'adminOrdersSeenAt';
const POLL_MS = 60_000;

export function Notifications() {
  const [since, setSince] = useState(() => globalThis.localStorage?.getItem(SEEN_KEY) ?? '');
  const [open, setOpen] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const look = () => setTick((n) => n + 1);
    // Not while the tab is hidden; at once when a live screen heard of new orders.
    const t = setInterval(() => document.visibilityState !== 'hidden' && look(), POLL_MS);
    window.addEventListener(NEW_ORDERS_EVENT, look);
    return () => {
      clearInterval(t);
      window.removeEventListener(NEW_ORDERS_EVENT, look);
    };
  }, []);
  const result = useAdminQuery(adminApi.notifications, { query: since ? { since } : {} }, `${since}:${tick}`);
  const data = result.data;
  const count = data?.count ?? 0;
  const markSeen = useCallback(() => {
    if (!data) return;
    const at = String(data.now);
    globalThis.localStorage?.setItem(SEEN_KEY, at);
    setSince(at);
  }, [data]);
  return (
    <Dropdown
      label={
        <>
          <span aria-hidden="true" className="admin-bell" />
          <span className="visually-hidden">Notifications: {adminMessages.newOrders(count)}</span>
          {count > 0 && (
            <span className="admin-badge" aria-hidden="true">
              {count > 99 ? '99+' : count}
            </span>
          )}
        </>
      }
      open={open}
      setOpen={(o) => {
        if (!o && open) markSeen();
        setOpen(o);
      }}
      id="admin-notifications"
    >
      <h2 className="admin-drop__title">{adminMessages.newOrders(count)}</h2>
      {data && data.orders.length === 0 && <p className="muted">{adminMessages.noNotifications}</p>}
      <ul>
        {data?.orders.map((o) => (
          <li key={o.orderID}>
            <Link to={`/admin-orders/${o.orderID}`} onClick={() => setOpen(false)}>
              Order #{o.orderID} from {o.customerName}, {formatRupees(o.totalAmount)}
            </Link>
          </li>
        ))}
      </ul>
      {count > 0 && (
        <button
          type="button"
          className="btn btn--link"
          onClick={() => {
            markSeen();
            setOpen(false);
          }}
        >
          Mark all as seen
        </button>
      )}
    </Dropdown>
  );
}
