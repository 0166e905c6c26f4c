/**
 * The running server's side of backups (README.md): the admin's endpoints
 * (list, make one now, download one) and, with BACKUP_EVERY, the schedule.
 * One backup at a time per process; across processes, the lease row in
 * `job_leases` lets one of them back up per period.
 */
import { open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { backupsApi } from '../../domain/backups.contract.js';
import { type Backup, backupTimeText, backupWarning } from '../../domain/backups.js';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { ADMIN_ROLE } from '../../domain/roles.js';
import { verifyPassword } from '../accounts/password.js';
import type { Db } from '../db/database.js';
import { takeLease } from '../db/job-lease.js';
import { conflict, forbidden, HttpError, notFound, tooMany } from '../http/errors.js';
import { downloadRoute, given, route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import type { Mail } from '../mail/mailer.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import {
  BackupUnavailable,
  backupUnavailable,
  copyWithoutSecrets,
  createBackup,
  listBackups,
  NotDownloadable,
  pruneBackups,
} from './backup.js';

export interface BackupRoutesOptions {
  db: Db;
}

/**
 * Password tries for a download, per admin, right or wrong: a session taken over (a laptop left
 * open) gets a few guesses an hour, an admin who mistypes is not held up.
 */
export const DOWNLOAD_RULE: RateRule = { limit: 10, windowMs: 60 * 60 * 1000 };

export const WRONG_PASSWORD = 'That password is not right.';

/** What every admin is told when a backup leaves the machine: who, when, from where. */
export function downloadedMail(to: string, who: string, name: string, at: number, ip: string): Mail {
  return {
    to,
    subject: 'A backup of the shop was downloaded',
    text:
      `${who} downloaded the backup ${name} on ${backupTimeText(at)} (India time) ` +
      `from the address ${ip}.\n\n` +
      'The archive holds every customer’s name, contact details, addresses and orders. It holds none of the ' +
      'shop’s secrets: it cannot sign in as anyone or send pushes as the shop.\n\n' +
      'If no admin of the shop did this, change that admin’s password now (it ends their sessions).\n',
  };
}

/** How often the schedule looks whether a backup is due: often enough to be on time, never busy. */
function tickMs(everyMs: number): number {
  return Math.max(250, Math.min(60_000, Math.floor(everyMs / 4)));
}

export default async function backupRoutes(app: FastifyInstance, opts: BackupRoutesOptions): Promise<void> {
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

  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);
  if (!app.hasDecorator('mailer')) await app.register(mailPlugin);

  downloadRoute(app, backupsApi.download, async (ctx) => {
    // The name matched BACKUP_NAME (no slash, no dot-dot), so this path stays in BACKUP_DIR.
    const { name } = given(ctx.params);
    const { password } = given(ctx.body);
    const admin = ctx.request.user;
    const decision = await app.rateLimiter.hit(`backup-download:account:${admin.id}`, DOWNLOAD_RULE);
    if (!decision.allowed) throw tooMany(messages.tooManyAttempts, decision.retryAfterMs / 1000);
    const row = await app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirst();
    if (!row || !(await verifyPassword(password, row.password_hash))) throw forbidden(WRONG_PASSWORD);

    const file = path.join(config.backupDir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw notFound(`There is no backup named ${name}.`);
    let copy: string;
    try {
      copy = await copyWithoutSecrets(file, config.backupDir);
    } catch (err) {
      if (err instanceof NotDownloadable) throw conflict(err.message);
      throw err;
    }
    const at = Date.now();
    const admins = await app.db.selectFrom('users').select('email').where('role', '=', ADMIN_ROLE).execute();
    for (const { email } of admins)
      app.mailer.send(downloadedMail(email, admin.email, name, at, ctx.request.ip));
    app.log.info(
      { backup: name, by: admin.id, ip: ctx.request.ip },
      `backup: ${name} downloaded by ${admin.email}`,
    );
    // Sent once, then gone: the open file is read while its name is already removed, so no copy
    // is left behind, not even when the admin's browser gives up half-way or the process dies.
    const handle = await open(copy);
    const size = (await handle.stat()).size;
    const removed = await rm(copy).then(
      () => true,
      () => false,
    );
    const stream = handle.createReadStream();
    // A system that cannot remove an open file (Windows): once it is closed.
    if (!removed) stream.once('close', () => void rm(copy, { force: true }));
    return { stream, size, filename: name };
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
