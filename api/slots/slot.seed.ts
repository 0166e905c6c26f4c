/**
 * The demo shop's slots (four ₹100 windows and Midnight at ₹250),
 * added beside the migration's Standard while the shop has no slot of its own:
 * a shop whose admin has added, edited or retired slots is never reseeded.
 * Fixed ids and "on conflict do nothing": processes starting together add them once.
 */
import type { Kysely } from 'kysely';
import { DEMO_SLOTS } from '../../domain/slots.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { bumpSlotsVersion, seedSlots } from './slot.repository.js';

export async function seedDemoSlots(db: Kysely<Database>, dialect: Dialect): Promise<number> {
  const row = await db
    .selectFrom('delivery_slots')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  if (Number(row?.n ?? 0) > 1) return 0;
  // A shop upgraded to slots with devices already synced: the version moves, so they get them too.
  await db.transaction().execute(async (trx) => {
    await bumpSlotsVersion(trx);
    await seedSlots(trx, DEMO_SLOTS, Date.now(), dialect);
  });
  return DEMO_SLOTS.length;
}
