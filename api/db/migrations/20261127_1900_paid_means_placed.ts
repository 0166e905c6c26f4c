/**
 * Paid means placed, cancelled means refunded.
 *
 * `payments` keeps, with each provider order, the priced order request it was made for
 * (`request_json`, the body of `POST /payments/razorpay/order` under the same Idempotency-Key), so
 * the server can place the order itself when the payment arrives and the page never sends it.
 * `paid_at` is when the provider says the payment was made (its `created_at`): the order's rules
 * are judged as at that moment. `authorized_at` is when this server first saw the payment
 * authorized (an authorized payment not captured within 10 minutes is captured by the server).
 * `outcome` is what became of a paid provider order that has no order: `refunded` (it could not be
 * placed; `outcome_reason` says why) or, for one never paid, `closed` after a day (`closed_at`).
 *
 * `refunds`: one row per refund asked of the provider, under its own `X-Refund-Idempotency` key
 * (unique: a cancelled order's refund has the key `cancel-<order id>`, so however often Cancel is
 * pressed, on whichever process, there is one).
 */
import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was, untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('request_json', 'text').execute();
  await db.schema.alterTable('payments').addColumn('paid_at', 'bigint').execute();
  await db.schema.alterTable('payments').addColumn('authorized_at', 'bigint').execute();
  await db.schema.alterTable('payments').addColumn('closed_at', 'bigint').execute();
  await db.schema.alterTable('payments').addColumn('outcome', 'text').execute();
  await db.schema.alterTable('payments').addColumn('outcome_reason', 'text').execute();
  await db.schema
    .createIndex('payments_open')
    .on('payments')
    .columns(['order_id', 'outcome', 'created_at'])
    .execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('payment_row_id', 'integer', (c) => c.notNull().references('payments.id'))
    .addColumn('order_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('amount_paise', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text', (c) => c.unique())
    .addColumn('failure_reason', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .addColumn('notified_at', 'bigint')
    .execute();
  await db.schema.createIndex('refunds_payment').on('refunds').column('payment_row_id').execute();
  await db.schema.createIndex('refunds_order').on('refunds').column('order_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropIndex('payments_open').execute();
  for (const column of [
    'outcome_reason',
    'outcome',
    'closed_at',
    'authorized_at',
    'paid_at',
    'request_json',
  ]) {
    await db.schema.alterTable('payments').dropColumn(column).execute();
  }
}
