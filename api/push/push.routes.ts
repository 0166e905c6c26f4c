import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import webpush, { WebPushError } from 'web-push';
import { ok } from '../../domain/envelope.js';
import { pushApi } from '../../domain/push.contract.js';
import { HttpError, tooMany } from '../http/errors.js';
import { given, route } from '../http/route.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import {
  alreadySubscribed,
  claimPush,
  type DuePush,
  deviceCount,
  deviceFailing,
  duePushes,
  forgetEndedDue,
  forgetEndedSessions,
  orderUpdatesWanted,
  pushDone,
  pushFailed,
  pushSent,
  removeSubscription,
  saveSubscription,
  setOrderUpdates,
  subscriptionGone,
  touchSubscription,
} from './push.repository.js';
import { endpointProblem, KNOWN_PUSH_HOSTS, PushAgent, type PushTargets } from './push-target.js';
import { vapidKeys } from './vapid.js';

type Outcome = { sent: number; failed: number; gone: number };

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
/** A claimed push comes due again after this if its process died while sending it. */
const HOLD_MS = 60_000;
/** TCP and TLS to a push service; then its answer. A send ends within both together. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const ANSWER_TIMEOUT_MS = 10_000;
/** Sends in flight per account in one process: one account's silent devices hold two slots, no more. */
export const SENDS_PER_ACCOUNT = 2;
/** Sends in flight in one process, all accounts together. */
const MAX_IN_FLIGHT = 64;
/** A device every try has failed to reach for this long is given up. */
export const FAILING_FOR_MS = 24 * 60 * 60 * 1000;
/** How often the timer forgets every device whose session has ended (moves and sends do it as they go). */
const SWEEP_EVERY_MS = 10 * 60_000;
/** Tries before a push is dropped. */
export const MAX_ATTEMPTS = 8;
/** 5 s, 10 s, 20 s ... at most an hour: a push service that is down is not hammered. */
export const backoffMs = (attempts: number) => Math.min(5000 * 2 ** (attempts - 1), 3_600_000);
/** New devices (or sessions) an account may subscribe in an hour; a page re-posting the same one is free. */
export const SUBSCRIBE_RULE: RateRule = { limit: 10, windowMs: 60 * 60_000 };

/**
 * Order updates on the shopper's devices (api/push/README.md): the subscription endpoints, and
 * the sender that works through the queue the status moves fill (api/orders/order.status.ts).
 * Sending is never on the admin's path: a slow or failing push service only delays a row.
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

    route(app, pushApi.subscribe, async (ctx) => {
      const user = ctx.request.user;
      const sub = given(ctx.body);
      const problem = endpointProblem(sub.endpoint, targets);
      if (problem) throw new HttpError(422, problem);
      if (await alreadySubscribed(app.db, user.id, user.sessionId, sub)) {
        await touchSubscription(app.db, sub.endpoint);
      } else {
        const decision = await app.rateLimiter.hit(`push:subscribe:${user.id}`, SUBSCRIBE_RULE);
        if (!decision.allowed)
          throw tooMany(
            'Too many devices were signed up for order updates in the last hour. Please try again later.',
            decision.retryAfterMs / 1000,
          );
        await saveSubscription(app.db, user.id, user.sessionId, sub);
      }
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

    // Sends in flight in this process, per account and in all; other processes claim rows of their own.
    const perAccount = new Map<number, number>();
    let inFlight = 0;
    const sending = new Set<Promise<void>>();
    let closing = false;
    const take = (userId: number) => {
      perAccount.set(userId, (perAccount.get(userId) ?? 0) + 1);
      inFlight++;
    };
    const release = (userId: number) => {
      const left = (perAccount.get(userId) ?? 1) - 1;
      if (left > 0) perAccount.set(userId, left);
      else perAccount.delete(userId);
      inFlight--;
    };

    const send = async (push: DuePush, now: number, outcome: Outcome): Promise<void> => {
      // Checked again at send time: a row from before the rule, or a host the operator has since removed.
      const problem = endpointProblem(push.endpoint, targets);
      if (problem) {
        await subscriptionGone(app.db, push.subscriptionId);
        app.log.warn({ problem }, 'push: removed a subscription whose endpoint is not a known push service');
        outcome.gone++;
        return;
      }
      try {
        await webpush.sendNotification(
          { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
          push.payload,
          {
            vapidDetails,
            // A status is worth showing for a day; after that the order page says it.
            TTL: 24 * 60 * 60,
            urgency: 'high',
            agent,
          },
        );
        await pushSent(app.db, push);
        outcome.sent++;
      } catch (err) {
        // Cut short by the shop closing: the claim lapses and a process sends it later.
        if (closing) return;
        const status = err instanceof WebPushError ? err.statusCode : null;
        if (status === 404 || status === 410) {
          await subscriptionGone(app.db, push.subscriptionId);
          app.log.info({ status }, 'push: the push service says the subscription is gone; removed it');
          outcome.gone++;
          return;
        }
        outcome.failed++;
        const reason = status ? `push service answered ${status}` : (err as Error).message;
        const failingSince = await deviceFailing(app.db, push.subscriptionId, now);
        if (now - failingSince >= FAILING_FOR_MS) {
          await subscriptionGone(app.db, push.subscriptionId);
          app.log.warn(`push: removed a device every try has failed to reach for a day (${reason})`);
          return;
        }
        const attempts = push.attempts + 1;
        if (attempts >= MAX_ATTEMPTS) {
          await pushDone(app.db, push.id);
          app.log.warn({ attempts }, `push: dropped after ${attempts} tries (${reason})`);
        } else {
          await pushFailed(app.db, push.id, attempts, now + backoffMs(attempts), reason);
          app.log.info({ attempts }, `push: will try again (${reason})`);
        }
      }
    };

    /**
     * Claims what is due and starts sending it, without waiting for the sends: a slow push
     * service holds its account's slots, never the reading of the queue or another account.
     */
    const startDue = async (now: number, outcome: Outcome): Promise<Promise<void>[]> => {
      await forgetEndedDue(app.db, now);
      const started: Promise<void>[] = [];
      if (inFlight >= MAX_IN_FLIGHT) return started;
      for (const push of await duePushes(app.db, now, MAX_IN_FLIGHT - inFlight, SENDS_PER_ACCOUNT)) {
        if (closing || inFlight >= MAX_IN_FLIGHT) break;
        if ((perAccount.get(push.userId) ?? 0) >= SENDS_PER_ACCOUNT) continue;
        // The slot is taken before the claim's await: another run in this process sees it taken.
        take(push.userId);
        let claimed = false;
        try {
          claimed = await claimPush(app.db, push, now + HOLD_MS);
        } finally {
          if (!claimed) release(push.userId);
        }
        if (!claimed) continue;
        const sent: Promise<void> = send(push, now, outcome)
          .catch((err) => app.log.error({ err }, 'push: a send could not be recorded'))
          .finally(() => {
            release(push.userId);
            sending.delete(sent);
          });
        sending.add(sent);
        started.push(sent);
      }
      return started;
    };

    const deliverDue = async (now = Date.now()) => {
      const outcome: Outcome = { sent: 0, failed: 0, gone: 0 };
      await Promise.all(await startDue(now, outcome));
      return outcome;
    };

    let reading: Promise<unknown> | null = null;
    let lastSweep = 0;
    const tick = () => {
      if (reading || closing) return;
      const now = Date.now();
      reading = (async () => {
        if (now - lastSweep >= SWEEP_EVERY_MS) {
          lastSweep = now;
          await forgetEndedSessions(app.db, now);
        }
        await startDue(now, { sent: 0, failed: 0, gone: 0 });
      })()
        .catch((err) => app.log.error({ err }, 'push: the queue could not be read'))
        .finally(() => {
          reading = null;
        });
    };
    let timer: NodeJS.Timeout | null = null;
    app.decorate('push', { deliverDue });
    app.addHook('onReady', async () => {
      timer = setInterval(tick, TICK_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      closing = true;
      if (timer) clearInterval(timer);
      await reading;
      agent.destroyAll();
      await Promise.allSettled([...sending]);
      agent.destroy();
    });
  },
  { name: 'push', dependencies: ['database', 'auth'] },
);
