import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adminApi } from '../../domain/admin.contract.js';
import { liveMessages } from '../../domain/admin-live.js';
import { ok } from '../../domain/envelope.js';
import { pushApi } from '../../domain/push.contract.js';
import { type PushSubscriptionInput, PushSubscriptionSchema } from '../../domain/push.js';
import { parseWith } from '../../domain/validation.js';
import { badRequest, HttpError, notFound, tooMany } from '../http/errors.js';
import { given, route } from '../http/route.js';
import type { AuthUser } from '../plugins/auth.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { newOrderDevices, setNewOrderAlerts } from './new-orders.repository.js';
import {
  alreadySubscribed,
  deviceCount,
  orderUpdatesWanted,
  removeSubscription,
  saveSubscription,
  setOrderUpdates,
  touchSubscription,
} from './push.repository.js';
import { type Outcome, pushSender } from './push.sender.js';
import { endpointProblem, KNOWN_PUSH_HOSTS, PushAgent, type PushTargets } from './push-target.js';
import { vapidKeys } from './vapid.js';

declare module 'fastify' {
  interface FastifyInstance {
    push: {
      /**
       * Sends what is due now and waits for those sends (the timer starts them every second
       * without waiting; tests call this to be sure).
       */
      deliverDue(now?: number): Promise<Outcome>;
    };
  }
}

export interface PushOptions {
  /** Certificates the sender trusts instead of the system's (tests trust their local push service). */
  ca?: string | Buffer;
  /** Deadlines of one send; the defaults are CONNECT_TIMEOUT_MS and ANSWER_TIMEOUT_MS. */
  connectTimeoutMs?: number;
  answerTimeoutMs?: number;
}

const TICK_MS = 1000;
/** TCP and TLS to a push service; then its answer. A send ends within both together. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const ANSWER_TIMEOUT_MS = 10_000;
/** New devices (or sessions) an account may subscribe in an hour; a page re-posting the same one is free. */
export const SUBSCRIBE_RULE: RateRule = { limit: 10, windowMs: 60 * 60_000 };

/**
 * Order updates on the shopper's devices (api/push/README.md): the subscription endpoints, the
 * admin's switch for new orders on a device, and the sender (`push.sender.ts`) on its timer, as
 * `app.push`.
 */
export default fp(
  async (app: FastifyInstance, opts: PushOptions) => {
    if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);
    const keys = await vapidKeys(app.db, app.config.vapid);
    const vapidDetails = { subject: app.config.vapidSubject, ...keys };
    const targets: PushTargets = {
      hosts: [...KNOWN_PUSH_HOSTS, ...app.config.pushHosts],
      testService: app.config.testPushService,
    };
    const agent = new PushAgent({
      targets,
      connectTimeoutMs: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      answerTimeoutMs: opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS,
      ...(opts.ca ? { ca: opts.ca } : {}),
    });

    route(app, pushApi.key, async () => ok({ publicKey: keys.publicKey }));

    /**
     * Keeps a device's subscription for the signed-in user's session: only a known push service
     * (422), and a new device counts against the hour's limit (429); the same one again is free.
     */
    const keepSubscription = async (user: AuthUser, sub: PushSubscriptionInput) => {
      const problem = endpointProblem(sub.endpoint, targets);
      if (problem) throw new HttpError(422, problem);
      if (await alreadySubscribed(app.db, user.id, user.sessionId, sub)) {
        await touchSubscription(app.db, sub.endpoint);
        return;
      }
      const decision = await app.rateLimiter.hit(`push:subscribe:${user.id}`, SUBSCRIBE_RULE);
      if (!decision.allowed)
        throw tooMany(
          'Too many devices were signed up for order updates in the last hour. Please try again later.',
          decision.retryAfterMs / 1000,
        );
      await saveSubscription(app.db, user.id, user.sessionId, sub);
    };

    route(app, pushApi.subscribe, async (ctx) => {
      const user = ctx.request.user;
      await keepSubscription(user, given(ctx.body));
      ctx.reply.code(201);
      return ok({ devices: await deviceCount(app.db, user.id) }, 'Order updates will come to this device.');
    });

    route(app, pushApi.unsubscribe, async (ctx) => {
      const user = ctx.request.user;
      await removeSubscription(app.db, user.id, given(ctx.body).endpoint);
      return ok(
        { devices: await deviceCount(app.db, user.id) },
        'Order updates will no longer come to this device.',
      );
    });

    route(app, pushApi.preferences, async (ctx) =>
      ok({ orderUpdates: await orderUpdatesWanted(app.db, ctx.request.user.id) }),
    );

    route(app, pushApi.setPreferences, async (ctx) => {
      const { orderUpdates } = given(ctx.body);
      await setOrderUpdates(app.db, ctx.request.user.id, orderUpdates);
      return ok({ orderUpdates }, orderUpdates ? 'Order updates are on.' : 'Order updates are off.');
    });

    // New orders on the admins' devices (README.md): the admin's switch for one device.
    route(app, adminApi.newOrderAlertsState, async (ctx) =>
      ok({ publicKey: keys.publicKey, devices: await newOrderDevices(app.db, ctx.request.user.id) }),
    );

    route(app, adminApi.newOrderAlerts, async (ctx) => {
      const user = ctx.request.user;
      const { endpoint, keys: deviceKeys, on } = given(ctx.body);
      if (on && deviceKeys) {
        // Checked as the shopper's subscribe checks it: the contract only outlines it.
        const sub = parseWith(PushSubscriptionSchema, { endpoint, keys: deviceKeys });
        if (!sub.ok) throw badRequest(sub.message, sub.field ? { field: sub.field } : undefined);
        await keepSubscription(user, sub.value);
      }
      if (!(await setNewOrderAlerts(app.db, user.id, endpoint, on)))
        throw notFound('This device is not signed up for notifications yet.');
      const devices = await newOrderDevices(app.db, user.id);
      return ok({ on, devices }, on ? liveMessages.pushOn : liveMessages.pushOff);
    });

    const sender = pushSender({ db: app.db, log: app.log, targets, agent, vapidDetails });
    let timer: NodeJS.Timeout | null = null;
    app.decorate('push', { deliverDue: sender.deliverDue });
    app.addHook('onReady', async () => {
      timer = setInterval(sender.tick, TICK_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await sender.close();
    });
  },
  { name: 'push', dependencies: ['database', 'auth'] },
);
