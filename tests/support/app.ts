import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../api/app.js';
import { type Config, loadConfig } from '../../api/config.js';
import type { Db, Dialect } from '../../api/db/database.js';
import { openTestDb } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

/** Settings for tests: nothing from the developer's environment leaks in. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/storefront-test-data',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    SEED_DEMO: 'false',
    WEB_DIR: '/nonexistent-web-dir',
  });
  return { ...base, ...overrides };
}

/** The whole app on a fresh database of the given dialect (with a logger when a test reads the log). */
export async function makeTestApp(
  dialect: Dialect,
  overrides: Partial<Config> = {},
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<TestApp> {
  const db = await openTestDb(dialect);
  const config = testConfig(overrides);
  const app = await buildApp({ config, db, logger: options.logger });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

let userCounter = 0;

/**
 * A user row and a real session token for it, for tests of routes that need
 * one. The password hash is not a usable hash: these users never log in with
 * a password (the accounts tests create theirs through the endpoints).
 */
export async function createUserWithToken(
  app: FastifyInstance,
  fields: { email?: string; role?: string; name?: string; phone?: string } = {},
): Promise<{ id: number; email: string; token: string; auth: { authorization: string } }> {
  userCounter += 1;
  const now = Date.now();
  const email = fields.email ?? `user${userCounter}-${now}@example.test`;
  const row = await app.db
    .insertInto('users')
    .values({
      name: fields.name ?? 'Test User',
      email,
      phone: fields.phone ?? '9876543210',
      password_hash: '!test-only',
      address: '',
      role: fields.role ?? '0',
      verified: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await app.sessions.issue({ id: row.id, email, role: fields.role ?? '0' });
  return { id: row.id, email, token, auth: { authorization: `Bearer ${token}` } };
}
