/** The checkout's payment box: the two methods, each saying why it is off, and a failed payment's way on. */
import type { ReactNode } from 'react';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { useOnlinePayment } from './useOnlinePayment.js';

export function PaymentMethods({
  idPrefix,
  payment,
  codReason,
  offline,
  error,
}: {
  idPrefix: string;
  payment: ReturnType<typeof useOnlinePayment>;
  codReason: string | null;
  offline: boolean;
  error: ReactNode;
}) {
  const { payBy, onlineReady, provider, failure } = payment;
  return (
    <fieldset className="co-payment">
      <legend>{t.paymentLegend}</legend>
      <label className="co-method">
        <input
          type="radio"
          name="method"
          value="cod"
          checked={payBy === 'cod'}
          disabled={codReason !== null}
          aria-describedby={`${idPrefix}-cod-note`}
          onChange={() => payment.choose('cod')}
        />
        <span>
          <strong>{t.cod}</strong>
          <span className="co-hint" id={`${idPrefix}-cod-note`}>
            {codReason ?? t.codNote}
          </span>
        </span>
      </label>
      <label className={`co-method${onlineReady ? '' : ' co-method--off'}`}>
        <input
          type="radio"
          name="method"
          value="online"
          checked={payBy === 'online'}
          disabled={!onlineReady}
          aria-describedby={`${idPrefix}-online-note`}
          onChange={() => payment.choose('online')}
        />
        <span>
          <strong>{t.online}</strong>
          <span className="co-hint" id={`${idPrefix}-online-note`}>
            {offline
              ? t.onlineNeedsNetwork
              : provider === null
                ? t.onlineUnavailable
                : provider === 'test'
                  ? t.onlineTestNote
                  : t.onlineNote}
          </span>
        </span>
      </label>
      {error}
      {failure ? (
        <div className="co-payfail" role="alert">
          <p>{t.paymentFailed(failure)}</p>
          <div className="co-actions">
            <button type="submit" className="btn btn--primary btn--small">
              {t.paymentRetry}
            </button>
            <button type="button" className="btn btn--outline btn--small" onClick={payment.switchToCod}>
              {t.paymentUseCod}
            </button>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
