/**
 * What runs once after the app is built and before it listens. Each task is
 * idempotent (safe on every start): it checks before it writes. Processes
 * starting together on one PostgreSQL database run them one after another
 * (`withStartupLock`), so the checks see each other's writes: one admin
 * account is created, one demo catalogue seeded, and no process fails on the
 * other's unique keys.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { adminFromEnvironment } from './accounts/admin.js';
import type { Config } from './config.js';
import { withStartupLock } from './db/startup-lock.js';
import { demoCatalogueTask } from './seed/task.js';

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

/**
 * What `npm start` says once listening when PUBLIC_URL is unset in production: page heads, the
 * sitemap and the mailing list's links then start with the listening address for any Host not
 * in ALLOWED_HOSTS, which is rarely the address shoppers and search engines use. Null when
 * nothing is to be said.
 */
export function publicUrlWarning(
  config: Pick<Config, 'mode' | 'publicUrl' | 'allowedHosts'>,
  address: AddressInfo | string | null,
): string | null {
  if (config.mode !== 'production' || config.publicUrl) return null;
  let listening = 'the listening address';
  if (address && typeof address === 'object') {
    listening = ['0.0.0.0', '::'].includes(address.address)
      ? `the address each request reached, on port ${address.port}`
      : `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  }
  const hosts = config.allowedHosts ? `ALLOWED_HOSTS (${config.allowedHosts.join(', ')})` : 'localhost';
  return `PUBLIC_URL is not set: absolute URLs (page heads, robots.txt, the sitemap, mail links) use the request's Host only when it is ${hosts}, else ${listening}. Set PUBLIC_URL to the shop's public address, such as https://shop.example.com.`;
}
