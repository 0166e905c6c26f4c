/**
 * Every status change of an order, with who made it, when and the admin's
 * note: the admin's order page shows it as a timeline. The order's first
 * status is not a row (the order's own `created_at` says when and the
 * customer made it). `changed_by` is the admin's user id; the email is kept
 * too, so the timeline still reads right if that account is removed.
 * The status index serves the dashboard's "waiting" counts and the orders filter.
 */
import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_status_history')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'integer')
    .addColumn('changed_by_email', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_status_history_order')
    .on('order_status_history')
    .columns(['order_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('orders_status_created')
    .on('orders')
    .columns(['status', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_status_created').execute();
  await db.schema.dropTable('order_status_history').execute();
}
