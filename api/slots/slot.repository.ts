/**
 * All SQL of delivery slots and closed dates. Rows stay here; callers get
 * `domain/slots.ts` shapes.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { ClosedDate, DeliverySlot, SlotInput } from '../../domain/slots.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { DeliverySlotsTable } from './slot.tables.js';

type Db = Kysely<Database> | Transaction<Database>;

function toSlot(r: Selectable<DeliverySlotsTable>): DeliverySlot {
  return {
    slotID: r.id,
    name: r.name,
    start: r.start_minute,
    end: r.end_minute,
    surcharge: Number(r.surcharge),
    cutoff: r.cutoff_minute,
    capacity: r.capacity === null ? null : Number(r.capacity),
    weekdays: [...r.weekdays].map(Number),
    isDefault: Number(r.is_default) === 1,
    retired: r.retired_at !== null,
    position: r.position,
  };
}

/** Every slot in the shop's order; retired ones only when asked (the admin's list). */
export async function listSlots(db: Db, options: { retired?: boolean } = {}): Promise<DeliverySlot[]> {
  let q = db.selectFrom('delivery_slots').selectAll();
  if (!options.retired) q = q.where('retired_at', 'is', null);
  const rows = await q.orderBy('position').orderBy('start_minute').orderBy('id').execute();
  return rows.map(toSlot);
}

export async function findSlot(db: Db, id: number): Promise<DeliverySlot | null> {
  const row = await db.selectFrom('delivery_slots').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSlot(row) : null;
}

/** Closed dates from `from` on (the past ones matter to no one), in date order. */
export async function listClosures(db: Db, from: string | null): Promise<ClosedDate[]> {
  let q = db.selectFrom('delivery_closures').select(['date', 'message']);
  if (from) q = q.where('date', '>=', from);
  return q.orderBy('date').execute();
}

/** Orders that are not cancelled, by date and slot, for the given dates: `${date}|${slotID}` to count. */
export async function bookedCounts(db: Db, dates: readonly string[]): Promise<Map<string, number>> {
  if (!dates.length) return new Map();
  const rows = await db
    .selectFrom('orders')
    .select(['delivery_date', 'slot_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('delivery_date', 'in', [...dates])
    .where('status', '!=', 'cancelled')
    .where('slot_id', 'is not', null)
    .groupBy(['delivery_date', 'slot_id'])
    .execute();
  return new Map(rows.map((r) => [`${r.delivery_date}|${r.slot_id}`, Number(r.n)]));
}

/**
 * The account's orders in one slot on one date that hold a place without a payment (no verified
 * payment, not cancelled): what `MAX_UNPAID_PER_SLOT` caps. Counted under the slot's lock, like
 * `bookedCounts`, so a burst of one account's orders counts one after the other.
 */
export async function unpaidOrdersInSlot(
  db: Db,
  userId: number,
  date: string,
  slotId: number,
): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('delivery_date', '=', date)
    .where('slot_id', '=', slotId)
    .where('status', '!=', 'cancelled')
    .where('payment_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Holds the slot's row until the transaction ends, so two orders for its last
 * place count one after the other (PostgreSQL, where transactions run side by
 * side; under READ COMMITTED the count after the lock sees what the previous
 * holder committed). SQLite runs one write transaction at a time: the count
 * inside the transaction already sees every order before it.
 */
export async function lockSlot(trx: Transaction<Database>, dialect: Dialect, id: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from delivery_slots where id = ${id} for update`.execute(trx);
}

function columns(input: SlotInput, now: number) {
  return {
    name: input.name,
    start_minute: input.start,
    end_minute: input.end,
    surcharge: input.surcharge,
    cutoff_minute: input.cutoff,
    capacity: input.capacity,
    weekdays: input.weekdays.join(''),
    position: input.position,
    updated_at: now,
  };
}

export async function insertSlot(db: Db, input: SlotInput, now: number): Promise<DeliverySlot> {
  const row = await db
    .insertInto('delivery_slots')
    .values({ ...columns(input, now), is_default: 0, retired_at: null, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSlot(row);
}

export async function updateSlot(
  db: Db,
  id: number,
  input: SlotInput,
  now: number,
): Promise<DeliverySlot | null> {
  const row = await db
    .updateTable('delivery_slots')
    .set(columns(input, now))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toSlot(row) : null;
}

/** Retires (or, with null, offers again) a slot. */
export async function setRetired(
  db: Db,
  id: number,
  at: number | null,
  now: number,
): Promise<DeliverySlot | null> {
  const row = await db
    .updateTable('delivery_slots')
    .set({ retired_at: at, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toSlot(row) : null;
}

export async function upsertClosure(db: Db, date: string, message: string, now: number): Promise<void> {
  await db
    .insertInto('delivery_closures')
    .values({ date, message, created_at: now })
    .onConflict((oc) => oc.column('date').doUpdateSet({ message }))
    .execute();
}

export async function deleteClosure(db: Db, date: string): Promise<boolean> {
  const res = await db.deleteFrom('delivery_closures').where('date', '=', date).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** The demo shop's slots by fixed ids: processes seeding one database together add them once. */
export async function seedSlots(
  db: Db,
  slots: readonly (SlotInput & { slotID: number })[],
  now: number,
  dialect: Dialect,
): Promise<void> {
  for (const s of slots) {
    await db
      .insertInto('delivery_slots')
      .values({ id: s.slotID, ...columns(s, now), is_default: 0, retired_at: null, created_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
  // A serial's sequence does not move for ids given by hand: the admin's next slot must not collide.
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('delivery_slots', 'id'), (select max(id) from delivery_slots))`.execute(
      db,
    );
  }
}

/**
 * Moves the catalogue's version for a change of slots or closed dates and stamps it as the slots'
 * own version, in the writer's transaction: every device past the old version gets them again
 * with its next delta, and no other delta carries them (api/catalogue/catalogue.feed.ts).
 */
export async function bumpSlotsVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable('catalogue_state')
    // Both right-hand sides read the row as it was: the two columns end equal.
    .set((eb) => ({ version: eb('version', '+', 1), slots_version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The catalogue version at which the slots or closed dates last changed (0: never since the column came). */
export async function slotsVersion(db: Db): Promise<number> {
  const row = await db
    .selectFrom('catalogue_state')
    .select('slots_version')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.slots_version);
}
