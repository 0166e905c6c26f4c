/**
 * The money paths' guards (issue 45, and "one cart is paid once" of issue 46).
 *
 * `payments.cart_key`: what the provider order pays for, as `domain/payment-cart.ts` `cartKey`
 * writes it (the lines, the date, the slot, the address), hashed: a new ask for the same cart reuses
 * the open provider order, and an order placed for the cart closes the account's other open ones.
 * `payments.coupon_code`: the coupon its kept request carries, so a coupon is in one open payment of
 * an account at a time. `payments.asked_at`: when the provider was last asked about it (the
 * reconciliation takes the least recently asked first; the attempts endpoint asks at most every 15 s).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was, untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('cart_key', 'text').execute();
  await db.schema.alterTable('payments').addColumn('coupon_code', 'text').execute();
  await db.schema.alterTable('payments').addColumn('asked_at', 'bigint').execute();
  await db.schema
    .createIndex('payments_user_open')
    .on('payments')
    .columns(['user_id', 'order_id', 'outcome'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payments_user_open').execute();
  for (const column of ['asked_at', 'coupon_code', 'cart_key']) {
    await db.schema.alterTable('payments').dropColumn(column).execute();
  }
}
