/**
 * Orders, exactly once. The idempotency key is claimed in the same transaction
 * as the order (primary key (user_id, key)), so a committed order always has
 * its stored answer and a failed one leaves no key behind. Coupon redemptions
 * are unique per (coupon, user), and single-use coupons also fill a globally
 * unique slot, so a coupon raced by many orders is redeemed once: the database
 * says no, not a read-then-write check. Webhook events are remembered by id so
 * a repeated delivery is handled once.
 */
import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('idempotency_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('delivery_date', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('customer_phone', 'text', (c) => c.notNull())
    .addColumn('customer_address', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('pincode', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    // Whole rupees, as the server priced them.
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('delivery_charge', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('coupon_code', 'text')
    // One provider payment pays one order.
    .addColumn('provider_order_id', 'text', (c) => c.unique())
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('orders_user_created')
    .on('orders')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('orders_created').on('orders').column('created_at').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // No foreign key to products: a product deleted later must not change or block past orders.
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('variation_id', 'integer')
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('variation_name', 'text')
    .addColumn('product_image', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('line_total', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // SHA-256 of the canonical request body: the same key with another body is refused.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('cascade'))
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('coupons')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('discount_amount', 'integer', (c) => c.notNull())
    .addColumn('first_order_only', 'integer', (c) => c.notNull().defaultTo(0))
    // 1: the whole shop may redeem it once (a gift code); 0: once per account.
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('coupons')
    .values({
      code: 'SAVE200',
      discount_amount: 200,
      first_order_only: 1,
      single_use: 0,
      active: 1,
      expires_at: null,
      created_at: Date.UTC(2026, 10, 23),
    })
    .execute();

  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('coupon_code', 'text', (c) => c.notNull().references('coupons.code'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // The coupon's code for single-use coupons, null otherwise (nulls never collide in a unique index).
    .addColumn('single_use_slot', 'text', (c) => c.unique())
    .addColumn('redeemed_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('coupon_redemptions_once_per_user', ['coupon_code', 'user_id'])
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // created -> failed | authorized -> captured; webhooks only move it forward.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_user_key')
    .on('payments')
    .columns(['user_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('provider_order_id', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'payment_events',
    'payments',
    'coupon_redemptions',
    'coupons',
    'idempotency_keys',
    'order_items',
    'orders',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
