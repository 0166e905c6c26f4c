import { useState } from 'react';
import { Link } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import { type Dashboard as DashboardData, WAITING_STATUSES } from '../../domain/admin-dashboard.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { backupsApi } from '../../domain/backups.contract.js';
import { agoText } from '../../domain/backups.js';
import { formatCalendarDate, formatCalendarDay, formatOrderDate } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { newsletterApi } from '../../domain/newsletter.contract.js';
import { newsletterMessages } from '../../domain/newsletter.js';
import { windowLabel } from '../../domain/slots.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { LiveOrdersBar, useLiveOrders } from './AdminLiveOrders.js';
import { useAdminQuery } from './connection.js';
import { download } from './download.js';
import GoLiveChecklist from './GoLiveChecklist.js';
import { LoadError, Loading, Screen } from './ui.js';

/** DESIGN.md departure 10: the shop's real figures, from one endpoint computed in SQL. */
export default function Dashboard() {
  const { data, error, loading, reload } = useAdminQuery(adminApi.dashboard, {}, 'dashboard');
  // A new order or another's move shows in the figures within seconds.
  const live = useLiveOrders(reload);
  return (
    <Screen title="Dashboard">
      <LiveOrdersBar live={live} />
      {error && <LoadError text={error} onRetry={reload} />}
      {loading && !data && <Loading />}
      <GoLiveChecklist onRemoved={reload} />
      <LastBackup />
      {data && <Figures data={data} />}
      <Subscribers />
    </Screen>
  );
}

/**
 * "Last backup: 3 hours ago", and the warning when the newest is older than two periods or none
 * exists while scheduled. Its own call: a shop without backups still sees its figures.
 */
function LastBackup() {
  const { data } = useAdminQuery(backupsApi.list, {}, 'backups');
  if (!data) return null;
  const text =
    data.newestAt === null
      ? adminMessages.lastBackupNone
      : adminMessages.lastBackup(agoText(data.newestAt, data.now));
  return (
    <>
      {data.warning && (
        <div className="admin-banner admin-banner--warn" role="status" data-testid="backup-warning">
          <span>{data.warning}</span> <Link to="/backups">See backups</Link>
        </div>
      )}
      <p className="admin-backup-line">
        <Link to="/backups" data-testid="last-backup">
          {text}
        </Link>
      </p>
    </>
  );
}

/**
 * The mailing list (api/newsletter/README.md): who confirmed, who has not yet, and the list as
 * CSV for the mail tool the shop writes with. Its own call, like the last backup's line.
 */
function Subscribers() {
  const { data, error } = useAdminQuery(newsletterApi.counts, {}, 'newsletter');
  const notify = useNotify();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const blob = await download(newsletterApi.export, undefined);
      // The header and the final line break are not subscribers.
      const rows = (await blob.text()).split('\r\n').length - 2;
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `subscribers-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      notify(newsletterMessages.exportReady(rows), 'success');
    } catch (err) {
      notify(serverMessageOr(err, adminMessages.loadFailed), 'error');
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="admin-panel" aria-labelledby="subscribers-title">
      <h2 id="subscribers-title">Newsletter subscribers</h2>
      {error && <p className="admin-error">{error}</p>}
      {data && (
        <p data-testid="subscribers">
          <strong className="admin-card__value">{data.confirmed}</strong> subscribed
          {data.pending > 0 && <span className="muted">, {data.pending} waiting to confirm</span>}
        </p>
      )}
      <button type="button" className="btn" onClick={() => void save()} disabled={saving || !data}>
        {saving ? 'Exporting…' : 'Export subscribers'}
      </button>
    </section>
  );
}

function Figures({ data }: { data: DashboardData }) {
  return (
    <>
      <div className="admin-cards">
        <Card label="Orders today" value={String(data.ordersToday)} testId="orders-today" />
        <Card label="Revenue today" value={formatRupees(data.revenueToday)} testId="revenue-today" />
        <Card label="Orders, last 7 days" value={String(data.orders7)} testId="orders-7" />
        <Card label="Revenue, last 7 days" value={formatRupees(data.revenue7)} testId="revenue-7" />
        <Card label="Orders, last 30 days" value={String(data.orders30)} testId="orders-30" />
        <Card label="Revenue, last 30 days" value={formatRupees(data.revenue30)} testId="revenue-30" />
        <Card label="Products" value={String(data.products)} testId="products" />
        <Card label="Categories" value={String(data.categories)} testId="categories" />
      </div>
      <div className="admin-grid">
        <Money money={data.money} />
        {data.deliveries.map((day, i) => (
          <section key={day.date} className="admin-panel" aria-labelledby={`deliveries-${day.date}`}>
            <h2 id={`deliveries-${day.date}`}>
              {i === 0 ? 'Today' : 'Tomorrow'}'s deliveries, {formatCalendarDay(day.date)}
            </h2>
            {day.closed ? <p className="muted">Closed: {day.closed}</p> : null}
            <table
              className="admin-table admin-deliveries"
              data-testid={`deliveries-${i === 0 ? 'today' : 'tomorrow'}`}
            >
              <thead>
                <tr>
                  <th scope="col">Slot</th>
                  <th scope="col">Booked</th>
                </tr>
              </thead>
              <tbody>
                {day.slots.map((s) => (
                  <tr key={s.slotID} data-testid={`slot-${day.date}-${s.slotID}`}>
                    <td>
                      <Link to={`/all-admin-orders?deliveryDate=${day.date}&slotId=${s.slotID}&sort=slot`}>
                        {s.name}
                      </Link>{' '}
                      <span className="muted">{windowLabel(s)}</span>
                    </td>
                    <td>
                      {s.booked}
                      {s.capacity === null ? '' : ` of ${s.capacity}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <section className="admin-panel" aria-labelledby="waiting-title">
          <h2 id="waiting-title">Waiting for the next step</h2>
          <ul className="admin-waiting">
            {WAITING_STATUSES.map((s) => (
              <li key={s}>
                <Link to={`/all-admin-orders?status=${encodeURIComponent(s)}`}>
                  <span className="admin-waiting__n" data-testid={`waiting-${s}`}>
                    {data.waiting[s]}
                  </span>{' '}
                  {s}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section className="admin-panel" aria-labelledby="chart-title">
          <h2 id="chart-title">Revenue, last 14 days</h2>
          <RevenueChart series={data.series} />
        </section>
        <section className="admin-panel" aria-labelledby="latest-title">
          <h2 id="latest-title">Latest orders</h2>
          {data.latest.length === 0 ? (
            <p className="muted">No orders found.</p>
          ) : (
            <div className="admin-table-wrap">
              <table className="admin-table admin-table--cards">
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Total</th>
                    <th scope="col">Status</th>
                    <th scope="col">Date</th>
                  </tr>
                </thead>
                <tbody>
                  {data.latest.map((o) => (
                    <tr key={o.orderID}>
                      <td data-label="Order">
                        <Link to={`/admin-orders/${o.orderID}`}>#{o.orderID}</Link>
                      </td>
                      <td data-label="Customer">{o.customerName}</td>
                      <td data-label="Total">
                        {formatRupees(o.totalAmount)}
                        {o.couponCode ? (
                          <span className="muted admin-coupon-used">
                            {' '}
                            ({o.couponCode}, {formatRupees(o.discount)} off)
                          </span>
                        ) : null}
                      </td>
                      <td data-label="Status">
                        <span className={`admin-status admin-status--${o.status.replace(/ /g, '-')}`}>
                          {o.status}
                        </span>
                      </td>
                      <td data-label="Date">{formatOrderDate(o.orderDate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section className="admin-panel" aria-labelledby="best-title">
          <h2 id="best-title">Best sellers, last 30 days</h2>
          {data.bestSellers.length === 0 ? (
            <p className="muted">No sales yet.</p>
          ) : (
            <ol className="admin-best">
              {data.bestSellers.map((b) => (
                <li key={b.productID}>
                  <Link to={`/edit-products/${b.productID}`}>{b.productName}</Link>{' '}
                  <span className="muted">
                    {b.quantity} sold, {formatRupees(b.revenue)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}

/**
 * Money kept right (issue 39): a payment without an order must stay 0, so any other count is a
 * warning in words as well as colour, as is a failed refund (money that may still be owed to a shopper).
 */
function Money({ money }: { money: DashboardData['money'] }) {
  return (
    <section className="admin-panel" aria-labelledby="money-title" data-testid="money">
      <h2 id="money-title">{adminMessages.moneyTitle}</h2>
      <dl className="admin-money">
        <MoneyRow
          label={adminMessages.paymentsWithoutOrder}
          value={String(money.paymentsWithoutOrder)}
          warning={money.paymentsWithoutOrder > 0 ? adminMessages.paymentsWithoutOrderWarn : null}
          testId="money-without-order"
        />
        <MoneyRow
          label={adminMessages.refundsPending}
          value={String(money.refundsPending)}
          warning={null}
          testId="money-refunds-pending"
        />
        <MoneyRow
          label={adminMessages.refundsFailed}
          value={String(money.refundsFailed)}
          warning={money.refundsFailed > 0 ? adminMessages.refundsFailedWarn : null}
          testId="money-refunds-failed"
        />
        <MoneyRow
          label={adminMessages.refunds30}
          value={adminMessages.refunds30Value(money.refunds30, money.refunded30)}
          warning={null}
          testId="money-refunds-30"
        />
        <MoneyRow
          label={adminMessages.coupons30}
          value={adminMessages.coupons30Value(money.couponOrders30, money.discount30)}
          warning={null}
          testId="money-coupons-30"
        />
      </dl>
    </section>
  );
}

function MoneyRow({
  label,
  value,
  warning,
  testId,
}: {
  label: string;
  value: string;
  warning: string | null;
  testId: string;
}) {
  return (
    <div className={warning ? 'admin-money__row admin-money__row--warn' : 'admin-money__row'}>
      <dt>{label}</dt>
      <dd>
        <span className="admin-money__value" data-testid={testId}>
          {value}
        </span>
        {warning && (
          <span className="admin-money__warn" data-testid={`${testId}-warning`}>
            {warning}
          </span>
        )}
      </dd>
    </div>
  );
}

function Card({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="admin-card">
      <span className="admin-card__label">{label}</span>
      <span className="admin-card__value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** A small SVG bar chart (no chart library: it would cost more bytes than the whole screen). */
function RevenueChart({ series }: { series: DashboardData['series'] }) {
  const max = Math.max(1, ...series.map((s) => s.revenue));
  const w = 28;
  const gap = 6;
  const h = 120;
  const width = series.length * (w + gap);
  return (
    <figure className="admin-chart">
      <svg viewBox={`0 0 ${width} ${h + 20}`} role="img" aria-labelledby="chart-desc">
        <desc id="chart-desc">
          Revenue per day for the last 14 days; the table below lists the same figures.
        </desc>
        {series.map((s, i) => {
          const bar = Math.round((s.revenue / max) * h);
          return (
            <g key={s.date}>
              <rect
                x={i * (w + gap)}
                y={h - bar}
                width={w}
                height={Math.max(bar, 1)}
                rx="3"
                className="admin-chart__bar"
              >
                <title>
                  {formatCalendarDate(s.date)}: {formatRupees(s.revenue)}, {s.orders} orders
                </title>
              </rect>
              <text x={i * (w + gap) + w / 2} y={h + 14} textAnchor="middle" className="admin-chart__label">
                {s.date.slice(8)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <details>
          <summary>Figures by day</summary>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Orders</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {series.map((s) => (
                <tr key={s.date}>
                  <td>{formatCalendarDate(s.date)}</td>
                  <td>{s.orders}</td>
                  <td>{formatRupees(s.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
