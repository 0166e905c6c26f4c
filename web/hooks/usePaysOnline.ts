/**
 * Which online payment provider the shop has (`GET /payments/methods`: Razorpay's keys, or the test
 * provider; null for none), for the checkout's payment box and the Cash on Delivery rules
 * (domain/cod-rules.ts), and for texts that say how to pay (the policies). The server alone knows,
 * so the last answer is kept on the device, and an offline page judges by what it last heard.
 * `undefined`: never heard.
 */
import { useEffect, useState } from 'react';
import { type PaymentProviderName, paymentsContract } from '../../domain/payments.contract.js';
import { call } from '../api/client.js';

const KEY = 'paymentProvider';

function remembered(): PaymentProviderName | null | undefined {
  try {
    const saved = localStorage.getItem(KEY);
    return saved === null ? undefined : saved === 'razorpay' || saved === 'test' ? saved : null;
  } catch {
    return undefined;
  }
}

export function usePaymentProvider(): PaymentProviderName | null | undefined {
  const [provider, setProvider] = useState<PaymentProviderName | null | undefined>(remembered);
  useEffect(() => {
    if (!navigator.onLine) return;
    let live = true;
    call(paymentsContract.methods, { token: null })
      .then((answer) => {
        if (!answer.data) return;
        const now = answer.data.provider;
        try {
          localStorage.setItem(KEY, now ?? '');
        } catch {
          // Without storage the answer lasts as long as the page.
        }
        if (live) setProvider(now);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return provider;
}

/** Whether the shop takes payment online; `undefined`: never heard. */
export function usePaysOnline(): boolean | undefined {
  const provider = usePaymentProvider();
  return provider === undefined ? undefined : provider !== null;
}
