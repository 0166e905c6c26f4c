/**
 * The payment endpoints: what methods exist, a provider order for a priced cart, the provider's
 * webhook and the test provider's stand-in for Checkout. Decorates `app.payments`, the service
 * the order routes call while placing an online order. See `README.md` for the flow.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import { checkGiftLines } from '../gifts/gift.service.js';
import { badRequest, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import { readIdempotencyKey } from '../orders/idempotency.js';
import { quote } from '../orders/order.service.js';
import type { PaymentContext } from './payment.context.js';
import { handleProviderEvent } from './payment.events.js';
import { type PaymentsService, paymentsService, payWithTestProvider } from './payment.service.js';
import {
  type PaymentProvider,
  paymentOf,
  providerFor,
  refundOf,
  type TestPaymentProvider,
} from './provider.js';
import { webhookSignatureValid } from './signature.js';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

interface WebhookBody {
  event?: unknown;
  payload?: {
    payment?: { entity?: unknown };
    order?: { entity?: { id?: unknown } };
    refund?: { entity?: unknown };
  };
}

const str = (x: unknown): string | null =>
  typeof x === 'string' && x.length > 0 && x.length <= 100 ? x : null;

export default fp(
  async (app: FastifyInstance) => {
    const provider = providerFor(app.config);
    const now = () => Date.now();
    if (provider?.name === 'test') {
      // Said at every start, so an operator who left it on by mistake sees it in the log.
      app.log.warn(
        'TEST_PAYMENTS=true: online payment is the local test provider; orders are marked paid but no money moves',
      );
    }

    const service = paymentsService(app.db, provider, now);
    app.decorate('payments', service);
    if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
    const context = (p: PaymentProvider): PaymentContext => ({
      db: app.db,
      dialect: app.dialect,
      provider: p,
      mailer: app.mailer,
      config: app.config,
      log: app.log,
      now,
    });
    if (provider?.name === 'test') {
      // The test provider's events go where Razorpay's webhooks would: the same handler.
      const ctx = context(provider);
      (provider as TestPaymentProvider).onEvent(async (e) => {
        try {
          await handleProviderEvent(ctx, e);
        } catch (err) {
          app.log.error({ err, event: e.event, eventId: e.eventId }, 'a test provider event failed');
        }
      });
    }

    route(app, paymentsContract.methods, async () => ok(service.methods()));

    route(app, paymentsContract.createRazorpayOrder, async ({ body, request }) => {
      if (!body) throw badRequest(messages.formInvalid);
      const key = readIdempotencyKey(request);
      if (!key) throw badRequest('The Idempotency-Key header is required to pay online.');
      const at = new Date();
      const priced = await quote(app.db, request.user.id, body, at);
      // A gift the order would refuse is refused before the shopper pays for it.
      await checkGiftLines(app.db, request.user.id, body.DeliveryDate, priced.lines, at);
      const order = await service.createProviderOrder({
        userId: request.user.id,
        key,
        totalAmount: priced.totals.total,
      });
      return ok(order);
    });

    if (provider?.name === 'test') {
      const test = provider as TestPaymentProvider;
      route(app, paymentsContract.testPay, async ({ body, request }) => {
        const paid = await payWithTestProvider(app.db, test, body?.razorpay_order_id ?? '', request.user.id);
        return ok(paid, 'Test payment made.');
      });
    }

    // The webhook needs the body exactly as sent (the signature covers its bytes), so JSON
    // is not parsed for it: the raw parser lives in this child plugin only.
    await app.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );

      route(hook, paymentsContract.webhook, async ({ request }) => {
        const secret = app.config.razorpay.webhookSecret;
        if (!secret) throw notFound('Payment webhooks are not set up on this shop.');
        const raw = request.body;
        const signature = request.headers['x-razorpay-signature'];
        if (
          !Buffer.isBuffer(raw) ||
          typeof signature !== 'string' ||
          !webhookSignatureValid(secret, raw, signature)
        ) {
          throw badRequest('The webhook signature is not valid.');
        }
        let body: WebhookBody;
        try {
          body = JSON.parse(raw.toString('utf8')) as WebhookBody;
        } catch {
          throw badRequest('The request body is not valid JSON.');
        }
        if (typeof body !== 'object' || body === null) throw badRequest('The webhook body is not an event.');
        const headerId = request.headers['x-razorpay-event-id'];
        // Razorpay names each event in a header; without it, identical bodies are the same event.
        const eventId =
          typeof headerId === 'string' && headerId.length > 0 && headerId.length <= 100
            ? headerId
            : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
        const payment = paymentOf(body.payload?.payment?.entity);
        const refund = refundOf(body.payload?.refund?.entity);
        const providerOrderId = str(payment?.orderId) ?? str(body.payload?.order?.entity?.id);
        // Without keys there is no provider to act with (a capture, a refund): such a shop has no
        // webhook secret either, so this is only reached on a misconfigured one.
        if (!provider) throw notFound('Payment webhooks are not set up on this shop.');
        return ok(
          await handleProviderEvent(context(provider), {
            eventId,
            event: str(body.event) ?? 'unknown',
            providerOrderId,
            payment,
            refund,
          }),
        );
      });
    });
  },
  { name: 'payments', dependencies: ['database', 'auth'] },
);
