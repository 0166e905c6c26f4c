import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, type Dialect, openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';

/**
 * Every database test runs on every dialect (Kysely's own suite does the same):
 * `for (const dialect of DIALECTS) describe(dialect, ...)`. PostgreSQL joins
 * when TEST_DATABASE_URL is set (`.ci/run` always sets it); each test database
 * is a fresh schema, dropped afterwards, so parallel files never meet.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;
export const DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export async function openTestDb(dialect: Dialect): Promise<Db> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ databaseUrl: null, sqliteFile: ':memory:' });
    await migrateToLatest(db.kysely);
    return db;
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema });
  const dropSchema = async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  };
  try {
    await migrateToLatest(db.kysely);
  } catch (err) {
    // A failed run must not leave a half-built schema behind in the shared test database.
    await db.destroy();
    await dropSchema();
    throw err;
  }
  return {
    ...db,
    async destroy() {
      await db.destroy();
      await dropSchema();
    },
  };
}
