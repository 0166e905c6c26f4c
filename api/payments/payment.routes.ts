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
import { fromPaise } from '../../domain/money.js';
import type { PlacedOrder } from '../../domain/orders.js';
import { ASK_PROVIDER_EVERY_MS, paymentCartMessages, payWindowOver } from '../../domain/payment-cart.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import type { PaymentAttempt } from '../../domain/payments.contract.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import { repeatWhileOpen, takeLease } from '../db/job-lease.js';
import { checkGiftLines } from '../gifts/gift.service.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import { findAnswer, readIdempotencyKey, type StoredAnswer } from '../orders/idempotency.js';
import { quote } from '../orders/order.quote.js';
import { countPlacing, placeOrderRules } from '../orders/order.routes.js';
import { hitOrRefuse } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { readShopSettings } from '../settings/settings.service.js';
import { keptColumns } from './paid-orders.js';
import { type PaymentContext, paymentContextOf } from './payment.context.js';
import { handleProviderEvent } from './payment.events.js';
import {
  closeOpen,
  closeUnpaid,
  noteAsked,
  paymentsOfKey,
  type StoredPayment,
} from './payment.repository.js';
import { type PaymentsService, paymentsService, paysFor, payWithTestProvider } from './payment.service.js';
import {
  type PaymentProvider,
  paymentOf,
  providerFor,
  refundOf,
  type TestPaymentProvider,
} from './provider.js';
import { RECONCILE_EVERY_MS, type ReconcileReport, reconcilePayments, synthetic } from './reconcile.js';
import { webhookSignatureValid } from './signature.js';

/** The payments' background job, callable directly (tests, an operator's one-off run). */
export interface PaymentJobs {
  /** One reconciliation run as at `at` (ms; now by default), without the lease. */
  reconcile(at?: number): Promise<ReconcileReport>;
  /**
   * What the timer does every `everyMs`: the run, if this process takes the period's lease
   * (`payments-reconcile`); null when another process has this period.
   */
  reconcileIfDue(everyMs: number, at?: number): Promise<ReconcileReport | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
    paymentJobs: PaymentJobs;
  }
}

/** What became of an attempt, from its provider orders (newest first) and the key's stored answer. */
function attemptOf(key: string, rows: StoredPayment[], answer: StoredAnswer | null): PaymentAttempt {
  // The newest provider order, unless an older one of the key was paid (its money is the story).
  const row =
    rows.find((r) => r.orderId !== null) ??
    rows.find((r) => r.outcome === 'refunded') ??
    rows.find((r) => r.outcome === null && (r.status === 'authorized' || r.status === 'captured')) ??
    rows[0];
  if (!row) throw notFound(ATTEMPT_NOT_FOUND);
  const base = {
    key,
    razorpayOrderId: row.providerOrderId,
    totalAmount: fromPaise(row.amountPaise),
    order: null,
    reason: null,
  };
  if (answer) {
    const order = (JSON.parse(answer.response) as { data?: PlacedOrder }).data ?? null;
    return { ...base, state: 'placed', order };
  }
  if (row.orderId !== null) return { ...base, state: 'placed' };
  if (row.outcome === 'refunded') return { ...base, state: 'refunded', reason: row.outcomeReason };
  if (row.outcome === 'closed') return { ...base, state: 'closed' };
  if (row.status === 'authorized' || row.status === 'captured') return { ...base, state: 'paying' };
  return { ...base, state: 'open' };
}

const ATTEMPT_NOT_FOUND = 'No payment was started under this key.';

/**
 * A phone asks what became of its payments with a back-off (5 s doubling to 2 minutes, one
 * payment or a few): far under these, while a script polling in a loop is stopped.
 */
const POLL_RULES = {
  account: { limit: 30, windowMs: 60_000 },
  ip: { limit: 120, windowMs: 60_000 },
} as const;
const ALREADY_PLACED = 'This order is already placed: see My Orders.';

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

/**
 * What the provider holds on an open provider order: a captured payment is handled now, through the
 * webhook's own handler ('handled'); an authorized one, or a provider not answering, is still being
 * confirmed ('paying'); none is 'open'.
 */
async function askProvider(ctx: PaymentContext, row: StoredPayment): Promise<'handled' | 'paying' | 'open'> {
  const { providerOrderId } = row;
  try {
    const payments = (await ctx.provider.fetchOrderPayments(providerOrderId)).filter((p) => paysFor(p, row));
    const captured = payments.find((p) => p.status === 'captured');
    if (captured) {
      await handleProviderEvent(ctx, synthetic('payment.captured', captured, 'attempt:'));
      return 'handled';
    }
    const authorized = payments.find((p) => p.status === 'authorized');
    if (!authorized) return 'open';
    // Kept, as its webhook would: the next poll (not asking the provider for 15 s) still says paying.
    await handleProviderEvent(ctx, synthetic('payment.authorized', authorized, 'attempt:authorized:'));
    return 'paying';
  } catch (err) {
    ctx.log.warn({ err, providerOrderId }, 'asking the provider about a payment in progress failed');
    return 'paying';
  }
}

export interface PaymentsOptions {
  /** The reconciliation's period (RECONCILE_EVERY_MS, a minute); tests may shorten it. */
  reconcileEveryMs?: number;
}

export default fp(
  async (app: FastifyInstance, options: PaymentsOptions) => {
    const provider = providerFor(app.config);
    const now = () => Date.now();
    if (provider?.name === 'test') {
      // Said at every start, so an operator who left it on by mistake sees it in the log.
      app.log.warn(
        'TEST_PAYMENTS=true: online payment is the local test provider; orders are marked paid but no money moves',
      );
    }

    const service = paymentsService(app.db, provider, now);
    if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);
    const placing = placeOrderRules(app.config.placeOrderLimits);
    const countPolls = (userId: number, ip: string) =>
      hitOrRefuse(
        app.rateLimiter,
        [
          [`payment-polls:account:${userId}`, POLL_RULES.account],
          [`payment-polls:ip:${ip}`, POLL_RULES.ip],
        ],
        messages.tooManyAttempts,
      );
    app.decorate('payments', service);
    if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
    const context = (p: PaymentProvider): PaymentContext => paymentContextOf(app, p, now);
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

    route(app, paymentsContract.methods, async () => {
      const offered = service.methods();
      // Cash on Delivery the owner turned off, while online payment is offered (domain/cod-rules.ts).
      if (offered.provider && !(await readShopSettings(app.db)).codEnabled) {
        return ok({ ...offered, methods: offered.methods.filter((m) => m !== PAYMENT_METHODS.cod) });
      }
      return ok(offered);
    });

    route(app, paymentsContract.createRazorpayOrder, async ({ body, request }) => {
      if (!body) throw badRequest(messages.formInvalid);
      const key = readIdempotencyKey(request);
      if (!key) throw badRequest('The Idempotency-Key header is required to pay online.');
      // Its order exists already (the server placed it when the payment came): nobody pays twice.
      if (await findAnswer(app.db, request.user.id, key)) {
        throw conflict(ALREADY_PLACED, { reason: 'placed' });
      }
      // Each is a call to the provider: counted with place-order, in the same budget.
      await countPlacing(app, request.user.id, request.ip, placing);
      const at = new Date();
      const priced = await quote(app.db, request.user.id, body, at);
      // A gift the order would refuse is refused before the shopper pays for it.
      await checkGiftLines(app.db, request.user.id, body.DeliveryDate, priced.lines, at);
      const order = await service.createProviderOrder({
        userId: request.user.id,
        key,
        totalAmount: priced.totals.total,
        // Kept with the provider order: if the page is gone when the payment comes, the server places it.
        kept: keptColumns(body, priced),
      });
      return ok(order);
    });

    route(app, paymentsContract.attempt, async ({ params, request }) => {
      await countPolls(request.user.id, request.ip);
      const key = params?.key ?? '';
      // Another account's key, or one never used, is the same 404: keys are not the shopper's to probe.
      const rows = await paymentsOfKey(app.db, request.user.id, key);
      if (!rows.length) throw notFound(ATTEMPT_NOT_FOUND);
      const seen = attemptOf(key, rows, await findAnswer(app.db, request.user.id, key));
      if ((seen.state !== 'open' && seen.state !== 'paying') || !provider) return ok(seen);
      // "open" and "paying" are only what the webhooks have said so far. The provider is asked (at
      // most every 15 s per provider order, however often phones poll), so a payment whose webhook
      // is late or lost is found now (and handled as the webhook would), and a phone is never told
      // that nothing was paid while the money was taken.
      const row = rows.find((r) => r.providerOrderId === seen.razorpayOrderId) ?? (rows[0] as StoredPayment);
      const t = now();
      if (row.askedAt !== null && t - row.askedAt < ASK_PROVIDER_EVERY_MS) return ok(seen);
      await noteAsked(app.db, row.id, t);
      const asked = await askProvider(context(provider), row);
      if (asked === 'paying') return ok({ ...seen, state: 'paying' as const });
      // Nothing paid and its price window passed: closed now, so it is never paid at an old price.
      if (asked === 'open' && !(payWindowOver(row.createdAt, t) && (await closeUnpaid(app.db, row.id, t)))) {
        return ok(seen);
      }
      const fresh = await paymentsOfKey(app.db, request.user.id, key);
      return ok(attemptOf(key, fresh, await findAnswer(app.db, request.user.id, key)));
    });

    route(app, paymentsContract.closeAttempt, async ({ params, request }) => {
      await countPolls(request.user.id, request.ip);
      const key = params?.key ?? '';
      const userId = request.user.id;
      if (!(await paymentsOfKey(app.db, userId, key)).length) throw notFound(ATTEMPT_NOT_FOUND);
      // Only what nothing was paid on closes; a payment already made goes on to its order (or refund).
      await closeOpen(app.db, { userId, key, reason: paymentCartMessages.endedOnPhone, now: now() });
      const rows = await paymentsOfKey(app.db, userId, key);
      return ok(attemptOf(key, rows, await findAnswer(app.db, userId, key)));
    });

    const jobs: PaymentJobs = {
      async reconcile(at) {
        if (!provider) return { asked: 0, captured: 0, handled: 0, closed: 0, refunds: 0, failed: 0 };
        const ctx = context(provider);
        return reconcilePayments(at === undefined ? ctx : { ...ctx, now: () => at });
      },
      async reconcileIfDue(everyMs, at = Date.now()) {
        // A little under the period, so a process's own timer is never late for its turn.
        if (!(await takeLease(app.db, 'payments-reconcile', Math.floor(everyMs * 0.9), at))) return null;
        return jobs.reconcile(at);
      },
    };
    app.decorate('paymentJobs', jobs);
    if (provider) {
      // Every period, one process (the job lease) reconciles.
      const everyMs = options.reconcileEveryMs ?? RECONCILE_EVERY_MS;
      repeatWhileOpen(app, {
        everyMs,
        what: 'payments reconciliation',
        run: () => jobs.reconcileIfDue(everyMs),
      });
    }

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
        // Each in a namespace of its own: the header is not signed, so it must never name one of the
        // server's own events (`attempt:…`, `reconcile:…`) and block the payment it stands for.
        const eventId =
          typeof headerId === 'string' && headerId.length > 0 && headerId.length <= 100
            ? `rzp:${headerId}`
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
