/**
 * A queued Cash on Delivery order the owner's rules now refuse (a limit lowered, COD turned off,
 * while the phone was away: the server's 422 `cod`, domain/cod-rules.ts): the server's reason, and
 * two ways on. Pay online puts its lines back in the cart and opens the checkout, where Cash on
 * Delivery is off with the same reason and online payment takes it; Cancel puts the lines back.
 * Nothing is sent as it is: it would be refused again.
 */
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { OutboxRow } from '../../sw/outbox-row.js';
import { cancelOrder } from '../../sw/outbox-shopper.js';

export function OutboxCodRefusal({ row, cancel }: { row: OutboxRow; cancel: ReactNode }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const payOnline = async () => {
    setBusy(true);
    try {
      if (await cancelOrder(row.key)) navigate('/checkout');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{t.codTitle}</h3>
      <p>{row.problem?.message}</p>
      <p>{t.codIntro}</p>
      <div className="co-actions">
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={busy}
          onClick={() => void payOnline()}
        >
          {t.codPayOnline}
        </button>
        {cancel}
      </div>
    </section>
  );
}
