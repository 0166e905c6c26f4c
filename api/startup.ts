import type { FastifyInstance } from 'fastify';
import { adminFromEnvironment } from './accounts/admin.js';
import { withStartupLock } from './db/startup-lock.js';
import { demoCatalogueTask } from './seed/task.js';

/**
 * What runs once after the app is built and before it listens. Each task is
 * idempotent (safe on every start): it checks before it writes. Processes
 * starting together on one PostgreSQL database run them one after another
 * (`withStartupLock`), so the checks see each other's writes: one admin
 * account is created, one demo catalogue seeded, and no process fails on the
 * other's unique keys.
 */
type StartupTask = { name: string; run(app: FastifyInstance): Promise<void> };

const tasks: StartupTask[] = [adminFromEnvironment, demoCatalogueTask];

export async function runStartupTasks(app: FastifyInstance): Promise<void> {
  await withStartupLock(app.db, app.dialect, 'start-up tasks', async () => {
    for (const task of tasks) {
      const started = Date.now();
      await task.run(app);
      app.log.info(`start-up: ${task.name} (${Date.now() - started} ms)`);
    }
  });
}
