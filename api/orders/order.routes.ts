import type { FastifyInstance, FastifyReply } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { cancelMessages } from '../../domain/order-cancel.js';
import { trackingMessages } from '../../domain/order-tracking.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { orderMessages } from '../../domain/orders.js';
import { isAdmin } from '../../domain/roles.js';
import type { Config } from '../config.js';
import { repeatWhileOpen, takeLease } from '../db/job-lease.js';
import { deleteOrphanPhotos } from '../gifts/gift.repository.js';
import { badRequest, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { hitOrRefuse, type RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { deleteExpiredKeys, InFlight, readIdempotencyKey } from './idempotency.js';
import { cancelByShopper } from './order.cancel.js';
import { historyByEmail, historyOfEveryone } from './order.repository.js';
import { type OrderDeps, placeOrderOnce } from './order.service.js';
import { changeOrderStatus } from './order.status.js';
import { OrderFactsCache } from './order-facts.js';
import { orderPlacedMail } from './order-mail.js';
import { historyVersion, orderVersion, shopperOrder } from './order-tracking.repository.js';

const ORDER_NOT_FOUND = trackingMessages.notFound;

function etagMatches(header: string | undefined, etag: string): boolean {
  return Boolean(header?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));
}

/** A 304 with no body; an async handler that sent its own reply returns the reply (Fastify's way). */
function notModified(reply: FastifyReply): never {
  reply.code(304).send();
  return reply as never;
}

const MINUTE = 60_000;
/**
 * Placing orders, per account and per client address, whichever runs out first (PLACE_ORDER_LIMITS,
 * default 20 and 60 a minute): well above a shopper's checkout, well below a script booking a date's
 * capped slots in a burst. Replays of an answered key are not counted.
 */
export function placeOrderRules(limits: Config['placeOrderLimits']): { account: RateRule; ip: RateRule } {
  return {
    account: { limit: limits.account, windowMs: MINUTE },
    ip: { limit: limits.address, windowMs: MINUTE },
  };
}

/**
 * One attempt to place an order, or to make the provider order an online one is paid through
 * (`../payments`): both count in the same budget, so an account refused one is refused the other.
 */
export function countPlacing(
  app: FastifyInstance,
  userId: number,
  ip: string,
  rules: ReturnType<typeof placeOrderRules>,
): Promise<void> {
  return hitOrRefuse(
    app.rateLimiter,
    [
      [`place-order:account:${userId}`, rules.account],
      [`place-order:ip:${ip}`, rules.ip],
    ],
    orderMessages.tooManyOrders,
  );
}

/** Idempotency keys older than the retention are swept this often (and once at start). */
const SWEEP_EVERY_MS = 6 * 60 * 60 * 1000;

/** The order endpoints and the sweep of spent idempotency keys and orphan cake photos. See README.md. */
export default async function orderRoutes(app: FastifyInstance): Promise<void> {
  const deps: OrderDeps = {
    db: app.db,
    dialect: app.dialect,
    maxUnpaidPerSlot: app.config.maxUnpaidPerSlot,
    // Read at request time: the payments' routes, which decorate the app with it, register after these.
    get payments() {
      return app.payments;
    },
    inFlight: new InFlight(),
    now: () => new Date(),
    orderFacts: new OrderFactsCache(),
  };

  const rules = placeOrderRules(app.config.placeOrderLimits);
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);

  route(app, ordersContract.placeOrder, async ({ body, request, reply }) => {
    if (!body) throw badRequest(messages.formInvalid);
    const key = readIdempotencyKey(request);
    const userId = request.user.id;
    const answer = await placeOrderOnce(deps, userId, key, body, () =>
      countPlacing(app, userId, request.ip, rules),
    );
    reply.code(answer.statusCode);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    // The receipt, once: for the placing that made the order, never for a replay of its key.
    else if (answer.placed) app.mailer.send(orderPlacedMail(answer.placed, request.user.email));
    // The answer is already the envelope's JSON (stored as text for replays): sent as it is, not
    // parsed and serialized again.
    reply.type('application/json; charset=utf-8').send(answer.body);
    return reply as never;
  });

  route(app, ordersContract.orderHistoryByEmail, async ({ query, request, reply }) => {
    const email = query?.email ?? '';
    // The spec's client reads `message` here, newer code `sys_message`: both are sent.
    if (!isAdmin(request.user.role) && email !== request.user.email.trim().toLowerCase()) {
      reply.code(403);
      const refused = {
        isSuccess: false,
        data: null,
        sys_message: messages.ordersForbidden,
        message: messages.ordersForbidden,
      };
      return refused;
    }
    // Open screens poll this: an unchanged history costs one aggregate query and a 304.
    const etag = `"h${await historyVersion(app.db, email)}"`;
    reply.header('etag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) return notModified(reply);
    const rows = await historyByEmail(app.db, email);
    const text = rows.length ? 'Success' : messages.noOrdersFound;
    const answer = { ...ok(rows, text), message: text };
    return answer;
  });

  route(app, ordersContract.myOrder, async ({ params, request, reply }) => {
    const orderId = params?.id ?? 0;
    // Another account's order is a missing one: its existence is not the shopper's to learn.
    const version = await orderVersion(app.db, request.user.id, orderId);
    if (version === null) throw notFound(ORDER_NOT_FOUND);
    const etag = `"o${orderId}-${version}"`;
    reply.header('etag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) return notModified(reply);
    const order = await shopperOrder(app.db, request.user.id, orderId);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    return ok(order);
  });

  route(app, ordersContract.cancelMyOrder, async ({ params, request }) => {
    // Required, so a client that retries sends the same request; the cancel itself is idempotent.
    if (!readIdempotencyKey(request)) throw badRequest(cancelMessages.keyRequired);
    const order = await cancelByShopper(app, request.user, params?.id ?? 0);
    return ok(order, cancelMessages.cancelled);
  });

  route(app, ordersContract.allUsersOrderHistory, async () => {
    const rows = await historyOfEveryone(app.db);
    return ok(rows, rows.length ? 'Success' : messages.noOrdersFound);
  });

  route(app, ordersContract.updateOrderStatus, async ({ params, body, request }) => {
    const orderId = params?.id ?? 0;
    const to = body?.status;
    if (!to) throw badRequest(messages.formInvalid);
    await changeOrderStatus(app.db, orderId, to, request.user, '', { refunds: app.refunds });
    return ok({ orderID: orderId, status: to }, 'Order status updated.');
  });

  const sweep = async () => {
    try {
      const now = Date.now();
      const removed = await deleteExpiredKeys(app.db, now);
      if (removed) app.log.info({ removed }, 'expired idempotency keys removed');
      // Cake photos no order took, once no queued order can still bring them (the rule: unusedPhotos).
      const photos = await deleteOrphanPhotos(app.db, now);
      if (photos) app.log.info({ photos }, 'cake photos no order took removed');
    } catch (err) {
      app.log.error({ err }, 'sweeping idempotency keys failed');
    }
  };
  // With several processes on one database, one of them sweeps per period (the sweep is safe twice;
  // the lease saves the repeat). A little under the period, so a process's own timer is never late for it.
  const sweepIfDue = async () => {
    try {
      if (!(await takeLease(app.db, 'orders-sweep', SWEEP_EVERY_MS - 60_000))) return;
      app.log.info('idempotency keys: this process sweeps this period');
      await sweep();
    } catch (err) {
      app.log.error({ err }, 'the sweep of idempotency keys could not take its turn');
    }
  };
  repeatWhileOpen(app, { everyMs: SWEEP_EVERY_MS, what: 'the sweep', atStart: true, run: sweepIfDue });
}
