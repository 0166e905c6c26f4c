/**
 * The SQL of the shop's settings. A value is kept as JSON text; a row whose text is not JSON
 * reads as no value (its default then applies), so a hand-edited row cannot break a request.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SettingRow {
  key: string;
  value: unknown;
  version: number;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toRow(r: { key: string; value: string; version: number | string | bigint }): SettingRow {
  return { key: r.key, value: parsed(r.value), version: Number(r.version) };
}

/** Every saved setting (keys a later version wrote included: `readSettings` skips them). */
export async function listSettingRows(db: Db): Promise<SettingRow[]> {
  const rows = await db
    .selectFrom('shop_settings')
    .select(['key', 'value', 'version'])
    .orderBy('key')
    .execute();
  return rows.map(toRow);
}

/** The saved rows of these keys only (a hot path that needs a few settings, not the profile's JSON). */
export async function settingRowsOf(db: Db, keys: readonly string[]): Promise<SettingRow[]> {
  const rows = await db
    .selectFrom('shop_settings')
    .select(['key', 'value', 'version'])
    .where('key', 'in', [...keys])
    .execute();
  return rows.map(toRow);
}

/** The settings changed in the catalogue version window (after, upTo]. */
export async function changedSettingRows(
  db: Db,
  window: { after: number; upTo: number },
): Promise<SettingRow[]> {
  const rows = await db
    .selectFrom('shop_settings')
    .select(['key', 'value', 'version'])
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('key')
    .execute();
  return rows.map(toRow);
}

/** Saves each value, stamped with the catalogue version of the change. */
export async function writeSettings(
  trx: Transaction<Database>,
  values: Readonly<Record<string, unknown>>,
  version: number,
  now: number,
): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const row = { value: JSON.stringify(value), version, updated_at: now };
    await trx
      .insertInto('shop_settings')
      .values({ key, ...row })
      .onConflict((oc) => oc.column('key').doUpdateSet(row))
      .execute();
  }
}
