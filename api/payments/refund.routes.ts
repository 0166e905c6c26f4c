/**
 * Refunds as the app runs them: the admin's partial refund (`POST /admin/orders/{id}/refunds`),
 * `app.refunds` (what a cancel calls once it committed, to ask the provider for the cancelled
 * order's refund), and the retry of refunds the provider never answered, run by one process per
 * period through the job lease. Registered after the payments plugin, whose provider it uses.
 * See README.md, "Refunds".
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import { refundMessages } from '../../domain/refunds.js';
import { repeatWhileOpen, takeLease } from '../db/job-lease.js';
import { badRequest, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import type { CancelRefunds } from '../orders/order.status.js';
import { type PaymentContext, paymentContextOf } from './payment.context.js';
import { partialRefund, refundCancelled, retryRefunds } from './refunds.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    refunds: CancelRefunds & {
      /** The retry's work once (tests, and the timer's turn): refunds asked again, and how many got an answer. */
      retry(now?: number): Promise<number>;
    };
  }
}

/** How often a process asks for the retry's turn; the lease makes it one process per period. */
export const REFUND_RETRY_EVERY_MS = 60_000;

export default fp(
  async (app: FastifyInstance) => {
    if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
    const provider = app.payments.provider;
    const context = (now: () => number): PaymentContext | null =>
      provider ? paymentContextOf(app, provider, now) : null;
    const ctx = context(() => Date.now());

    app.decorate('refunds', {
      async afterCancel(orderId: number) {
        if (ctx) await refundCancelled(ctx, orderId);
      },
      async retry(now?: number) {
        const at = context(() => now ?? Date.now());
        return at ? retryRefunds(at) : 0;
      },
    });

    route(app, paymentsContract.refund, async ({ params, body, request, reply }) => {
      if (!body) throw badRequest(messages.formInvalid);
      const id = params?.id ?? 0;
      // Without a provider there is no one to refund through; an order paid online before the
      // keys were removed still reads as its payment on the admin's page.
      if (!ctx) throw notFound('Online payment is not set up on this shop, so nothing can be refunded.');
      const payment = await partialRefund(ctx, id, body, request.user.email);
      reply.code(201);
      return ok(payment, refundMessages.refundStarted(body.amount));
    });

    if (ctx) {
      repeatWhileOpen(app, {
        everyMs: REFUND_RETRY_EVERY_MS,
        what: 'the refund retry',
        async run() {
          if (!(await takeLease(app.db, 'refund-retry', REFUND_RETRY_EVERY_MS - 5_000))) return;
          const answered = await retryRefunds(ctx);
          if (answered) app.log.info({ answered }, 'refunds the provider had not answered were asked again');
        },
      });
    }
  },
  { name: 'refunds', dependencies: ['database', 'auth', 'payments'] },
);
