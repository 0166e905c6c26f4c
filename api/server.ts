/**
 * Starts the shop: settings, database (created and migrated when missing),
 * start-up tasks (demo catalogue, first admin), then the app, then listen.
 * Only this file picks the logger and the port; `app.ts` builds everything else.
 */
import path from 'node:path';
import { buildApp } from './app.js';
import { holdDataDirLock } from './backup/lock.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loggerOptions } from './logger.js';
import { publicUrlWarning, runStartupTasks } from './startup.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  // Held from here to close: `npm run restore` refuses to replace the data of a running shop.
  const releaseLock = holdDataDirLock(config.dataDir);
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'shop.db'),
  });
  try {
    await migrateToLatest(db.kysely);
  } catch (err) {
    // Name the setting to fix, not a stack trace: the database is the one thing we cannot start without.
    const where = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR (${config.dataDir})`;
    console.error(`${where}: could not open or migrate the database: ${(err as Error).message}`);
    process.exit(1);
  }

  const app = await buildApp({
    config,
    db,
    closeDbWithApp: true,
    logger: loggerOptions(config.mode),
  });
  app.addHook('onClose', async () => releaseLock());
  await runStartupTasks(app);

  // A stop (a deploy, a scale-down, Ctrl-C) loses nothing: the process stops taking new work
  // (503, retryable elsewhere), closes idle kept-alive connections at once and each other one as
  // its answer goes out (plugins/health.ts), finishes what it has begun, orders included, closes
  // the database pool and exits 0 as soon as that is done. Past the grace period (SHUTDOWN_GRACE)
  // the connections still open are cut and it exits 1.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal}: finishing the requests in flight, then closing`);
      app.lifecycle.draining = true;
      // What Node's close does too (and Fastify's `forceCloseConnections: 'idle'`, the default):
      // said here, as the stop begins, not left to a version's default.
      app.server.closeIdleConnections();
      let cut = false;
      const grace = setTimeout(() => {
        cut = true;
        app.log.error(
          `${config.shutdownGraceMs / 1000} s grace period over: closing the connections still open`,
        );
        app.server.closeAllConnections();
      }, config.shutdownGraceMs);
      grace.unref();
      app.close().then(
        () => {
          clearTimeout(grace);
          app.log.info('closed');
          process.exit(cut ? 1 : 0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'closing failed');
          process.exit(1);
        },
      );
    });
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    console.error(`PORT/HOST: could not listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    await app.close();
    process.exit(1);
  }
  app.log.info(`The shop is open on http://localhost:${config.port} (database: ${db.dialect})`);
  const warning = publicUrlWarning(config, app.server.address());
  if (warning) app.log.warn(warning);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
