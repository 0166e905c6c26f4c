/**
 * The server's side of the slot rule (`domain/slots.ts`): what a date offers,
 * and whether an order may have the slot it asks for. The rule itself is the
 * domain's; here are the database's facts (slots, closed dates, orders booked).
 */
import type { Kysely, Transaction } from 'kysely';
import { type DeliveryArea, slotsOfArea } from '../../domain/delivery-areas.js';
import { firstDateFor } from '../../domain/delivery-promise.js';
import { addDays, indiaClock } from '../../domain/india-time.js';
import { slotMessages } from '../../domain/slot-messages.js';
import {
  type ClosedDate,
  type DeliverySlot,
  defaultSlot,
  earliestSlotDate,
  nextFreeSlots,
  type SlotInput,
  type SlotRefusal,
  type SlotsForDate,
  slotOn,
  slotsOn,
} from '../../domain/slots.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import {
  bookedCounts,
  bumpSlotsVersion,
  deleteClosure,
  findSlot,
  insertSlot,
  listClosures,
  listSlots,
  lockSlot,
  setRetired,
  unpaidOrdersInSlot,
  updateSlot,
  upsertClosure,
} from './slot.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** How far the next free slots are looked for when one cannot be had. */
const OFFER_DAYS = 14;

function dates(from: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(from, i));
}

/** The public answer: a date's live slots with what is left of each. */
export async function slotsForDate(db: Db, date: string, now: Date): Promise<SlotsForDate> {
  const [slots, closures, counts] = await Promise.all([
    listSlots(db),
    listClosures(db, date),
    bookedCounts(db, [date]),
  ]);
  const closed = closures.find((c) => c.date === date)?.message ?? null;
  return {
    date,
    closed,
    slots: slotsOn(slots, date, now, closures, (id) => counts.get(`${date}|${id}`) ?? 0),
  };
}

/**
 * The earliest date an order can name now (the "too early" refusal says it); for a delivery area,
 * among the slots it gets and from tomorrow where it has no same-day delivery.
 */
export async function earliestBookableDate(
  db: Db,
  now: Date,
  area?: Pick<DeliveryArea, 'slotIDs' | 'sameDay'>,
): Promise<string | null> {
  const today = indiaClock(now).date;
  const [slots, closures] = await Promise.all([listSlots(db), listClosures(db, today)]);
  if (!area) return earliestSlotDate(slots, closures, now);
  const first = firstDateFor(area, { photoCake: false, noticeDays: 0, now });
  return earliestSlotDate(slotsOfArea(area, slots), closures, now, first);
}

function refusalMessage(
  problem: SlotRefusal['problem'],
  slot: DeliverySlot | null,
  date: string,
  closure: ClosedDate | undefined,
): string {
  const name = slot?.name ?? '';
  switch (problem) {
    case 'full':
      return slotMessages.slotFull(name, date);
    case 'past':
      return slotMessages.slotPast(name, date);
    case 'closed':
      return slotMessages.slotClosed(date, closure?.message ?? '');
    case 'not-running':
      return slotMessages.slotNotRunning(name, date);
    case 'retired':
      return slotMessages.slotRetired(name);
    default:
      return slotMessages.slotUnknown;
  }
}

/**
 * An order that would hold a place without paying: its account, and how many such orders one
 * account may hold in a capped slot on one date (`MAX_UNPAID_PER_SLOT`).
 */
export interface UnpaidCap {
  userId: number;
  max: number;
}

/**
 * The slot an order gets: the one it names, or the shop's default. In an
 * order's transaction (`lock`), the slot's row is held first, so its count
 * of orders is exact until the order commits: the last place goes once.
 * Under the same lock, an unpaid order (`cap`) in a slot with a capacity is
 * refused when its account already holds `cap.max` unpaid orders there on
 * that date, so one account cannot take every place and leave (`account-limit`).
 * Anything else is a 409 whose data carries the date's slots as they now
 * stand and the next free ones (an unknown id is a 400, with the same data).
 */
export async function takeSlot(
  db: Db,
  requested: number | null | undefined,
  date: string,
  now: Date,
  lock: { trx: Transaction<Database>; dialect: Dialect } | null,
  cap: UnpaidCap | null = null,
  /** Every slot (retired too) and the closed dates from today, when the caller has read them already. */
  known: { slots: DeliverySlot[]; closures: ClosedDate[] } | null = null,
): Promise<DeliverySlot> {
  const all = known?.slots ?? (await listSlots(db, { retired: true }));
  const live = all.filter((s) => !s.retired);
  const chosen = requested ? (all.find((s) => s.slotID === requested) ?? null) : defaultSlot(all);
  // Only a slot with a capacity has a last place to race for: an unlimited one (Standard) is not
  // locked, or every order of the shop would queue behind one row on PostgreSQL.
  if (chosen && chosen.capacity !== null && lock) await lockSlot(lock.trx, lock.dialect, chosen.slotID);
  const closures = known?.closures ?? (await listClosures(db, indiaClock(now).date));
  // An unlimited slot is never full: its count would change nothing, and counting a busy date's
  // orders was the costliest statement of an order.
  const dayCount =
    chosen && chosen.capacity !== null ? await bookedCounts(db, [date]) : new Map<string, number>();
  const state = chosen
    ? slotOn(chosen, date, now, {
        closed: closures.find((c) => c.date === date)?.message ?? null,
        booked: dayCount.get(`${date}|${chosen.slotID}`) ?? 0,
      }).state
    : null;
  const overCap =
    chosen !== null &&
    state === 'open' &&
    chosen.capacity !== null &&
    cap !== null &&
    (await unpaidOrdersInSlot(db, cap.userId, date, chosen.slotID)) >= cap.max;
  if (chosen && state === 'open' && !overCap) return chosen;

  const counts = await bookedCounts(
    db,
    dates(date < indiaClock(now).date ? indiaClock(now).date : date, OFFER_DAYS),
  );
  const booked = (d: string, id: number) => counts.get(`${d}|${id}`) ?? 0;
  const problem: SlotRefusal['problem'] = overCap
    ? 'account-limit'
    : state === null || state === 'open'
      ? 'unknown'
      : state;
  const data: SlotRefusal = {
    reason: 'slot',
    problem,
    date,
    slotID: chosen?.slotID ?? requested ?? null,
    slots: slotsOn(live, date, now, closures, (id) => booked(date, id)),
    // The slot refused for this account is not offered back to it.
    next: nextFreeSlots(live, closures, now, date, booked, 5, OFFER_DAYS)
      .filter((o) => !(overCap && o.date === date && o.slotID === chosen?.slotID))
      .slice(0, 4),
  };
  if (!chosen && !requested) throw new HttpError(409, slotMessages.noDefaultSlot, data);
  const message =
    overCap && chosen && cap
      ? slotMessages.slotAccountLimit(chosen.name, date, cap.max)
      : refusalMessage(
          problem,
          chosen,
          date,
          closures.find((c) => c.date === date),
        );
  throw new HttpError(chosen ? 409 : 400, message, data);
}

// ------------------------------------------------------------ the admin's writes
// Each runs in one transaction with a bump of the catalogue's version, stamped as the slots' own
// (`bumpSlotsVersion`): the delta feed carries the slots and closed dates to a device that has
// not seen that version, and a device learns of a change the way it learns of a new price.

export async function addSlot(db: Kysely<Database>, input: SlotInput): Promise<DeliverySlot> {
  return db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    return insertSlot(trx, input, Date.now());
  });
}

export async function editSlot(db: Kysely<Database>, id: number, input: SlotInput): Promise<DeliverySlot> {
  const slot = await db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    return updateSlot(trx, id, input, Date.now());
  });
  if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
  return slot;
}

/** Retires a slot (never the default one): no new order can book it; orders that did keep it. */
export async function retireSlot(db: Kysely<Database>, id: number): Promise<DeliverySlot> {
  const slot = await db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    const found = await findSlot(trx, id);
    if (!found) throw notFound(slotMessages.adminSlotNotFound(id));
    if (found.isDefault) throw conflict(slotMessages.adminDefaultNotRetired);
    const t = Date.now();
    return setRetired(trx, id, t, t);
  });
  if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
  return slot;
}

export async function restoreSlot(db: Kysely<Database>, id: number): Promise<DeliverySlot> {
  const slot = await db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    return setRetired(trx, id, null, Date.now());
  });
  if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
  return slot;
}

export async function closeDate(db: Kysely<Database>, date: string, message: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    await upsertClosure(trx, date, message, Date.now());
  });
}

/** Opens a closed date again; answers the message it was closed with. */
export async function reopenDate(db: Kysely<Database>, date: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    const closure = (await listClosures(trx, date)).find((c) => c.date === date);
    if (!closure || !(await deleteClosure(trx, date)))
      throw notFound(slotMessages.adminClosureNotFound(date));
    return closure.message;
  });
}
