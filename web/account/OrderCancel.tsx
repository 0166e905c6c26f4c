/**
 * The shopper's own Cancel on the order page (`domain/order-cancel.ts` decides, from the device's
 * copy of the order and the shop's settings, so the page says it offline too): Cancel order, then
 * our dialog saying what happens to the money, then the server's answer
 * (`POST /my-orders/{id}/cancel`, which judges by its own clock) kept as the page's copy, so the
 * new state and its refund line show at once. When it can no longer be cancelled there is no
 * button: the page says why and gives the shop's phone. Offline, the cancel waits in the request
 * queue (`sw/requests.ts`) and is sent once the phone is back.
 */
import { useEffect, useRef, useState } from 'react';
import {
  type CancellableOrder,
  cancelContact,
  cancelVerdict,
  closedReason,
  cancelMessages as t,
} from '../../domain/order-cancel.js';
import type { ShopperOrder } from '../../domain/order-tracking.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import { db } from '../../sw/db.js';
import { dismissRequest, type RequestRow } from '../../sw/requests.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useShopSettings } from '../hooks/useDelivery.js';
import { useShopProfile } from '../hooks/useShopProfile.js';
import { cancelOrder } from './order-cancel.js';

/** How often the page judges again while open (a cut-off passing while the shopper reads). */
const TICK_MS = 30_000;

/** What the rule needs of an order, and what the dialog says of its money. */
export type CancelOrderFacts = CancellableOrder &
  Pick<ShopperOrder, 'orderID' | 'paymentMethod' | 'totalAmount'>;

export function OrderCancel({
  order,
  request,
  compact = false,
  onCancelled,
}: {
  order: CancelOrderFacts;
  request: RequestRow | null;
  /** On a list's row: only the button (or that a cancel waits); the order page says why not. */
  compact?: boolean;
  /** Told after the server cancelled it (a list refreshes its copy). */
  onCancelled?(): void;
}) {
  const hours = useShopSettings()?.cancelHoursBeforeSlot;
  const profile = useShopProfile();
  const notify = useNotify();
  const [now, setNow] = useState(Date.now);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (hours === undefined) return null;
  if (request?.problem?.kind === 'refused') {
    const key = request.key;
    return (
      <div className="order-cancel__note" role="status">
        <p>{request.problem.message}</p>
        <button
          type="button"
          className="btn btn--outline btn--small"
          onClick={() => void dismissRequest(db, request.userId, key)}
        >
          {t.understood}
        </button>
      </div>
    );
  }
  if (request)
    return (
      <p className="order-cancel__note" role="status">
        {t.waiting}
      </p>
    );
  const verdict = cancelVerdict(order, hours, now);
  if (verdict.kind === 'cancelled') return null;
  const contact = cancelContact(profile);
  if (verdict.kind === 'closed')
    return compact ? null : (
      <p className="order-cancel__note">
        {closedReason(verdict.why, hours)}{' '}
        {contact && verdict.why !== 'delivered' ? t.callShop(contact) : null}
      </p>
    );
  // An order paid online is only ever placed with its payment, whatever its status now (confirmed within the grace).
  const paid = order.paymentMethod === PAYMENT_METHODS.online;
  const confirm = async () => {
    setBusy(true);
    try {
      const sent = await cancelOrder(order.orderID);
      notify(sent.message, sent.tone);
      if (sent.tone === 'success') onCancelled?.();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <div className="order-cancel">
      <button
        type="button"
        className={`btn btn--outline${compact ? ' btn--small' : ''}`}
        aria-label={compact ? t.buttonFor(order.orderID) : undefined}
        onClick={() => setAsking(true)}
      >
        {t.button}
      </button>
      {asking ? (
        <CancelDialog
          says={paid ? t.paidBack(order.totalAmount) : t.nothingPaid}
          busy={busy}
          onConfirm={() => void confirm()}
          onKeep={() => setAsking(false)}
        />
      ) : null}
    </div>
  );
}

function CancelDialog(props: { says: string; busy: boolean; onConfirm(): void; onKeep(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
  }, []);
  return (
    <dialog
      ref={ref}
      className="co-dialog"
      aria-labelledby="cancel-title"
      aria-describedby="cancel-says"
      onCancel={(e) => {
        e.preventDefault();
        props.onKeep();
      }}
    >
      <h2 id="cancel-title">{t.title}</h2>
      <p id="cancel-says">{props.says}</p>
      <div className="co-actions">
        <button type="button" className="btn btn--primary" disabled={props.busy} onClick={props.onConfirm}>
          {t.confirm}
        </button>
        <button type="button" className="btn btn--outline" disabled={props.busy} onClick={props.onKeep}>
          {t.keep}
        </button>
      </div>
    </dialog>
  );
}
