/**
 * The owner hears a new order (api/push/README.md, "New orders on the admins' devices";
 * api/admin/README.md, "Live orders"): `push_subscriptions.new_orders` is 1 on a device whose admin
 * turned on new-order notifications there (one device, not the whole account: the laptop in the
 * kitchen, not the phone at home); `orders_updated` serves the open admin screens' question
 * "what changed since", a range of the newest `updated_at`.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('push_subscriptions')
    .addColumn('new_orders', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Every order looks for the devices that want it: few among all the shoppers' devices.
  await db.schema
    .createIndex('push_subscriptions_new_orders')
    .on('push_subscriptions')
    .column('new_orders')
    .where(sql.ref('new_orders'), '=', sql.lit(1))
    .execute();
  await db.schema.createIndex('orders_updated').on('orders').column('updated_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_updated').execute();
  await db.schema.dropIndex('push_subscriptions_new_orders').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('new_orders').execute();
}
