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
import { readIdempotencyKey } from '../orders/idempotency.js';
import { quote } from '../orders/order.service.js';
import {
  applyWebhookEvent,
  type PaymentsService,
  paymentsService,
  payWithTestProvider,
} from './payment.service.js';
import { providerFor, type TestPaymentProvider } from './provider.js';
import { webhookSignatureValid } from './signature.js';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

interface WebhookBody {
  event?: unknown;
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown } };
    order?: { entity?: { id?: unknown } };
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
        const paymentEntity = body.payload?.payment?.entity;
        const providerOrderId = str(paymentEntity?.order_id) ?? str(body.payload?.order?.entity?.id);
        const event = {
          eventId,
          event: str(body.event) ?? 'unknown',
          providerOrderId,
          paymentId: str(paymentEntity?.id),
          amount: paymentEntity?.amount,
        };
        const handled = await applyWebhookEvent(app.db, event, now, () =>
          request.log.warn({ providerOrderId, eventId }, 'webhook amount differs from the provider order'),
        );
        if (handled === null) return ok({ handled: false, duplicate: true }, 'Event already handled.');
        return ok({ handled, duplicate: false });
      });
    });
  },
  { name: 'payments', dependencies: ['database', 'auth'] },
);
