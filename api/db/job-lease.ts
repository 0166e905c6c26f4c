import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Which process took a lease (host and pid), kept in the row for the log. */
export const LEASE_HOLDER = `${hostname()}:${process.pid}`;

/**
 * A periodic job's turn: with several processes on one database, each asks on its own timer, and
 * the one that moves the job's `started_at` forward from the value it read (compare and set: only
 * one update can match) runs the job; the others see the new start and wait for the next period.
 * A row in `job_leases`, not PostgreSQL's advisory lock, so SQLite behaves the same. The row is
 * made on a job's first ask. Jobs stay safe to run twice (a lease only saves the repeat).
 */
export async function takeLease(
  db: Kysely<Database>,
  job: string,
  everyMs: number,
  now = Date.now(),
): Promise<boolean> {
  await db
    .insertInto('job_leases')
    .values({ name: job, started_at: 0, holder: '' })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const lease = await db
    .selectFrom('job_leases')
    .select('started_at')
    .where('name', '=', job)
    .executeTakeFirst();
  if (!lease || now - Number(lease.started_at) < everyMs) return false;
  const taken = await db
    .updateTable('job_leases')
    .set({ started_at: now, holder: LEASE_HOLDER })
    .where('name', '=', job)
    .where('started_at', '=', lease.started_at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/**
 * A periodic job's timer, for as long as the app is open: every `everyMs` (and once when the app is
 * ready, with `atStart`) `run` is called; it asks for its turn itself (`takeLease`). The timer is
 * unref'd, a failure is logged (`what` says which job), and a run still going when the app closes is
 * waited for, so it never meets a closed database.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  job: { everyMs: number; what: string; atStart?: boolean; run(): Promise<unknown> },
): void {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      try {
        await job.run();
      } catch (err) {
        app.log.error({ err }, `${job.what} could not run`);
      }
    })();
    return running;
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (job.atStart) await tick();
    timer = setInterval(tick, job.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
