/**
 * `npm run restore -- FILE` (README.md). The order is what keeps the current
 * data safe: check no server holds the folder, unpack and prove the archive
 * in a folder of its own, and only then move the current data aside (never
 * deleting it) and the restored data in, then migrate.
 */
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import * as v from 'valibot';
import { backupNameAt } from '../../domain/backups.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { mediaDirOf } from '../images/media-store.js';
import {
  ArchiveProblem,
  type Manifest,
  PARTS,
  type SecretRows,
  SecretRowsSchema,
  unpackAndVerify,
} from './archive.js';
import { run } from './backup.js';
import { runningServers } from './lock.js';

export interface RestoreSettings {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to restore into (tests keep each database in one); the whole database when unset. */
  pgSchema?: string;
}

export interface Restored {
  manifest: Manifest;
  /** Where the data that was there before went (null when there was none). */
  setAside: string | null;
  /** Migrations applied on top of the backup's schema (when it is older than the code). */
  migrated: boolean;
  /**
   * The shop's secrets after the restore: `restored` from the archive (or, in an archive of the
   * older format, inside its database); `kept`: the archive had none (a download) and this shop's
   * were kept; `new`: neither had any, the server makes new ones at its next start.
   */
  secrets: 'restored' | 'kept' | 'new';
  /** Sessions ended by the restore (every one, when the archive had no secrets); 0 otherwise. */
  sessionsEnded: number;
}

/** A refusal: nothing was changed, and the message says why. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/** Retries: a refused extraction may still be closing files when it rejects. */
const CLEAR = { recursive: true, force: true, maxRetries: 10, retryDelay: 50 } as const;

/** What a backup replaces in DATA_DIR, besides the database file of SQLite. */
const SQLITE_FILES = ['shop.db', 'shop.db-wal', 'shop.db-shm'];

export async function restoreBackup(archive: string, settings: RestoreSettings): Promise<Restored> {
  const { dataDir } = settings;
  const info = await stat(archive).catch(() => null);
  if (!info?.isFile()) throw new RestoreRefused(`${archive} is not a file.`);
  refuseWhileRunning(dataDir);

  await mkdir(dataDir, { recursive: true });
  const stamp = backupNameAt(Date.now()).replace(/^backup-|\.tar\.gz$/g, '');
  const unpacked = path.join(dataDir, `.restoring-${stamp}-${process.pid}`);
  await mkdir(unpacked, { mode: 0o700 });
  let manifest: Manifest;
  try {
    manifest = await unpackAndVerify(archive, unpacked);
  } catch (err) {
    await rm(unpacked, CLEAR);
    if (err instanceof ArchiveProblem) throw new RestoreRefused(err.message);
    throw err;
  }
  const target = settings.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.dialect !== target) {
    await rm(unpacked, CLEAR);
    throw new RestoreRefused(
      `The backup is of a ${manifest.dialect} database, and this shop is set up for ${target}` +
        ` (${target === 'postgres' ? 'DATABASE_URL is set' : 'DATABASE_URL is not set'}).`,
    );
  }
  // Checked again: the archive took a while to prove, and a server may have started meanwhile.
  let archived: SecretRows | null = null;
  let targets: SecretRows = [];
  const withoutSecrets = manifest.secrets === 'left out';
  try {
    refuseWhileRunning(dataDir);
    if (manifest.files.some((f) => f.path === PARTS.secrets))
      archived = v.parse(
        SecretRowsSchema,
        JSON.parse(await readFile(path.join(unpacked, PARTS.secrets), 'utf8')),
      );
    // A copy without secrets keeps this shop's: read before its database is replaced.
    if (withoutSecrets) targets = await currentSecrets(settings);
  } catch (err) {
    await rm(unpacked, CLEAR);
    if (err instanceof v.ValiError || err instanceof SyntaxError)
      throw new RestoreRefused(`${PARTS.secrets} in the archive is not valid; nothing was restored.`);
    throw err;
  }
  const keptFile = withoutSecrets && Boolean(await stat(path.join(dataDir, PARTS.secret)).catch(() => null));

  let aside = path.join(dataDir, `before-restore-${stamp}`);
  for (let n = 2; await stat(aside).catch(() => null); n++)
    aside = path.join(dataDir, `before-restore-${stamp}-${n}`);
  const only = settings.pgSchema ? ['--schema', settings.pgSchema] : [];
  const moved: string[] = [];
  const setAside = async (name: string) => {
    const from = path.join(dataDir, name);
    if (!(await stat(from).catch(() => null))) return;
    await mkdir(aside, { recursive: true, mode: 0o700 });
    await rename(from, path.join(aside, name));
    moved.push(name);
  };
  try {
    if (target === 'postgres') {
      // The database cannot be moved aside like a file: it is dumped aside, then replaced.
      await mkdir(aside, { recursive: true, mode: 0o700 });
      await run('pg_dump', [
        '--format=custom',
        '--no-owner',
        `--file=${path.join(aside, PARTS.postgres)}`,
        ...only,
        `--dbname=${settings.databaseUrl}`,
      ]);
      await run('pg_restore', [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--single-transaction',
        `--dbname=${settings.databaseUrl}`,
        path.join(unpacked, PARTS.postgres),
      ]);
    } else {
      for (const name of SQLITE_FILES) await setAside(name);
      await rename(path.join(unpacked, PARTS.sqlite), path.join(dataDir, PARTS.sqlite));
    }
    await setAside(PARTS.media);
    if (await stat(path.join(unpacked, PARTS.media)).catch(() => null))
      await rename(path.join(unpacked, PARTS.media), mediaDirOf(dataDir));
    // An archive without secrets leaves this shop's session secret where it is.
    if (!withoutSecrets) {
      await setAside(PARTS.secret);
      if (await stat(path.join(unpacked, PARTS.secret)).catch(() => null))
        await rename(path.join(unpacked, PARTS.secret), path.join(dataDir, PARTS.secret));
    }
  } finally {
    await rm(unpacked, CLEAR);
  }

  // A backup older than the code gets the migrations it lacks now, so the first start is quick
  // (the server would apply them at start anyway).
  const db = openDatabase({
    databaseUrl: settings.databaseUrl,
    sqliteFile: path.join(dataDir, PARTS.sqlite),
    ...(settings.pgSchema ? { pgSchema: settings.pgSchema } : {}),
  });
  let migrated = false;
  let sessionsEnded = 0;
  try {
    const before = await lastMigration(db.kysely);
    await migrateToLatest(db.kysely);
    migrated = (await lastMigration(db.kysely)) !== before;
    const rows = withoutSecrets ? targets : archived;
    if (rows) {
      await db.kysely.transaction().execute(async (trx) => {
        await trx.deleteFrom('shop_secrets').execute();
        if (rows.length) await trx.insertInto('shop_secrets').values(rows).execute();
        if (!withoutSecrets) return;
        // The archive's sessions were signed with a secret it does not carry: they end here,
        // whichever secret this shop keeps, and the devices subscribed by them with them.
        await trx.deleteFrom('push_subscriptions').execute();
        sessionsEnded = Number((await trx.deleteFrom('sessions').executeTakeFirst()).numDeletedRows);
      });
    }
  } finally {
    await db.destroy();
  }
  const hasAside = moved.length > 0 || target === 'postgres';
  const secrets = !withoutSecrets ? 'restored' : targets.length || keptFile ? 'kept' : 'new';
  return { manifest, setAside: hasAside ? aside : null, migrated, secrets, sessionsEnded };
}

/** The `shop_secrets` rows of the database a restore is about to replace (none when there is none yet). */
async function currentSecrets(settings: RestoreSettings): Promise<SecretRows> {
  if (!settings.databaseUrl) {
    const file = path.join(settings.dataDir, PARTS.sqlite);
    if (!(await stat(file).catch(() => null))) return [];
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('select name, value, created_at from shop_secrets').all() as SecretRows;
    } catch {
      // A database from before shop_secrets existed holds none.
      return [];
    } finally {
      db.close();
    }
  }
  const db = openDatabase({
    databaseUrl: settings.databaseUrl,
    ...(settings.pgSchema ? { pgSchema: settings.pgSchema } : {}),
  });
  try {
    return await db.kysely.selectFrom('shop_secrets').select(['name', 'value', 'created_at']).execute();
  } catch {
    return [];
  } finally {
    await db.destroy();
  }
}

function refuseWhileRunning(dataDir: string): void {
  const servers = runningServers(dataDir);
  if (servers.length)
    throw new RestoreRefused(
      `A server is running on ${dataDir} (${servers.join('; ')}): stop it first, then restore.`,
    );
}

// biome-ignore lint/suspicious/noExplicitAny: the restored database may be older than today's typed schema.
async function lastMigration(db: import('kysely').Kysely<any>): Promise<string> {
  try {
    const row = await db
      .selectFrom('kysely_migration')
      .select('name')
      .orderBy('name', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (row?.name as string | undefined) ?? '';
  } catch {
    return '';
  }
}
