/** The local stand-in for Razorpay Checkout, for a shop without keys that runs with TEST_PAYMENTS=true. */
import { useEffect, useRef, useState } from 'react';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { onlineMethodsShown } from '../../domain/payment-methods.js';
import { type ProviderOrder, paymentsContract } from '../../domain/payments.contract.js';
import { call } from '../api/client.js';
import type { CheckoutOptions, PaymentResult } from './razorpay.js';

export interface StandInProps {
  order: ProviderOrder;
  /** The options Razorpay Checkout would be opened with: the stand-in offers what they let it. */
  options: CheckoutOptions;
  done(r: PaymentResult): void;
}

/**
 * The stand-in's dialog (the provider `test`), open from its first render: the same flow as
 * `payWithRazorpay`, paid through `/api/payments/test/pay`; `done` gets the same `PaymentResult`.
 * It lists the ways to pay that the same Checkout options leave (UPI by app or QR, no UPI ID).
 */
export function RazorpayStandIn({ order, options, done }: StandInProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [paying, setPaying] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
  }, []);
  const pay = async () => {
    setPaying(true);
    try {
      const answer = await call(paymentsContract.testPay, {
        body: { razorpay_order_id: order.razorpayOrderId },
      });
      if (!answer.data) throw new Error(messages.orderFailed);
      done({ kind: 'paid', proof: answer.data });
    } catch (err) {
      done({ kind: 'failed', reason: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <dialog
      ref={ref}
      className="co-dialog"
      aria-labelledby="co-pay-title"
      onCancel={(e) => {
        e.preventDefault();
        done({ kind: 'dismissed' });
      }}
    >
      <h2 id="co-pay-title">{t.payTitle}</h2>
      <p>{t.paymentDescription}</p>
      <p className="co-hint">{t.payStandInNote}</p>
      <ul className="co-pay-methods" aria-label={t.payMethodsLabel}>
        {onlineMethodsShown(options.config.display).map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
      <div className="co-actions">
        <button type="button" className="btn btn--primary" disabled={paying} onClick={() => void pay()}>
          {t.payButton(formatRupees(order.totalAmount))}
        </button>
        <button
          type="button"
          className="btn btn--outline"
          disabled={paying}
          onClick={() => done({ kind: 'dismissed' })}
        >
          {t.payCancel}
        </button>
      </div>
    </dialog>
  );
}
