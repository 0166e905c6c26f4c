import type { FastifyInstance } from 'fastify';
import { adminFromEnvironment } from './accounts/admin.js';
import { demoCatalogueTask } from './seed/task.js';

/**
 * What runs once after the app is built and before it listens. Each task is
 * idempotent (safe on every start): it checks before it writes.
 */
type StartupTask = { name: string; run(app: FastifyInstance): Promise<void> };

const tasks: StartupTask[] = [adminFromEnvironment, demoCatalogueTask];

export async function runStartupTasks(app: FastifyInstance): Promise<void> {
  for (const task of tasks) {
    const started = Date.now();
    await task.run(app);
    app.log.info(`start-up: ${task.name} (${Date.now() - started} ms)`);
  }
}
