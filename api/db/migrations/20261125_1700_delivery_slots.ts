/**
 * Delivery slots. A slot is a window of the delivery day in India
 * minutes, a surcharge, a cut-off (a minute of the delivery day, negative
 * for the days before), a capacity per day (null: no limit) and its weekdays
 * ("0123456", Sunday first). Retiring sets `retired_at`: past orders keep
 * their slot. Closed dates carry the message shoppers see.
 *
 * Standard, the spec's own delivery (10 AM to 9 PM, free, same day until
 * 6 PM), is made here and not by the demo seed: an order that names no slot
 * is Standard in every shop, seeded or not. Its values are written out
 * rather than imported: migrations are frozen in time.
 *
 * An order keeps a copy of its slot (name, window, charge) beside the slot's
 * id, so editing a slot later changes no placed order; orders placed before
 * slots existed were Standard deliveries and say so. The index on
 * (delivery_date, slot_id) serves the capacity count, the admin's filters
 * and the dashboard's deliveries.
 */
import { type Kysely, sql } from 'kysely';
import { idColumn, idType, isPostgres } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_slots')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start_minute', 'integer', (c) => c.notNull())
    .addColumn('end_minute', 'integer', (c) => c.notNull())
    .addColumn('surcharge', 'integer', (c) => c.notNull())
    .addColumn('cutoff_minute', 'integer', (c) => c.notNull())
    .addColumn('capacity', 'integer')
    .addColumn('weekdays', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retired_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('delivery_closures')
    .addColumn('date', 'text', (c) => c.primaryKey())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  const now = Date.now();
  await db
    .insertInto('delivery_slots')
    .values({
      id: 1,
      name: 'Standard',
      start_minute: 600,
      end_minute: 1260,
      surcharge: 0,
      cutoff_minute: 1080,
      capacity: null,
      weekdays: '0123456',
      position: 0,
      is_default: 1,
      retired_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // A serial's sequence does not move for an id given by hand: the next slot the admin adds must not take 1.
  if (isPostgres(db)) {
    await sql`select setval(pg_get_serial_sequence('delivery_slots', 'id'), 1)`.execute(db);
  }

  // No foreign key: slots are retired, never deleted, and SQLite cannot drop a column that has one (down()).
  await db.schema.alterTable('orders').addColumn('slot_id', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('slot_name', 'text').execute();
  await db.schema.alterTable('orders').addColumn('slot_start', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('slot_end', 'integer').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('slot_charge', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('orders')
    .set({ slot_id: 1, slot_name: 'Standard', slot_start: 600, slot_end: 1260 })
    .execute();
  // Devices already synced learn of the slots with their next catalogue sync: the version moves.
  await sql`update catalogue_state set version = version + 1`.execute(db);
  await db.schema
    .createIndex('orders_delivery_slot')
    .on('orders')
    .columns(['delivery_date', 'slot_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_delivery_slot').execute();
  for (const column of ['slot_charge', 'slot_end', 'slot_start', 'slot_name', 'slot_id']) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
  await db.schema.dropTable('delivery_closures').execute();
  await db.schema.dropTable('delivery_slots').execute();
}
