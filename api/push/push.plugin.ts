import type { Agent } from 'node:https';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import webpush, { WebPushError } from 'web-push';
import { ok } from '../../domain/envelope.js';
import { pushApi } from '../../domain/push.contract.js';
import { given, route } from '../http/route.js';
import {
  claimPush,
  deviceCount,
  duePushes,
  orderUpdatesWanted,
  pushFailed,
  pushSent,
  removeSubscription,
  saveSubscription,
  setOrderUpdates,
  subscriptionGone,
} from './push.repository.js';
import { vapidKeys } from './vapid.js';

declare module 'fastify' {
  interface FastifyInstance {
    push: {
      /** Sends what is due now (the timer calls it every second; tests call it to be sure). */
      deliverDue(now?: number): Promise<{ sent: number; failed: number; gone: number }>;
    };
  }
}

export interface PushOptions {
  /** The TLS agent for reaching push services (tests trust their local push service's certificate). */
  agent?: Agent;
}

const TICK_MS = 1000;
/** A claimed push comes due again after this if its process died while sending it. */
const HOLD_MS = 60_000;
const SEND_TIMEOUT_MS = 10_000;
/** Tries before a push is dropped (about 2 hours of back-off in all). */
export const MAX_ATTEMPTS = 8;
/** 5 s, 10 s, 20 s ... at most an hour: a push service that is down is not hammered. */
export const backoffMs = (attempts: number) => Math.min(5000 * 2 ** (attempts - 1), 3_600_000);

/**
 * Order updates on the shopper's devices (api/push/README.md): the subscription endpoints, and
 * the sender that works through the queue the status moves fill (api/orders/order.status.ts).
 * Sending is never on the admin's path: a slow or failing push service only delays a row.
 */
export default fp(
  async (app: FastifyInstance, opts: PushOptions) => {
    const keys = await vapidKeys(app.db, app.config.vapid);
    const vapidDetails = { subject: app.config.vapidSubject, ...keys };

    route(app, pushApi.key, async () => ok({ publicKey: keys.publicKey }));

    route(app, pushApi.subscribe, async (ctx) => {
      const user = ctx.request.user;
      await saveSubscription(app.db, user.id, user.sessionId, given(ctx.body));
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

    let running: Promise<unknown> | null = null;
    const deliverDue = async (now = Date.now()) => {
      const outcome = { sent: 0, failed: 0, gone: 0 };
      for (const push of await duePushes(app.db, now, 20)) {
        if (!(await claimPush(app.db, push, now + HOLD_MS))) continue;
        try {
          await webpush.sendNotification(
            { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
            push.payload,
            {
              vapidDetails,
              // A status is worth showing for a day; after that the order page says it.
              TTL: 24 * 60 * 60,
              urgency: 'high',
              timeout: SEND_TIMEOUT_MS,
              ...(opts.agent ? { agent: opts.agent } : {}),
            },
          );
          await pushSent(app.db, push.id);
          outcome.sent++;
        } catch (err) {
          const status = err instanceof WebPushError ? err.statusCode : null;
          if (status === 404 || status === 410) {
            await subscriptionGone(app.db, push.subscriptionId);
            app.log.info({ status }, 'push: the push service says the subscription is gone; removed it');
            outcome.gone++;
            continue;
          }
          const attempts = push.attempts + 1;
          const reason = status ? `push service answered ${status}` : (err as Error).message;
          outcome.failed++;
          if (attempts >= MAX_ATTEMPTS) {
            await pushSent(app.db, push.id);
            app.log.warn({ attempts }, `push: dropped after ${attempts} tries (${reason})`);
          } else {
            await pushFailed(app.db, push.id, attempts, now + backoffMs(attempts), reason);
            app.log.info({ attempts }, `push: will try again (${reason})`);
          }
        }
      }
      return outcome;
    };

    // One run at a time in this process; other processes claim rows of their own.
    const tick = () => {
      if (running) return;
      running = deliverDue()
        .catch((err) => app.log.error({ err }, 'push: the queue could not be read'))
        .finally(() => {
          running = null;
        });
    };
    let timer: NodeJS.Timeout | null = null;
    app.decorate('push', { deliverDue });
    app.addHook('onReady', async () => {
      timer = setInterval(tick, TICK_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'push', dependencies: ['database', 'auth'] },
);
