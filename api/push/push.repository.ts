import { type Kysely, sql, type Transaction } from 'kysely';
import type { OrderStatus } from '../../domain/orders.js';
import type { PushSubscriptionInput } from '../../domain/push.js';
import { orderUpdatePush } from '../../domain/push.js';
import type { Database } from '../db/schema.js';

/** SQL for push subscriptions and the queue of order updates (api/push/README.md). */
type Db = Kysely<Database> | Transaction<Database>;

export async function saveSubscription(
  db: Db,
  userId: number,
  sessionId: string,
  sub: PushSubscriptionInput,
  now = Date.now(),
): Promise<void> {
  // An endpoint is one browser on one device: subscribing it again (a new login there, another
  // account on a shared phone) moves it to whoever subscribed it last, with the keys it has now.
  await db
    .insertInto('push_subscriptions')
    .values({
      user_id: userId,
      session_id: sessionId,
      endpoint: sub.endpoint,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        user_id: userId,
        session_id: sessionId,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
      }),
    )
    .execute();
}

export async function deviceCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Only the shopper's own: another account's subscription is never touched. */
export async function removeSubscription(db: Db, userId: number, endpoint: string): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .execute();
}

/** Logging out on a device forgets that device: its pushes would tell the next person about the order. */
export async function removeSessionSubscriptions(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('session_id', '=', sessionId).execute();
}

/**
 * Queues one push per device of the order's shopper for a status move, in the move's own
 * transaction: the push exists exactly when the move does, and the unique key (device, order,
 * status) keeps it to one, however many processes run. Sending happens later, outside.
 */
export async function queueOrderUpdate(
  trx: Db,
  orderId: number,
  to: OrderStatus,
  now = Date.now(),
): Promise<number> {
  const push = orderUpdatePush(orderId, to);
  if (!push) return 0;
  const payload = JSON.stringify(push);
  const result = await trx
    .insertInto('push_queue')
    .columns(['subscription_id', 'order_id', 'status', 'payload', 'next_attempt_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_subscriptions')
        .innerJoin('orders', 'orders.user_id', 'push_subscriptions.user_id')
        .innerJoin('users', 'users.id', 'push_subscriptions.user_id')
        .where('orders.id', '=', orderId)
        .where('users.order_updates', '=', 1)
        .select([
          'push_subscriptions.id',
          sql<number>`${orderId}`.as('order_id'),
          sql<string>`${to}`.as('status'),
          sql<string>`${payload}`.as('payload'),
          sql<number>`${now}`.as('next_attempt_at'),
          sql<number>`${now}`.as('created_at'),
        ]),
    )
    .onConflict((oc) => oc.columns(['subscription_id', 'order_id', 'status']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export interface DuePush {
  id: number;
  subscriptionId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  attempts: number;
  nextAttemptAt: number;
}

export async function duePushes(db: Db, now: number, limit: number): Promise<DuePush[]> {
  const rows = await db
    .selectFrom('push_queue')
    .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
    .select([
      'push_queue.id',
      'push_queue.subscription_id',
      'push_subscriptions.endpoint',
      'push_subscriptions.p256dh',
      'push_subscriptions.auth',
      'push_queue.payload',
      'push_queue.attempts',
      'push_queue.next_attempt_at',
    ])
    .where('push_queue.next_attempt_at', '<=', now)
    .orderBy('push_queue.next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    subscriptionId: r.subscription_id,
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    payload: r.payload,
    attempts: r.attempts,
    nextAttemptAt: Number(r.next_attempt_at),
  }));
}

/**
 * Takes a due push for this process: it moves `next_attempt_at` forward from the value it read
 * (compare and set), so with several processes exactly one of them sends it. If this process
 * dies before it finishes, the row comes due again after `holdMs` and another sends it.
 */
export async function claimPush(db: Db, push: DuePush, until: number): Promise<boolean> {
  const result = await db
    .updateTable('push_queue')
    .set({ next_attempt_at: until })
    .where('id', '=', push.id)
    .where('next_attempt_at', '=', push.nextAttemptAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function pushSent(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_queue').where('id', '=', id).execute();
}

export async function pushFailed(
  db: Db,
  id: number,
  attempts: number,
  next: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('push_queue')
    .set({ attempts, next_attempt_at: next, last_error: error.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

/** The push service says the subscription is gone (404, 410): the device and its queued pushes go. */
export async function subscriptionGone(db: Db, subscriptionId: number): Promise<void> {
  await db.deleteFrom('push_queue').where('subscription_id', '=', subscriptionId).execute();
  await db.deleteFrom('push_subscriptions').where('id', '=', subscriptionId).execute();
}

export async function orderUpdatesWanted(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('order_updates')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.order_updates !== 0;
}

export async function setOrderUpdates(db: Db, userId: number, wanted: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ order_updates: wanted ? 1 : 0, updated_at: Date.now() })
    .where('id', '=', userId)
    .execute();
  // Off means off now: what was queued for this shopper is not sent.
  if (!wanted) {
    await db
      .deleteFrom('push_queue')
      .where('subscription_id', 'in', (eb) =>
        eb.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId),
      )
      .execute();
  }
}
