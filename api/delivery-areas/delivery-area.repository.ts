/**
 * All SQL of the delivery areas. Rows stay here; callers get `domain/delivery-areas.ts` shapes.
 * A removed pincode keeps its row with `deleted_at` set and the version of its removal: the feed
 * tells devices about it, and adding the pincode again brings the row back.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import type { Database } from '../db/schema.js';
import type { DeliveryAreasTable } from './delivery-area.tables.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The stored slot ids; text that is not an array of integers reads as every slot (the default). */
function slotIds(text: string | null): number[] | null {
  if (text === null) return null;
  try {
    const ids: unknown = JSON.parse(text);
    return Array.isArray(ids) && ids.every(Number.isInteger) ? (ids as number[]) : null;
  } catch {
    return null;
  }
}

function toArea(r: Selectable<DeliveryAreasTable>): DeliveryArea {
  return {
    pincode: r.pincode,
    city: r.city,
    state: r.state,
    charge: Number(r.charge),
    slotIDs: slotIds(r.slot_ids),
    sameDay: Number(r.same_day) === 1,
  };
}

/** Every pincode the shop delivers to, by pincode. */
export async function listAreas(db: Db): Promise<DeliveryArea[]> {
  const rows = await db
    .selectFrom('delivery_areas')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('pincode')
    .execute();
  return rows.map(toArea);
}

/** How many pincodes the shop delivers to. */
export async function countAreas(db: Db): Promise<number> {
  const row = await db
    .selectFrom('delivery_areas')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The live area of a pincode, or null (never delivered to, or removed). */
export async function findAreaByPincode(db: Db, pincode: string): Promise<DeliveryArea | null> {
  const row = await db
    .selectFrom('delivery_areas')
    .selectAll()
    .where('pincode', '=', pincode)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toArea(row) : null;
}

/** Live areas changed in the catalogue version window (after, upTo], by pincode. */
export async function changedAreas(db: Db, window: { after: number; upTo: number }): Promise<DeliveryArea[]> {
  const rows = await db
    .selectFrom('delivery_areas')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('pincode')
    .execute();
  return rows.map(toArea);
}

/** Pincodes removed in the window (after, upTo]. */
export async function removedPincodes(db: Db, window: { after: number; upTo: number }): Promise<string[]> {
  const rows = await db
    .selectFrom('delivery_areas')
    .select('pincode')
    .where('deleted_at', 'is not', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('pincode')
    .execute();
  return rows.map((r) => r.pincode);
}

/** Adds or changes a pincode (bringing a removed one back), stamped with the change's version. */
export async function upsertArea(
  trx: Transaction<Database>,
  area: DeliveryArea,
  version: number,
  now: number,
): Promise<void> {
  const row = {
    city: area.city,
    state: area.state,
    charge: area.charge,
    slot_ids: area.slotIDs === null ? null : JSON.stringify(area.slotIDs),
    same_day: area.sameDay ? 1 : 0,
    version,
    updated_at: now,
    deleted_at: null,
  };
  await trx
    .insertInto('delivery_areas')
    .values({ pincode: area.pincode, ...row })
    .onConflict((oc) => oc.column('pincode').doUpdateSet(row))
    .execute();
}

/** Removes a live pincode, keeping its tombstone at the removal's version; null when it was not live. */
export async function removeArea(
  trx: Transaction<Database>,
  pincode: string,
  version: number,
  now: number,
): Promise<DeliveryArea | null> {
  const row = await trx
    .updateTable('delivery_areas')
    .set({ deleted_at: now, updated_at: now, version })
    .where('pincode', '=', pincode)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toArea(row) : null;
}
