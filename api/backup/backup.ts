/**
 * Making a backup (README.md): a consistent copy of the database, the uploaded
 * images and the shop's secrets (apart from the database copy), with a manifest, packed into
 * `BACKUP_DIR/backup-YYYYMMDD-HHMMSS.tar.gz`. Used by `npm run backup`, the
 * schedule and the admin's button alike.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { BACKUP_NAME, type Backup, backupNameAt } from '../../domain/backups.js';
import type { Db } from '../db/database.js';
import { mediaDirOf } from '../images/media-store.js';
import {
  FORMAT,
  filesUnder,
  MANIFEST,
  type Manifest,
  type ManifestFile,
  PARTS,
  pack,
  readManifest,
  SECRET_PARTS,
  type SecretRows,
  sha256Of,
  unpackAndVerify,
} from './archive.js';

export interface BackupSettings {
  dataDir: string;
  backupDir: string;
  /** For pg_dump: the same URL the shop uses (null on SQLite). */
  databaseUrl: string | null;
}

/** Why a backup cannot be made here (a tool to install), said in words the owner can act on. */
export class BackupUnavailable extends Error {
  override name = 'BackupUnavailable';
}

const PG_DUMP_MISSING =
  'pg_dump is not on the PATH: install the PostgreSQL client tools (Debian/Ubuntu: apt-get install postgresql-client; ' +
  'macOS: brew install libpq) in the version of your server or newer.';

let pgDumpFound: Promise<boolean> | null = null;

/** Whether `pg_dump` runs here (asked once per process). */
export function pgDumpAvailable(): Promise<boolean> {
  pgDumpFound ??= new Promise((resolve) => {
    execFile('pg_dump', ['--version'], (err) => resolve(!err));
  });
  return pgDumpFound;
}

/** Why this process cannot back up `db`, or null when it can. */
export async function backupUnavailable(db: Db): Promise<string | null> {
  if (db.dialect === 'postgres' && !(await pgDumpAvailable())) return PG_DUMP_MISSING;
  return null;
}

/**
 * Makes one backup and returns what the admin's list shows of it. The archive appears under its
 * final name only when it is complete (written as `.partial-…` and renamed), so a crash or a full
 * disk never leaves a file that looks like a backup.
 */
export async function createBackup(
  db: Db,
  settings: BackupSettings,
  now = Date.now(),
  /** Runs once the archive is complete, just before it takes its name (the schedule prunes here). */
  beforePublish?: () => Promise<void>,
): Promise<Backup> {
  const problem = await backupUnavailable(db);
  if (problem) throw new BackupUnavailable(problem);
  await mkdir(settings.backupDir, { recursive: true, mode: 0o700 });
  await clearAbandoned(settings.backupDir, now);
  const name = await freeName(settings.backupDir, now);
  const staging = path.join(settings.backupDir, `.partial-${name.replace(/\.tar\.gz$/, '')}`);
  const partial = `${staging}.tar.gz`;
  await rm(staging, { recursive: true, force: true });
  await rm(partial, { force: true });
  await mkdir(staging, { mode: 0o700 });
  try {
    // The database first: every image a copied row names was written before its row (api/images),
    // so listing the images after the copy finds them all.
    const copied =
      db.dialect === 'postgres'
        ? await copyPostgres(db, settings, path.join(staging, PARTS.postgres))
        : await copySqlite(db, path.join(staging, PARTS.sqlite));
    const files: ManifestFile[] = [await describe(staging, PARTS[db.dialect])];
    await writeFile(path.join(staging, PARTS.secrets), `${JSON.stringify(copied.secrets)}\n`, {
      mode: 0o600,
    });
    files.push(await describe(staging, PARTS.secrets));
    for (const rel of await filesUnder(mediaDirOf(settings.dataDir))) {
      const target = path.join(staging, PARTS.media, rel);
      await mkdir(path.dirname(target), { recursive: true });
      await linkOrCopy(path.join(mediaDirOf(settings.dataDir), rel), target);
      files.push(await describe(staging, `${PARTS.media}/${rel}`));
    }
    const secret = path.join(settings.dataDir, PARTS.secret);
    if (await exists(secret)) {
      await copyFile(secret, path.join(staging, PARTS.secret));
      files.push(await describe(staging, PARTS.secret));
    }
    const manifest: Manifest = {
      format: FORMAT,
      secrets: 'included',
      createdAt: new Date(now).toISOString(),
      createdAtMs: now,
      dialect: db.dialect,
      schemaVersion: copied.schemaVersion,
      counts: copied.counts,
      files,
    };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await pack(staging, manifest, partial);
    const final = path.join(settings.backupDir, name);
    await beforePublish?.();
    await rename(partial, final);
    return { name, size: (await stat(final)).size, ...summary(manifest) };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Partial files older than this were left by a process that died mid-backup (no backup takes hours). */
const ABANDONED_MS = 6 * 60 * 60 * 1000;

/**
 * Removes what a killed backup left (`.partial-…` folders and archives). Only old ones: another
 * process (the command beside the server) may be writing a young one right now.
 */
async function clearAbandoned(dir: string, now: number): Promise<void> {
  for (const entry of await readdir(dir)) {
    if (!entry.startsWith('.partial-')) continue;
    const at = path.join(dir, entry);
    const info = await stat(at).catch(() => null);
    if (info && now - info.mtimeMs > ABANDONED_MS) await rm(at, { recursive: true, force: true });
  }
}

function summary(m: Manifest): Omit<Backup, 'name' | 'size'> {
  return { createdAt: m.createdAtMs, dialect: m.dialect, schemaVersion: m.schemaVersion, counts: m.counts };
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/** The name for a backup begun now; a second one in the same second gets `-2` (never overwrites). */
async function freeName(dir: string, now: number): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const name = backupNameAt(now, n);
    if (!(await exists(path.join(dir, name)))) return name;
  }
  throw new Error('More than 999 backups in one second');
}

async function describe(root: string, rel: string): Promise<ManifestFile> {
  const at = path.join(root, rel);
  return { path: rel, size: (await stat(at)).size, sha256: await sha256Of(at) };
}

/** Image files never change once written (api/images), so a hard link is as good as a copy and free. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    // Another disk (BACKUP_DIR elsewhere, as it should be) or a filesystem without links.
    await copyFile(from, to);
  }
}

interface Copied {
  schemaVersion: string;
  counts: Backup['counts'];
  /** The `shop_secrets` rows, taken out of the copy (they travel as a part of their own). */
  secrets: SecretRows;
}

/**
 * SQLite: `VACUUM INTO` on a connection of its own, in a worker thread. It reads in one read
 * transaction, so the copy is the database as it was when it began: every order whose answer
 * came before is in it, and no half-written transaction is. In WAL mode the shop goes on
 * writing meanwhile, and the server's event loop is not blocked. (Never a copy of the file in
 * use: it could catch a page half-written or miss what is still in the WAL.) An in-memory
 * database (tests) has no file for a second connection: its own connection's online backup copies it.
 */
async function copySqlite(db: Db, dest: string): Promise<Copied> {
  const handle = db.sqlite;
  if (!handle) throw new Error('The SQLite database has no connection to back up');
  if (handle.memory) await handle.backup(dest);
  else await vacuumInto(handle.name, dest);
  // Counted in the copy itself, so the manifest says what the archive holds.
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    // The secrets leave the copy: secure_delete overwrites the deleted rows' bytes with zeros, so
    // the file itself no longer holds them; a rollback journal (not WAL) is gone once committed.
    copy.pragma('journal_mode = DELETE');
    copy.pragma('secure_delete = ON');
    const secrets = copy
      .prepare('select name, value, created_at from shop_secrets order by name')
      .all() as SecretRows;
    copy.prepare('delete from shop_secrets').run();
    const count = (table: string) =>
      (copy.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const last = copy.prepare('select name from kysely_migration order by name desc limit 1').get() as
      | { name: string }
      | undefined;
    return {
      schemaVersion: last?.name ?? '',
      secrets,
      counts: {
        products: (
          copy.prepare('select count(*) as n from products where deleted_at is null').get() as { n: number }
        ).n,
        orders: count('orders'),
        users: count('users'),
      },
    };
  } finally {
    copy.close();
  }
}

const require = createRequire(import.meta.url);

/** Runs `VACUUM INTO` in a worker thread with its own connection (plain JS: the worker has no TS loader). */
function vacuumInto(source: string, dest: string): Promise<void> {
  const code = `
    const { workerData } = require('node:worker_threads');
    const Database = require(workerData.module);
    const db = new Database(workerData.source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(workerData.dest);
    } finally {
      db.close();
    }`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, {
      eval: true,
      workerData: { module: require.resolve('better-sqlite3'), source, dest },
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`VACUUM INTO stopped (${code})`)),
    );
  });
}

/**
 * PostgreSQL: `pg_dump --format=custom` of the snapshot of a REPEATABLE READ transaction that
 * also counts the rows, so the counts and the dump are of one moment, and that moment is the
 * transaction's start: every order committed before it is in the dump.
 */
async function copyPostgres(db: Db, settings: BackupSettings, dest: string): Promise<Copied> {
  if (!settings.databaseUrl) throw new Error('DATABASE_URL is not set');
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]
    ?.schema;
  const client = new pg.Client({
    connectionString: settings.databaseUrl,
    ...(schema && schema !== 'public' ? { options: `-c search_path=${schema}` } : {}),
  });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id;
    if (!snapshot) throw new Error('PostgreSQL gave no snapshot');
    const count = async (q: string) => Number((await client.query<{ n: string }>(q)).rows[0]?.n ?? 0);
    const counts = {
      products: await count('select count(*) as n from products where deleted_at is null'),
      orders: await count('select count(*) as n from orders'),
      users: await count('select count(*) as n from users'),
    };
    const last = (
      await client.query<{ name: string }>('select name from kysely_migration order by name desc limit 1')
    ).rows[0]?.name;
    // Read in the dump's snapshot, and left out of the dump: they travel as a part of their own.
    const secrets = (
      await client.query<{ name: string; value: string; created_at: string }>(
        'select name, value, created_at from shop_secrets order by name',
      )
    ).rows.map((r) => ({ name: r.name, value: r.value, created_at: Number(r.created_at) }));
    // Tests keep each database in a schema of its own; a shop's lives in public and is dumped whole.
    const only = schema && schema !== 'public' ? ['--schema', schema] : [];
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--exclude-table-data=${quoteIdent(schema ?? 'public')}.shop_secrets`,
      `--snapshot=${snapshot}`,
      `--file=${dest}`,
      ...only,
      `--dbname=${settings.databaseUrl}`,
    ]);
    await client.query('commit');
    return { schemaVersion: last ?? '', counts, secrets };
  } finally {
    await client.end();
  }
}

/** A name in a pg_dump pattern, quoted so it matches itself only. */
function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs a tool, failing with its own words (stderr) when it fails. */
export function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.once('error', (err) =>
      reject(
        (err as NodeJS.ErrnoException).code === 'ENOENT' && cmd === 'pg_dump'
          ? new BackupUnavailable(PG_DUMP_MISSING)
          : err,
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} failed (${code}): ${stderr.trim().slice(0, 500)}`)),
    );
  });
}

/** The backups in `dir`, newest first (files whose name is a backup's and whose manifest reads). */
export async function listBackups(dir: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => BACKUP_NAME.test(n));
  } catch (err) {
    // No folder yet (no backup made), or a file in its place (the schedule logs why it fails).
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
  const out: Backup[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const manifest = await cachedManifest(file, info.size, info.mtimeMs);
    if (manifest) out.push({ name, size: info.size, ...summary(manifest) });
  }
  return out.sort((a, b) => b.createdAt - a.createdAt || b.name.localeCompare(a.name));
}

/** Manifests read before, by file, size and time: an archive is never rewritten under its name. */
const manifests = new Map<string, { key: string; manifest: Manifest | null }>();

async function cachedManifest(file: string, size: number, mtime: number): Promise<Manifest | null> {
  const key = `${size}:${mtime}`;
  const hit = manifests.get(file);
  if (hit?.key === key) return hit.manifest;
  const manifest = await readManifest(file);
  manifests.set(file, { key, manifest });
  return manifest;
}

/** Removes all but the newest `keep` backups; returns the names removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep);
  for (const b of old) {
    await rm(path.join(dir, b.name), { force: true });
    manifests.delete(path.join(dir, b.name));
  }
  return old.map((b) => b.name);
}

/** Why an archive cannot be handed out (an archive of the older format keeps its secrets in its database). */
export class NotDownloadable extends Error {
  override name = 'NotDownloadable';
}

/**
 * A copy of the archive `file` without the shop's secrets (`jwt-secret`, the `shop_secrets`
 * rows), for the admin's download: unpacked and proved whole, the secret parts dropped, the
 * manifest rewritten (`secrets: left out`), packed again into `dir`. The caller removes the
 * copy once it is sent. What such a copy lets its holder do is in README.md.
 */
export async function copyWithoutSecrets(file: string, dir: string): Promise<string> {
  const base = path.basename(file).replace(/\.tar\.gz$/, '');
  const stamp = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const staging = path.join(dir, `.partial-download-${base}-${stamp}`);
  const out = `${staging}.tar.gz`;
  await mkdir(staging, { mode: 0o700 });
  try {
    const manifest = await unpackAndVerify(file, staging);
    if (manifest.secrets !== 'included')
      throw new NotDownloadable(
        'This backup was made by an older version of the shop and holds its secrets inside the database copy: ' +
          'it is not offered for download. Make a new backup and download that one.',
      );
    const kept: Manifest = {
      ...manifest,
      secrets: 'left out',
      files: manifest.files.filter((f) => !SECRET_PARTS.includes(f.path)),
    };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    await pack(staging, kept, out);
    return out;
  } catch (err) {
    await rm(out, { force: true });
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
