/**
 * Whether the shop takes payment online, for texts that say how to pay (the policies): the server
 * alone knows (`GET /payments/methods`: Razorpay's keys, or the test provider), so the last answer
 * is kept on the device, and an offline page says what it last heard. `undefined`: never heard.
 */
import { useEffect, useState } from 'react';
import { paymentsContract } from '../../domain/payments.contract.js';
import { call } from '../api/client.js';

const KEY = 'paysOnline';

function remembered(): boolean | undefined {
  try {
    const saved = localStorage.getItem(KEY);
    return saved === null ? undefined : saved === 'true';
  } catch {
    return undefined;
  }
}

export function usePaysOnline(): boolean | undefined {
  const [online, setOnline] = useState<boolean | undefined>(remembered);
  useEffect(() => {
    if (!navigator.onLine) return;
    let live = true;
    call(paymentsContract.methods, { token: null })
      .then((answer) => {
        if (!answer.data) return;
        const now = answer.data.provider !== null;
        try {
          localStorage.setItem(KEY, String(now));
        } catch {
          // Without storage the answer lasts as long as the page.
        }
        if (live) setOnline(now);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return online;
}
