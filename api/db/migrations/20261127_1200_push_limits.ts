/**
 * Limits on order pushes (api/push/README.md): when each device last handed its subscription to
 * the shop (the oldest goes when a sixth device subscribes), and since when every try to reach it
 * has failed (it goes after a day of failures). Rows from before start as subscribed when made.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('push_subscriptions')
    .addColumn('subscribed_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('push_subscriptions').addColumn('failing_since', 'bigint').execute();
  await db
    .updateTable('push_subscriptions')
    .set((eb) => ({ subscribed_at: eb.ref('created_at') }))
    .execute();
  await db.schema
    .createIndex('push_subscriptions_session')
    .on('push_subscriptions')
    .column('session_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('push_subscriptions_session').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('failing_since').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('subscribed_at').execute();
}
