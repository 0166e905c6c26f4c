/**
 * Opens the payment provider's Checkout for a provider order: Razorpay's, or the local test
 * provider's stand-in (`razorpay-stand-in.tsx`, rendered by whoever uses this from `standIn`).
 * Shared by the checkout's Pay (`useOnlinePayment.tsx`) and a queued order paid online instead of
 * by Cash on Delivery (`OutboxCodRefusal.tsx`), so both pay the same way.
 */
import { useState } from 'react';
import type { ProviderOrder } from '../../domain/payments.contract.js';
import { checkoutOptions, type PaymentResult, type Prefill, payWithRazorpay } from './razorpay.js';
import type { StandInProps } from './razorpay-stand-in.js';

export function useProviderCheckout() {
  const [standIn, setStandIn] = useState<StandInProps | null>(null);
  /** Resolves once with what happened; the stand-in is closed by then. */
  const open = async (order: ProviderOrder, prefill: Prefill): Promise<PaymentResult> => {
    const result =
      order.provider === 'test'
        ? await new Promise<PaymentResult>((done) =>
            setStandIn({ order, options: checkoutOptions(order, prefill), done }),
          )
        : await payWithRazorpay(order, prefill);
    setStandIn(null);
    return result;
  };
  return { standIn, open };
}
