/**
 * The payments in progress that `payment-resume.ts` found, as a card per payment pinned to the
 * bottom of whatever screen the shop opened on (a root of its own, since the resume runs apart from
 * the screens; loaded only when there is something to show). Placed: the order and a way to it.
 * Open: Pay again (the checkout opens Checkout with the same provider order), or Back to cart. Being confirmed: said, never
 * "failed". Refunded: why, and that the full amount goes back.
 */
import { useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { paymentResumeMessages as t } from '../../domain/checkout-messages.js';
import { formatRupees } from '../../domain/money.js';
import { unplacedMessages } from '../../domain/refunds.js';
import type { PaymentFound as Found } from '../../sw/outbox-row.js';
import { usePwaState } from '../pwa/pwa-state.js';
import './checkout.css';
import './payment-resume.css';

/** What the resume gives the notice: what to show, and the moves that change it. */
export interface ResumeApi {
  shownPayments(): Found[];
  subscribeShown(listener: () => void): () => void;
  /** Closed by the shopper. */
  forget(key: string): void;
  /** A payment not made dropped: its lines stay in the cart. */
  backToCart(key: string): Promise<void>;
}

let mounted = false;

export function mountPaymentNotice(api: ResumeApi): void {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(<PaymentNotices api={api} />);
}

/**
 * A move within the shop's router from outside its tree: the data router follows the history on
 * `popstate`, as after Back, so the screen changes without loading the page again.
 */
function goTo(url: string): void {
  window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function PaymentNotices({ api }: { api: ResumeApi }) {
  const found = useSyncExternalStore(api.subscribeShown, api.shownPayments);
  const { offline } = usePwaState();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const cards = found.filter((f) => !hidden.has(f.row.key));
  if (!cards.length) return null;
  return (
    <section className="pay-resume" aria-label={t.region}>
      {cards.map((f) => (
        <PaymentCard
          key={f.row.key}
          found={f}
          offline={offline}
          // The checkout opens Checkout again with the same provider order (`useOnlinePayment`).
          onPayAgain={() => goTo(`/checkout?pay=${encodeURIComponent(f.row.key)}`)}
          onBackToCart={() => void api.backToCart(f.row.key).then(() => goTo('/cart'))}
          onClose={() => api.forget(f.row.key)}
          onHide={() => setHidden((h) => new Set([...h, f.row.key]))}
          onViewOrder={() => {
            api.forget(f.row.key);
            goTo(`/order-success?order=${encodeURIComponent(f.row.key)}`);
          }}
        />
      ))}
    </section>
  );
}

function PaymentCard({
  found: { row, on },
  offline,
  onPayAgain,
  onBackToCart,
  onClose,
  onHide,
  onViewOrder,
}: {
  found: Found;
  offline: boolean;
  onPayAgain(): void;
  onBackToCart(): void;
  onClose(): void;
  onHide(): void;
  onViewOrder(): void;
}) {
  const amount = formatRupees(row.providerOrder.totalAmount);
  const id = `pay-resume-${row.key}`;
  if (on.kind === 'placed')
    return (
      <article className="pay-resume__card pay-resume__card--placed" aria-labelledby={id}>
        <h2 id={id}>{t.placedTitle(on.order.orderID)}</h2>
        <p>{t.placed(formatRupees(on.order.totalAmount))}</p>
        <div className="co-actions">
          <a
            className="btn btn--primary btn--small"
            href={`/order-success?order=${encodeURIComponent(row.key)}`}
            onClick={(e) => {
              e.preventDefault();
              onViewOrder();
            }}
          >
            {t.viewOrder}
          </a>
          <button type="button" className="btn btn--outline btn--small" onClick={onClose}>
            {t.close}
          </button>
        </div>
      </article>
    );
  if (on.kind === 'refunded')
    return (
      <article className="pay-resume__card pay-resume__card--refunded" aria-labelledby={id}>
        <h2 id={id}>{t.refundedTitle}</h2>
        <p>{unplacedMessages.reason(on.reason)}</p>
        <div className="co-actions">
          <button type="button" className="btn btn--outline btn--small" onClick={onClose}>
            {t.close}
          </button>
        </div>
      </article>
    );
  if (on.kind === 'open')
    return (
      <article className="pay-resume__card" aria-labelledby={id}>
        <h2 id={id}>{t.openTitle}</h2>
        <p>{t.open(amount)}</p>
        <div className="co-actions">
          <button
            type="button"
            className="btn btn--primary btn--small"
            onClick={onPayAgain}
            disabled={offline}
          >
            {t.payAgain(amount)}
          </button>
          <a
            className="btn btn--outline btn--small"
            href="/cart"
            onClick={(e) => {
              e.preventDefault();
              onBackToCart();
            }}
          >
            {t.backToCart}
          </a>
        </div>
      </article>
    );
  return (
    <article className="pay-resume__card" aria-labelledby={id}>
      <h2 id={id}>{t.confirmingTitle}</h2>
      <p role="status">{t.confirming(amount)}</p>
      {offline ? <p>{t.confirmingOffline}</p> : null}
      <div className="co-actions">
        <button type="button" className="btn btn--outline btn--small" onClick={onHide}>
          {t.hide}
        </button>
      </div>
    </article>
  );
}
