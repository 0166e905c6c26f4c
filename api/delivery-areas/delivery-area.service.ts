/**
 * The admin's writes to the delivery areas. Each runs in one transaction that moves the
 * catalogue's version and stamps the rows it changes with it, so a device's next delta carries
 * those pincodes (or their removal) and nothing else of the areas; every process sees the new
 * version on its next request (the caches are keyed by it, api/catalogue/catalogue.cache.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import {
  AREA_COUNT_MAX,
  type AreaInput,
  areaMessages,
  type DeliveryArea,
  parseAreaLines,
} from '../../domain/delivery-areas.js';
import { bumpVersion } from '../catalogue/catalogue.repository.js';
import type { Database } from '../db/schema.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { listSlots } from '../slots/slot.repository.js';
import {
  countAreas,
  findAreaByPincode,
  listAreas,
  removeArea,
  upsertArea,
} from './delivery-area.repository.js';

/**
 * Refuses pincodes that would take the shop past `AREA_COUNT_MAX` (422); changing or removing the
 * ones it has is always allowed, so a shop already past it (areas added before the cap) can still
 * edit and shrink. Called after `bumpVersion`, whose update of the one version row makes writers
 * wait for each other on PostgreSQL (SQLite has one writer anyway), so two adds never both count
 * the last free place.
 */
async function checkRoom(trx: Transaction<Database>, adding: number): Promise<void> {
  if (adding === 0) return;
  const live = await countAreas(trx);
  if (live + adding > AREA_COUNT_MAX)
    throw new HttpError(422, areaMessages.tooMany(live, adding), {
      reason: 'too-many-areas',
      max: AREA_COUNT_MAX,
    });
}

/**
 * Adds a pincode or changes it. Its slots must be slots of the shop (a retired one included: it
 * may be offered again, and the area keeps it meanwhile); none at all would be an area no order
 * can reach, so it is refused rather than kept.
 */
export async function putArea(
  db: Kysely<Database>,
  pincode: string,
  input: AreaInput,
): Promise<DeliveryArea> {
  return db.transaction().execute(async (trx) => {
    let slotIDs: number[] | null = null;
    if (input.slotIDs !== null) {
      slotIDs = [...new Set(input.slotIDs)].sort((a, b) => a - b);
      if (slotIDs.length === 0) throw new HttpError(422, areaMessages.slotsNone);
      const known = new Set((await listSlots(trx, { retired: true })).map((s) => s.slotID));
      if (slotIDs.some((id) => !known.has(id))) throw new HttpError(422, areaMessages.slotUnknown);
    }
    const area: DeliveryArea = { pincode, ...input, slotIDs };
    const version = await bumpVersion(trx);
    await checkRoom(trx, (await findAreaByPincode(trx, pincode)) ? 0 : 1);
    await upsertArea(trx, area, version, Date.now());
    return area;
  });
}

/** Stops delivering to a pincode; answers the area as it was. */
export async function deleteArea(db: Kysely<Database>, pincode: string): Promise<DeliveryArea> {
  return db.transaction().execute(async (trx) => {
    const removed = await removeArea(trx, pincode, await bumpVersion(trx), Date.now());
    // Throwing rolls the version back too: a refused removal changes nothing.
    if (!removed) throw notFound(areaMessages.notFound);
    return removed;
  });
}

export interface PasteResult {
  added: number;
  changed: number;
  /** Every area after the paste, by pincode (the admin's list, redrawn at once). */
  areas: DeliveryArea[];
}

/**
 * Adds or changes many pincodes from pasted lines. Any bad line refuses the whole paste (400,
 * every bad line named in `data.errors`), so nothing is half-added. A new pincode gets every slot
 * and same-day delivery; one already delivered to keeps its slots and same-day choice. Lines
 * that change nothing are not written, so the devices' next delta carries only real changes.
 */
export async function pasteAreas(db: Kysely<Database>, text: string): Promise<PasteResult> {
  const parsed = parseAreaLines(text);
  if (!parsed.ok)
    throw badRequest(areaMessages.pasteRefused(parsed.errors), { field: 'lines', errors: parsed.errors });
  return db.transaction().execute(async (trx) => {
    let added = 0;
    let changed = 0;
    let version: number | null = null;
    const now = Date.now();
    // One read for the whole paste: a district's few hundred lines are not a query each.
    let live = new Map((await listAreas(trx)).map((a) => [a.pincode, a]));
    if (parsed.areas.some((a) => !live.has(a.pincode))) {
      // New pincodes: the version first (writers wait for each other there), then read again what
      // a paste that went before may have added, and count.
      version = await bumpVersion(trx);
      live = new Map((await listAreas(trx)).map((a) => [a.pincode, a]));
      await checkRoom(trx, parsed.areas.filter((a) => !live.has(a.pincode)).length);
    }
    for (const line of parsed.areas) {
      const before = live.get(line.pincode);
      const area: DeliveryArea = before
        ? { ...before, city: line.city, state: line.state, charge: line.charge }
        : { ...line, slotIDs: null, sameDay: true };
      if (before && before.city === area.city && before.state === area.state && before.charge === area.charge)
        continue;
      version ??= await bumpVersion(trx);
      await upsertArea(trx, area, version, now);
      if (before) changed += 1;
      else added += 1;
    }
    return { added, changed, areas: await listAreas(trx) };
  });
}
