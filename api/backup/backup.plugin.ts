import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { backupsApi } from '../../domain/backups.contract.js';
import { type Backup, backupWarning } from '../../domain/backups.js';
import { ok } from '../../domain/envelope.js';
import type { Db } from '../db/database.js';
import { takeLease } from '../db/job-lease.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { downloadRoute, given, route } from '../http/route.js';
import { BackupUnavailable, backupUnavailable, createBackup, listBackups, pruneBackups } from './backup.js';

/**
 * The running server's side of backups (README.md): the admin's endpoints
 * (list, make one now, download one) and, with BACKUP_EVERY, the schedule.
 * One backup at a time per process; across processes, the lease row in
 * `job_leases` lets one of them back up per period.
 */
export interface BackupPluginOptions {
  db: Db;
}

/** How often the schedule looks whether a backup is due: often enough to be on time, never busy. */
function tickMs(everyMs: number): number {
  return Math.max(250, Math.min(60_000, Math.floor(everyMs / 4)));
}

export default async function backupPlugin(app: FastifyInstance, opts: BackupPluginOptions): Promise<void> {
  const { config } = app;
  const settings = { dataDir: config.dataDir, backupDir: config.backupDir, databaseUrl: config.databaseUrl };
  let running: Promise<Backup> | null = null;

  /** Makes a backup (the only way this process makes one), logs it, and prunes when scheduled. */
  const backUp = (why: 'schedule' | 'admin'): Promise<Backup> => {
    if (running) throw conflict('A backup is being made right now; try again when it is done.');
    const started = Date.now();
    running = (async () => {
      try {
        let removed: string[] = [];
        // With a schedule, the oldest give way before the new one takes its name, so the folder (and the
        // admin's list) never holds more than BACKUP_KEEP finished backups, not even for a moment.
        const keep = config.backupEvery === null ? null : config.backupKeep;
        const made = await createBackup(opts.db, settings, started, async () => {
          if (keep !== null) removed = await pruneBackups(config.backupDir, Math.max(0, keep - 1));
        });
        app.log.info(
          { backup: made.name, bytes: made.size, counts: made.counts, ms: Date.now() - started, why },
          `backup: made ${made.name} (${made.size} bytes, ${made.counts.orders} orders) in ${Date.now() - started} ms`,
        );
        if (removed.length)
          app.log.info({ removed }, `backup: removed ${removed.length} old (keeping ${config.backupKeep})`);
        return made;
      } catch (err) {
        app.log.error({ why, reason: (err as Error).message }, `backup failed: ${(err as Error).message}`);
        throw err;
      } finally {
        running = null;
      }
    })();
    return running;
  };

  route(app, backupsApi.list, async () => {
    const now = Date.now();
    const backups = await listBackups(config.backupDir);
    const newestAt = backups[0]?.createdAt ?? null;
    return ok({
      everyMs: config.backupEvery,
      keep: config.backupKeep,
      now,
      newestAt,
      warning: backupWarning(newestAt, config.backupEvery, now),
      running: running !== null,
      unavailable: await backupUnavailable(opts.db),
      backups,
    });
  });

  route(app, backupsApi.create, async (ctx) => {
    try {
      const made = await backUp('admin');
      ctx.reply.code(201);
      return ok(made, 'Backup made.');
    } catch (err) {
      // A missing pg_dump is the server's setup, not the admin's request: 503, in the owner's words.
      if (err instanceof BackupUnavailable) throw new HttpError(503, err.message);
      throw err;
    }
  });

  downloadRoute(app, backupsApi.download, async (ctx) => {
    // The name matched BACKUP_NAME (no slash, no dot-dot), so this path stays in BACKUP_DIR.
    const { name } = given(ctx.params);
    const file = path.join(config.backupDir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw notFound(`There is no backup named ${name}.`);
    return { stream: createReadStream(file), size: info.size, filename: name };
  });

  const every = config.backupEvery;
  if (every === null) return;

  /** A backup is due when the lease's last start is a period old; one process takes it (api/db/job-lease.ts). */
  const tick = async () => {
    if (running) return;
    const now = Date.now();
    if (!(await takeLease(app.db, 'backup', every, now))) return;
    // backUp() logs its own failure; the next period tries again.
    await backUp('schedule').catch(() => undefined);
  };

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      tick().catch((err: Error) => {
        // The lease's query failed (the database away): said, and tried again at the next tick.
        app.log.error({ reason: err.message }, `backup schedule: ${err.message}`);
      });
    }, tickMs(every));
    // The schedule never keeps a process alive that has nothing else to do.
    timer.unref();
    app.log.info(`backup: every ${every / 1000} s into ${config.backupDir}, keeping ${config.backupKeep}`);
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    // A backup half-made is cleaned up by its own finally; wait for it before the database closes.
    await (running as Promise<Backup> | null)?.catch(() => undefined);
  });
}
