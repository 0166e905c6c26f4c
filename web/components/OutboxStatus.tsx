/**
 * The outbox in the shell: a header badge while orders wait, and a notice on
 * every screen while one needs the shopper. In the first bundle, so kept to a
 * live count over Dexie, styled by the shell's stylesheet (the checkout's is a
 * lazy chunk); everything else is the checkout's lazy code. Both count
 * the signed-in account's orders only: the phone may be someone else's now.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Link, useLocation } from 'react-router-dom';
import { outboxShellMessages as t } from '../../domain/outbox-messages.js';
import { ownWaitingOrders } from '../../sw/account-data.js';
import { useSession } from '../hooks/useSession.js';

export function OutboxBadge() {
  const userId = useSession()?.userId;
  const waiting = useLiveQuery(async () => (await ownWaitingOrders(userId)).length, [userId]) ?? 0;
  if (!waiting) return null;
  const label = t.badgeLabel(waiting);
  return (
    <Link to="/my-orders" className="outbox-badge" aria-label={label} title={label}>
      <span aria-hidden="true">⇅ {waiting}</span>
    </Link>
  );
}

export function OutboxNotice() {
  const { pathname } = useLocation();
  const userId = useSession()?.userId;
  const keys =
    useLiveQuery(
      async () => (await ownWaitingOrders(userId)).filter((r) => r.state === 'attention').map((r) => r.key),
      [userId],
    ) ?? [];
  // The order's own page shows what to decide; the notice would only repeat it there.
  if (!keys.length || pathname === '/order-success') return null;
  return (
    <div className="outbox-notice" role="status">
      {t.noticeAttention(keys.length)}{' '}
      <Link to={`/order-success?order=${encodeURIComponent(String(keys[0]))}`}>{t.noticeReview}</Link>
    </div>
  );
}
