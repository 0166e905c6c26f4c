import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { withStartupLock } from '../../api/db/startup-lock.js';
import { TEST_DATABASE_URL } from '../support/databases.js';

/**
 * Start-up on PostgreSQL with several processes (issue 18): each process migrates at start, and
 * Kysely's migration lock (an advisory lock inside the migration's transaction) must let exactly
 * one of them apply each migration while the others wait and find it done. Four pools on one
 * empty schema stand for four processes. SQLite runs as one process: its lock is that process's.
 */
describe.skipIf(!TEST_DATABASE_URL)(
  'migrations and start-up work from processes starting together (postgres)',
  () => {
    it('applies every migration once while four migrate at once, and runs start-up work one at a time', async () => {
      const url = TEST_DATABASE_URL as string;
      const schema = `migrate_race_${Date.now().toString(36)}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      const dbs = [1, 2, 3, 4].map(() => openDatabase({ databaseUrl: url, pgSchema: schema }));
      try {
        await Promise.all(dbs.map((db) => migrateToLatest(db.kysely)));
        const files = readdirSync(path.join(process.cwd(), 'api/db/migrations'))
          .filter((f) => /^\d{8}_\d{4}_/.test(f))
          .map((f) => f.replace(/\.ts$/, ''))
          .sort();
        const applied = (
          await admin.query(`select name from ${schema}.kysely_migration order by name`)
        ).rows.map((r: { name: string }) => r.name);
        expect(applied).toEqual(files);

        // The start-up lock: four holders, never two inside at once.
        let inside = 0;
        let most = 0;
        await Promise.all(
          dbs.map((db) =>
            withStartupLock(db.kysely, 'postgres', 'test-lock', async () => {
              inside++;
              most = Math.max(most, inside);
              await new Promise((r) => setTimeout(r, 50));
              inside--;
            }),
          ),
        );
        expect(most).toBe(1);
      } finally {
        await Promise.all(dbs.map((db) => db.destroy()));
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    });
  },
);
