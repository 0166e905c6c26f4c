/** A paid order the page never sent, placed by the server: see README.md, "Paid means placed". */
import type { PaymentContext } from './payment.context.js';
import { applyWebhookEvent } from './payment.service.js';
import type { ProviderEvent } from './provider.js';

/** `payment.*` and `order.paid`: the payment's status moves forward. */
export async function onPaymentEvent(ctx: PaymentContext, e: ProviderEvent): Promise<boolean> {
  const handled = await applyWebhookEvent(ctx.db, e, ctx.now, () =>
    ctx.log.warn(
      { providerOrderId: e.providerOrderId, eventId: e.eventId },
      'event amount differs from the provider order',
    ),
  );
  return handled === true;
}
