/**
 * Gifts. A product may take a message on the cake and may be a photo cake (integers
 * 0/1, as the other flags). An order may go to a recipient (the order's address is theirs), may
 * hide its price and its sender, and may carry a card; a line may carry the cake's message and
 * the id of its photo.
 *
 * Cake photos are private: their bytes live in their own table on both databases (never in the
 * media store that `/media/` serves), so every process of a shop sees them and a backup takes
 * them. `(user_id, idempotency_key)` is unique: an upload retried by the device after a lost
 * answer finds the photo it made the first time.
 *
 * No foreign keys on the new columns, so down() runs on SQLite (it cannot drop a column that
 * has one; the backup-restore test undoes the latest migration).
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { idColumn, idType, isPostgres } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await db.schema.alterTable('products').addColumn('takes_message', 'integer', flag).execute();
  await db.schema.alterTable('products').addColumn('photo_cake', 'integer', flag).execute();

  await db.schema.alterTable('orders').addColumn('recipient_name', 'text').execute();
  await db.schema.alterTable('orders').addColumn('recipient_phone', 'text').execute();
  await db.schema.alterTable('orders').addColumn('hide_price', 'integer', flag).execute();
  await db.schema.alterTable('orders').addColumn('hide_sender', 'integer', flag).execute();
  await db.schema.alterTable('orders').addColumn('card_occasion', 'text').execute();
  await db.schema.alterTable('orders').addColumn('card_message', 'text').execute();

  await db.schema.alterTable('order_items').addColumn('cake_message', 'text').execute();
  await db.schema.alterTable('order_items').addColumn('photo_id', 'text').execute();

  const bytes = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema
    .createTable('cake_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('full_webp', bytes, (c) => c.notNull())
    .addColumn('preview_webp', bytes, (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('cake_photos_user_key', ['user_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('saved_recipients')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('pincode', 'text', (c) => c.notNull())
    // SHA-256 of the recipient's fields: the same recipient saved twice is one row, and an index on
    // a hash stays small where one on the address itself could pass PostgreSQL's btree row limit.
    .addColumn('same_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('saved_recipients_same', ['user_id', 'same_key'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_recipients').execute();
  await db.schema.dropTable('cake_photos').execute();
  for (const column of ['photo_id', 'cake_message']) {
    await db.schema.alterTable('order_items').dropColumn(column).execute();
  }
  for (const column of [
    'card_message',
    'card_occasion',
    'hide_sender',
    'hide_price',
    'recipient_phone',
    'recipient_name',
  ]) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
  for (const column of ['photo_cake', 'takes_message']) {
    await db.schema.alterTable('products').dropColumn(column).execute();
  }
}
