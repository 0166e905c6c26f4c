/**
 * "A server is running on this DATA_DIR": each server process holds a file
 * `DATA_DIR/server-<pid>.lock` from start to close (several processes may
 * share a folder on PostgreSQL, so each has its own). `npm run restore`
 * refuses while one is held. A file whose process is gone (a crash, a
 * SIGKILL) is stale and is cleared, so a crash never blocks a restore.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

const LOCK = /^server-(\d+)\.lock$/;

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

/** Takes this process's lock on `dataDir`; the returned function gives it back (safe to call twice). */
export function holdDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `server-${process.pid}.lock`);
  const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(info)}\n`);
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    rmSync(file, { force: true });
  };
  // A process that exits without closing the app (process.exit after a fatal error) still lets go.
  process.once('exit', release);
  return release;
}

/** Whether process `pid` of this machine is alive (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The servers holding `dataDir` now, as "pid 123 on host" texts; stale locks of this machine are
 * removed on the way. A lock written on another machine (a shared folder) cannot be checked
 * here and counts as held.
 */
export function runningServers(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const m = LOCK.exec(name);
    if (!m) continue;
    const file = path.join(dataDir, name);
    let info: Partial<LockInfo> = {};
    try {
      info = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    } catch {
      // Half-written at a crash: its name still says which process.
    }
    const pid = Number(m[1]);
    const host = info.host ?? hostname();
    if (host === hostname() && !alive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    out.push(`pid ${pid} on ${host}${info.startedAt ? `, started ${info.startedAt}` : ''}`);
  }
  return out;
}
