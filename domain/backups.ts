/**
 * Backups: the archive's name, the schedule's duration, the answers of the admin's
 * backup endpoints and the rule of when the dashboard warns. The server writes and reads the
 * archives (`api/backup/`); the admin screens show what it answers. No I/O here.
 */
import * as v from 'valibot';
import { PASSWORD_MAX } from './accounts.js';
import { formatIndiaDateTime } from './india-time.js';

/**
 * `backup-YYYYMMDD-HHMMSS.tar.gz` in UTC, with `-2`, `-3`... when two are made in the same
 * second. The server only ever opens a file whose name matches this in full, so a name from a
 * request can never climb out of BACKUP_DIR (no slash, no dot-dot, no other file).
 */
export const BACKUP_NAME = /^backup-(\d{8})-(\d{6})(?:-(\d{1,3}))?\.tar\.gz$/;

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

/** The archive's name for a backup begun at `at` (UTC: the same name wherever the server runs). */
export function backupNameAt(at: number, sameSecond = 1): string {
  const iso = new Date(at).toISOString(); // 2026-11-25T09:30:01.123Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
  return `backup-${stamp}${sameSecond > 1 ? `-${sameSecond}` : ''}.tar.gz`;
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration of BACKUP_EVERY ("30m", "6h", "1d") in milliseconds, or null when it is not one.
 * "s" is allowed too, for tests that cannot wait half an hour; the server refuses less than
 * a second.
 */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] as 's' | keyof typeof UNIT_MS;
  const ms = unit === 's' ? n * 1000 : n * UNIT_MS[unit];
  return ms > 0 ? ms : null;
}

/** "3 hours ago", "just now", "2 days ago": how long ago `at` was, for the admin. */
export function agoText(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

/** A file size for people: "512 B", "1.4 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1024;
  let i = 0;
  // 1023.6 KB reads as 1.0 MB, never "1024 KB".
  while (n >= 1023.5 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

/**
 * Why the admin should worry, or null: with a schedule, no backup at all, or a newest one older
 * than two periods (one missed period can be a restart; two is a schedule that is not working).
 * Without a schedule the shop owner backs up by hand and the dashboard only says how old it is.
 */
export function backupWarning(newestAt: number | null, everyMs: number | null, now: number): string | null {
  if (everyMs === null) return null;
  if (newestAt === null) return 'No backup has been made yet, though backups are scheduled.';
  if (now - newestAt > 2 * everyMs)
    return `The newest backup is ${agoText(newestAt, now)}: older than two scheduled periods.`;
  return null;
}

const int = v.pipe(v.number(), v.integer());

export const BackupCountsSchema = v.object({ products: int, orders: int, users: int });

export const BackupSchema = v.object({
  name: v.string(),
  /** When the backup began (ms since epoch): it holds every order acknowledged before then. */
  createdAt: int,
  /** Size of the archive in bytes. */
  size: int,
  /** sqlite or postgres: which database the archive's copy is of. */
  dialect: v.picklist(['sqlite', 'postgres']),
  /** The last migration the copied database had. */
  schemaVersion: v.string(),
  counts: BackupCountsSchema,
});
export type Backup = v.InferOutput<typeof BackupSchema>;

export const BackupsSchema = v.object({
  /** BACKUP_EVERY in ms, or null when the server makes no backups by itself. */
  everyMs: v.nullable(int),
  keep: int,
  /** The server's clock at the answer (ms), so "3 hours ago" is reckoned on one clock. */
  now: int,
  /** The newest backup's start (ms), or null when there is none. */
  newestAt: v.nullable(int),
  /** What the dashboard warns of (no backup while scheduled, or one older than two periods), or null. */
  warning: v.nullable(v.string()),
  /** A backup is being made right now (by the schedule or the button). */
  running: v.boolean(),
  /** Why this server cannot make a backup (pg_dump missing), or null. */
  unavailable: v.nullable(v.string()),
  /** Newest first. */
  backups: v.array(BackupSchema),
});
export type Backups = v.InferOutput<typeof BackupsSchema>;

export const BackupNameParamsSchema = v.object({
  name: v.pipe(
    v.string(),
    v.check(isBackupName, 'That is not the name of a backup (backup-YYYYMMDD-HHMMSS.tar.gz).'),
  ),
});

/**
 * The admin's password, asked again before a backup leaves the machine: a session left open on a
 * shared computer is not enough to take every customer's data away.
 */
const ENTER_PASSWORD = 'Enter your password to download a backup.';
export const BackupDownloadSchema = v.object(
  {
    password: v.pipe(
      v.string(ENTER_PASSWORD),
      v.nonEmpty(ENTER_PASSWORD),
      v.maxLength(PASSWORD_MAX, 'That password is not right.'),
    ),
  },
  ENTER_PASSWORD,
);
export type BackupDownload = v.InferOutput<typeof BackupDownloadSchema>;

/** A period for people: "6 hours", "30 minutes", "1 day". */
export function durationText(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}

/** When a backup was made, as the shop reads its clock (India), e.g. "25 Nov 2026, 3:00 pm". */
export const backupTimeText = (at: number): string => formatIndiaDateTime(at);
