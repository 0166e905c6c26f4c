/**
 * One handler for the provider's events, whether they came through the webhook (read from the
 * signed body, `payment.routes.ts`) or from the local test provider (`provider.ts`, `onEvent`).
 * An event id is handled once: it is recorded after its handler succeeded, so an event whose
 * handling failed (the database was down) is handled again when Razorpay retries it. Handlers are
 * therefore safe to run twice, and events may come in any order, on any process.
 *
 * Payment events (`payment.*`, `order.paid`) go to `paid-orders.ts`, which places a paid order
 * the page never sent; refund events (`refund.*`) to `refunds.service.ts`.
 */

import { onPaymentEvent } from './paid-orders.js';
import type { PaymentContext } from './payment.context.js';
import { eventSeen, recordEvent } from './payment.repository.js';
import type { ProviderEvent } from './provider.js';
import { onRefundEvent } from './refunds.service.js';

export interface EventAnswer {
  handled: boolean;
  duplicate: boolean;
}

export async function handleProviderEvent(ctx: PaymentContext, e: ProviderEvent): Promise<EventAnswer> {
  if (await eventSeen(ctx.db, e.eventId)) return { handled: false, duplicate: true };
  const handled = e.event.startsWith('refund.') ? await onRefundEvent(ctx, e) : await onPaymentEvent(ctx, e);
  const first = await recordEvent(ctx.db, {
    eventId: e.eventId,
    event: e.event,
    providerOrderId: e.providerOrderId,
    now: ctx.now(),
  });
  return { handled, duplicate: !first };
}
