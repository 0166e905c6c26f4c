/** SQL for push subscriptions and the queue of order updates (api/push/README.md). */
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { OrderStatus } from '../../domain/orders.js';
import type { PushSubscriptionInput } from '../../domain/push.js';
import { type OrderUpdatePush, orderUpdatePush } from '../../domain/push.js';
import type { Database } from '../db/schema.js';
import { readShopSettings } from '../settings/settings.service.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Devices one account may have: a sixth subscribing drops the one that subscribed longest ago. */
export const MAX_DEVICES = 5;

/**
 * Keeps a device's subscription for the account and session that sent it. An endpoint is one
 * browser on one device: subscribing it again (a new login there, another account on a shared
 * phone) moves it to whoever subscribed it last, with the keys it has now. A session has one
 * device, so its earlier endpoint goes; and past MAX_DEVICES the account's oldest goes, so a
 * shopper's new phone always works and one account never fans a move out to many endpoints.
 */
export async function saveSubscription(
  db: Kysely<Database>,
  userId: number,
  sessionId: string,
  sub: PushSubscriptionInput,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Holds the account's row until commit: two devices subscribing at once both see the other.
    await trx
      .updateTable('users')
      .set((eb) => ({ order_updates: eb.ref('order_updates') }))
      .where('id', '=', userId)
      .execute();
    await trx
      .insertInto('push_subscriptions')
      .values({
        user_id: userId,
        session_id: sessionId,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        created_at: now,
        subscribed_at: now,
        failing_since: null,
      })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          user_id: userId,
          session_id: sessionId,
          p256dh: sub.keys.p256dh,
          auth: sub.keys.auth,
          subscribed_at: now,
          failing_since: null,
          // An admin's new-order notifications are that admin's choice on the device: a device that
          // moves to another account starts without them (the right-hand side reads the row as it was).
          new_orders: sql<number>`case when push_subscriptions.user_id = ${userId} then push_subscriptions.new_orders else 0 end`,
        }),
      )
      .execute();
    await trx
      .deleteFrom('push_subscriptions')
      .where('session_id', '=', sessionId)
      .where('endpoint', '!=', sub.endpoint)
      .execute();
    const kept = trx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('subscribed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_DEVICES);
    await trx
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('id', 'not in', kept)
      .execute();
  });
}

/**
 * Whether this session already holds this endpoint with these keys: the page posts its
 * subscription again at every load, and that repeat changes nothing, so it is not counted
 * against the subscribing limit.
 */
export async function alreadySubscribed(
  db: Db,
  userId: number,
  sessionId: string,
  sub: PushSubscriptionInput,
): Promise<boolean> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('endpoint', '=', sub.endpoint)
    .where('user_id', '=', userId)
    .where('session_id', '=', sessionId)
    .where('p256dh', '=', sub.keys.p256dh)
    .where('auth', '=', sub.keys.auth)
    .executeTakeFirst();
  return row !== undefined;
}

/** A refreshed subscription counts as the newest device again. */
export async function touchSubscription(db: Db, endpoint: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ subscribed_at: now })
    .where('endpoint', '=', endpoint)
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

/** A session that can still be used: not revoked, not expired (a missing row has ended too). */
export function liveSession(eb: ExpressionBuilder<Database, 'push_subscriptions'>, now: number) {
  return eb.exists(
    eb
      .selectFrom('sessions')
      .select('sessions.id')
      .whereRef('sessions.id', '=', 'push_subscriptions.session_id')
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now),
  );
}

/**
 * Forgets the devices whose session has ended (logged out elsewhere, revoked by a password
 * change, expired): a push there would tell whoever holds the phone now about the order. All of
 * them, or one shopper's.
 */
export async function forgetEndedSessions(db: Db, now: number, userId?: number): Promise<number> {
  let q = db.deleteFrom('push_subscriptions').where((eb) => eb.not(liveSession(eb, now)));
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The same, for the devices that have a push due now: none of them is sent to. */
export async function forgetEndedDue(db: Db, now: number): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('id', 'in', (eb) =>
      eb.selectFrom('push_queue').select('subscription_id').where('next_attempt_at', '<=', now),
    )
    .where((eb) => eb.not(liveSession(eb, now)))
    .execute();
}

/**
 * Queues one push per device of the order's shopper for a status move, titled with the shop's
 * name, in the move's own transaction: the push exists exactly when the move does, and the unique key (device, order,
 * status) keeps it to one, however many processes run. Sending happens later, outside.
 */
export async function queueOrderUpdate(
  trx: Db,
  orderId: number,
  to: OrderStatus,
  now = Date.now(),
): Promise<number> {
  if (to === 'placed') return 0;
  // The shop's name as its profile has it now: the notification's title.
  const push = orderUpdatePush(orderId, to, (await readShopSettings(trx)).profile.name);
  if (!push) return 0;
  const order = await trx.selectFrom('orders').select('user_id').where('id', '=', orderId).executeTakeFirst();
  if (!order) return 0;
  return queueShopperNotice(trx, { userId: order.user_id, orderId, once: to, payload: push }, now);
}

/**
 * Queues a notice for every device of an account that is not a status move: a refund processed,
 * a paid order that could not be placed. `orderId` is the order it is about (0 when there is
 * none) and `once` its key among that order's pushes (`refund-12`), so a notice queued twice (two
 * processes, a repeated event) is sent once. The payload has the shape of an order update
 * (`OrderUpdatePush`: the worker shows its title and body; one without an order carries
 * `orderID` 0 and opens `url`).
 */
export async function queueShopperNotice(
  trx: Db,
  n: {
    userId: number;
    orderId: number;
    once: string;
    payload: OrderUpdatePush | (Omit<OrderUpdatePush, 'orderID'> & { orderID: 0 });
  },
  now = Date.now(),
): Promise<number> {
  await forgetEndedSessions(trx, now, n.userId);
  const payload = JSON.stringify(n.payload);
  const result = await trx
    .insertInto('push_queue')
    .columns(['subscription_id', 'order_id', 'status', 'payload', 'next_attempt_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_subscriptions')
        .innerJoin('users', 'users.id', 'push_subscriptions.user_id')
        .where('push_subscriptions.user_id', '=', n.userId)
        .where('users.order_updates', '=', 1)
        .where((eb) => liveSession(eb, now))
        .select([
          'push_subscriptions.id',
          sql<number>`${n.orderId}`.as('order_id'),
          sql<string>`${n.once}`.as('status'),
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
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  attempts: number;
  nextAttemptAt: number;
}

/**
 * Pushes due now, oldest first, at most `perAccount` of each account: however many one account
 * has waiting, the others' come in the same read. Only devices of live sessions.
 */
export async function duePushes(db: Db, now: number, limit: number, perAccount: number): Promise<DuePush[]> {
  const ranked = db
    .selectFrom('push_queue')
    .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
    .select((eb) => [
      'push_queue.id',
      'push_queue.subscription_id',
      'push_subscriptions.user_id',
      'push_subscriptions.endpoint',
      'push_subscriptions.p256dh',
      'push_subscriptions.auth',
      'push_queue.payload',
      'push_queue.attempts',
      'push_queue.next_attempt_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) =>
          ob
            .partitionBy('push_subscriptions.user_id')
            .orderBy('push_queue.next_attempt_at')
            .orderBy('push_queue.id'),
        )
        .as('place'),
    ])
    .where('push_queue.next_attempt_at', '<=', now)
    .where((eb) => liveSession(eb, now));
  const rows = await db
    .selectFrom(ranked.as('due'))
    .selectAll()
    .where('due.place', '<=', perAccount)
    .orderBy('due.next_attempt_at')
    .orderBy('due.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    subscriptionId: r.subscription_id,
    userId: r.user_id,
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

/** The push is done with (sent, or given up): its row goes. */
export async function pushDone(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_queue').where('id', '=', id).execute();
}

/** The push service took a push: the device works, whatever failed before. */
export async function pushSent(db: Db, push: DuePush): Promise<void> {
  await pushDone(db, push.id);
  await db
    .updateTable('push_subscriptions')
    .set({ failing_since: null })
    .where('id', '=', push.subscriptionId)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * A try failed: notes since when the device has been failing, and says it. A device that a
 * new push still cannot reach after a day is given up (the caller drops it).
 */
export async function deviceFailing(db: Db, subscriptionId: number, now: number): Promise<number> {
  await db
    .updateTable('push_subscriptions')
    .set({ failing_since: now })
    .where('id', '=', subscriptionId)
    .where('failing_since', 'is', null)
    .execute();
  const row = await db
    .selectFrom('push_subscriptions')
    .select('failing_since')
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  return Number(row?.failing_since ?? now);
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
