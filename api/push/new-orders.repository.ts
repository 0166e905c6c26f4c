/**
 * New orders on the admins' devices (README.md, "New orders on the admins' devices"): the notice
 * queued in the order's own transaction for every device an admin turned them on, and that
 * switch. Sending is the shopper's pushes' sender, with its allow-list, deadlines and limits.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { OrderStatus } from '../../domain/orders.js';
import { newOrderPush } from '../../domain/push.js';
import { ADMIN_ROLE } from '../../domain/roles.js';
import type { DeliverySlot } from '../../domain/slots.js';
import type { Database } from '../db/schema.js';
import { liveSession } from './push.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The notice's key among its order's pushes (`push_queue.status`): one per device and order. */
export const NEW_ORDER_NOTICE = 'new-order';

/** What the notice says of an order, as the order is written (`NewOrder` in ../orders/order.repository.ts). */
export interface NoticedOrder {
  status: OrderStatus;
  deliveryDate: string;
  slot: Pick<DeliverySlot, 'name' | 'start' | 'end'>;
  paymentMethod: string;
  totals: { total: number };
  now: number;
}

/**
 * Queues "New order #N" for every device whose admin turned new-order notices on there, in the
 * transaction that writes the order (the page's place-order and the server's own placing of a
 * paid order alike): the notice exists exactly when the order does. Only admins still admins, on
 * live sessions; the unique key (device, order, 'new-order') keeps it to one. Nothing is deleted
 * here (ended sessions are the sender's sweep's), so placing orders never waits on the admins' rows.
 */
export async function queueNewOrderNotice(trx: Db, orderId: number, o: NoticedOrder): Promise<number> {
  // Most shops have no device asking, most of the time: a lookup on the partial index answers
  // that for a fraction of what planning the insert below costs on every order. Read in the
  // order's transaction like the insert, so it sees what the insert would have seen.
  const anyDevice = await trx
    .selectFrom('push_subscriptions')
    .select('id')
    .where('new_orders', '=', sql.lit(1))
    .limit(1)
    .executeTakeFirst();
  if (!anyDevice) return 0;
  const payload = JSON.stringify(
    newOrderPush({
      orderID: orderId,
      status: o.status,
      total: o.totals.total,
      paymentMethod: o.paymentMethod,
      deliveryDate: o.deliveryDate,
      slot: o.slot,
    }),
  );
  const result = await trx
    .insertInto('push_queue')
    .columns(['subscription_id', 'order_id', 'status', 'payload', 'next_attempt_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_subscriptions')
        .innerJoin('users', 'users.id', 'push_subscriptions.user_id')
        // A literal, so both databases can use the partial index on the devices that want them.
        .where('push_subscriptions.new_orders', '=', sql.lit(1))
        .where('users.role', '=', ADMIN_ROLE)
        .where((eb) => liveSession(eb, o.now))
        .select([
          'push_subscriptions.id',
          sql<number>`${orderId}`.as('order_id'),
          sql<string>`${NEW_ORDER_NOTICE}`.as('status'),
          sql<string>`${payload}`.as('payload'),
          sql<number>`${o.now}`.as('next_attempt_at'),
          sql<number>`${o.now}`.as('created_at'),
        ]),
    )
    .onConflict((oc) => oc.columns(['subscription_id', 'order_id', 'status']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Turns new-order notices on or off on one of the admin's own devices (by its endpoint); false
 * when the admin has no such device (it must subscribe first). Off drops what was queued for it.
 */
export async function setNewOrderAlerts(
  db: Db,
  userId: number,
  endpoint: string,
  on: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('push_subscriptions')
    .set({ new_orders: on ? 1 : 0 })
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  if (!on) {
    await db
      .deleteFrom('push_queue')
      .where('status', '=', NEW_ORDER_NOTICE)
      .where('subscription_id', 'in', (eb) =>
        eb.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint),
      )
      .execute();
  }
  return true;
}

/** How many of the admin's devices hear of new orders. */
export async function newOrderDevices(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('new_orders', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
