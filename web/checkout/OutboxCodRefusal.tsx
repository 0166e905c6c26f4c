/**
 * A queued Cash on Delivery order the owner's rules now refuse (a limit lowered, COD turned off,
 * while the phone was away: the server's 422 `cod`, domain/cod-rules.ts): the server's reason, and
 * two ways on. Pay online pays for the same order under its own key and sends it (`pay-queued.ts`);
 * Cancel puts the lines back in the cart. Nothing is sent as it is: it would be refused again.
 */
import { type ReactNode, useState } from 'react';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { OutboxRow } from '../../sw/outbox-row.js';
import { useNotify } from '../hooks/useAlerts.js';
import { usePwaState } from '../pwa/pwa-state.js';
import { payQueuedOnline } from './pay-queued.js';
import { RazorpayStandIn } from './razorpay-stand-in.js';
import { useProviderCheckout } from './useProviderCheckout.js';

export function OutboxCodRefusal({ row, cancel }: { row: OutboxRow; cancel: ReactNode }) {
  const notify = useNotify();
  const online = !usePwaState().offline;
  const checkout = useProviderCheckout();
  const [busy, setBusy] = useState(false);
  const payOnline = async () => {
    setBusy(true);
    try {
      const said = await payQueuedOnline(row, checkout.open);
      notify(said.message, said.tone);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{t.codTitle}</h3>
      <p>{row.problem?.message}</p>
      <p>{online ? t.codIntro : t.onlineNeedsNetwork}</p>
      <div className="co-actions">
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={busy || !online}
          aria-busy={busy}
          onClick={() => void payOnline()}
        >
          {busy ? t.paying : t.codPayOnline}
        </button>
        {cancel}
      </div>
      {checkout.standIn ? <RazorpayStandIn {...checkout.standIn} /> : null}
    </section>
  );
}
