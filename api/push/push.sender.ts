/**
 * The sender: works through the queue the status moves fill (`../orders/order.status.ts`), a few
 * sends at a time per account, each with its deadlines. Sending is never on the admin's path: a
 * slow or failing push service only delays a row.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import webpush, { WebPushError } from 'web-push';
import type { Database } from '../db/schema.js';
import {
  claimPush,
  type DuePush,
  deviceFailing,
  duePushes,
  forgetEndedDue,
  forgetEndedSessions,
  pushDone,
  pushFailed,
  pushSent,
  subscriptionGone,
} from './push.repository.js';
import { endpointProblem, type PushAgent, type PushTargets } from './push-target.js';
import type { VapidKeys } from './vapid.js';

export type Outcome = { sent: number; failed: number; gone: number };

/** A claimed push comes due again after this if its process died while sending it. */
const HOLD_MS = 60_000;
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

export interface PushSenderDeps {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  targets: PushTargets;
  agent: PushAgent;
  vapidDetails: VapidKeys & { subject: string };
}

export function pushSender({ db, log, targets, agent, vapidDetails }: PushSenderDeps) {
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
      await subscriptionGone(db, push.subscriptionId);
      log.warn({ problem }, 'push: removed a subscription whose endpoint is not a known push service');
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
      await pushSent(db, push);
      outcome.sent++;
    } catch (err) {
      // Cut short by the shop closing: the claim lapses and a process sends it later.
      if (closing) return;
      const status = err instanceof WebPushError ? err.statusCode : null;
      if (status === 404 || status === 410) {
        await subscriptionGone(db, push.subscriptionId);
        log.info({ status }, 'push: the push service says the subscription is gone; removed it');
        outcome.gone++;
        return;
      }
      outcome.failed++;
      const reason = status ? `push service answered ${status}` : (err as Error).message;
      const failingSince = await deviceFailing(db, push.subscriptionId, now);
      if (now - failingSince >= FAILING_FOR_MS) {
        await subscriptionGone(db, push.subscriptionId);
        log.warn(`push: removed a device every try has failed to reach for a day (${reason})`);
        return;
      }
      const attempts = push.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        await pushDone(db, push.id);
        log.warn({ attempts }, `push: dropped after ${attempts} tries (${reason})`);
      } else {
        await pushFailed(db, push.id, attempts, now + backoffMs(attempts), reason);
        log.info({ attempts }, `push: will try again (${reason})`);
      }
    }
  };

  /**
   * Claims what is due and starts sending it, without waiting for the sends: a slow push
   * service holds its account's slots, never the reading of the queue or another account.
   */
  const startDue = async (now: number, outcome: Outcome): Promise<Promise<void>[]> => {
    await forgetEndedDue(db, now);
    const started: Promise<void>[] = [];
    if (inFlight >= MAX_IN_FLIGHT) return started;
    for (const push of await duePushes(db, now, MAX_IN_FLIGHT - inFlight, SENDS_PER_ACCOUNT)) {
      if (closing || inFlight >= MAX_IN_FLIGHT) break;
      if ((perAccount.get(push.userId) ?? 0) >= SENDS_PER_ACCOUNT) continue;
      // The slot is taken before the claim's await: another run in this process sees it taken.
      take(push.userId);
      let claimed = false;
      try {
        claimed = await claimPush(db, push, now + HOLD_MS);
      } finally {
        if (!claimed) release(push.userId);
      }
      if (!claimed) continue;
      const sent: Promise<void> = send(push, now, outcome)
        .catch((err) => log.error({ err }, 'push: a send could not be recorded'))
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
        await forgetEndedSessions(db, now);
      }
      await startDue(now, { sent: 0, failed: 0, gone: 0 });
    })()
      .catch((err) => log.error({ err }, 'push: the queue could not be read'))
      .finally(() => {
        reading = null;
      });
  };

  return {
    deliverDue,
    /** One turn of the timer: reads the queue unless a read is still going. */
    tick,
    /** Stops reading the queue and waits for the sends in flight, their connections cut. */
    async close() {
      closing = true;
      await reading;
      agent.destroyAll();
      await Promise.allSettled([...sending]);
      agent.destroy();
    },
  };
}
