/**
 * The shop's settings on the server. They are read from the table on every call, never kept in
 * a process: a request is one small query, and every process sees the owner's change at once
 * with no restart. A change moves the catalogue's version and stamps the changed rows with it,
 * so the device settings among them reach phones as a delta of those rows.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Policies } from '../../domain/policies.js';
import {
  type PatchKey,
  readSettings,
  type SettingKey,
  type SettingsPatch,
  type ShopSettings,
} from '../../domain/settings.js';
import { bumpVersion } from '../catalogue/catalogue.repository.js';
import { sanitizePlainText } from '../catalogue/sanitize.js';
import type { Database } from '../db/schema.js';
import { listSettingRows, settingRowsOf, writeSettings } from './settings.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The settings as saved, each unsaved or unreadable one at its default. */
export async function readShopSettings(db: Db): Promise<ShopSettings> {
  return readSettings(await listSettingRows(db));
}

/**
 * Only these settings, each as saved or at its default: one small query of their rows, for a path
 * every order takes (the Cash on Delivery rules), where parsing the profile's and the policies'
 * JSON would be paid for nothing.
 */
export async function readSomeSettings<K extends SettingKey>(
  db: Db,
  keys: readonly K[],
): Promise<Pick<ShopSettings, K>> {
  return readSettings(await settingRowsOf(db, keys));
}

/**
 * Settings whose value is cleaned before it is kept, beyond what its schema checks: text the owner
 * writes that pages show to every shopper is stored with no markup in it, whatever renders it later.
 */
const CLEANERS: { [K in PatchKey]?: (value: ShopSettings[K]) => ShopSettings[K] } = {
  policies: (texts: Policies) =>
    Object.fromEntries(
      Object.entries(texts).map(([key, text]) => [key, text === undefined ? text : sanitizePlainText(text)]),
    ),
};

function cleaned(patch: SettingsPatch): SettingsPatch {
  const out: Record<string, unknown> = { ...patch };
  for (const [key, clean] of Object.entries(CLEANERS) as [PatchKey, (value: unknown) => unknown][])
    if (out[key] !== undefined) out[key] = clean(out[key]);
  return out as SettingsPatch;
}

/** Saves the admin's change (already checked by `SettingsPatchSchema`), cleaned, and answers the settings after it. */
export async function changeSettings(db: Kysely<Database>, patch: SettingsPatch): Promise<ShopSettings> {
  return db.transaction().execute(async (trx) => {
    const version = await bumpVersion(trx);
    await writeSettings(trx, cleaned(patch), version, Date.now());
    return readShopSettings(trx);
  });
}
