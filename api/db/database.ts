import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * One factory for both databases. SQLite (a file under the data folder, or
 * `:memory:` in tests) is the default so the shop runs with nothing to
 * install; PostgreSQL is for running several API processes on one database.
 * Every place the two differ is a short branch that says why.
 */
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite's own connection, for what Kysely does not speak: the online backup
   * (api/backup/), which copies pages between this connection's writes.
   */
  sqlite?: SQLite.Database;
  destroy(): Promise<void>;
}

export interface DbOptions {
  /** A postgres:// URL, or null for SQLite. */
  databaseUrl: string | null;
  /** SQLite file; ':memory:' for tests. Ignored for PostgreSQL. */
  sqliteFile?: string;
  /** PostgreSQL schema to work in; tests use a fresh one per run so runs never see each other's rows. */
  pgSchema?: string;
}

export function openDatabase(options: DbOptions): Db {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pgSchema);
  return openSqlite(options.sqliteFile ?? ':memory:');
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers go on while an order is written; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { kysely, dialect: 'sqlite', sqlite, destroy: () => kysely.destroy() };
}

/** Distinct SQL texts kept compiled; past it the least recently used is dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and on SQLite compiling the SQL cost more than running it
 * (a fifth of an order's time). The queries come from a fixed set of builders, so their texts
 * repeat: each is compiled once and reused. Safe to share: Kysely runs one query at a time on
 * this connection (its mutex, held through a stream too), parameters are bound per run, and
 * SQLite recompiles a kept statement itself when a migration changed the schema under it.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let stmt = kept.get(text);
      if (stmt) {
        // Most recently used last: the Map's order is the eviction order.
        kept.delete(text);
      } else {
        stmt = sqlite.prepare(text);
        if (kept.size >= STATEMENT_CACHE_SIZE) {
          const oldest = kept.keys().next();
          if (!oldest.done) kept.delete(oldest.value);
        }
      }
      kept.set(text, stmt);
      return stmt;
    },
  };
}

// PostgreSQL returns BIGINT (int8) and NUMERIC as strings to protect precision. Our
// integers (ids, rupees, versions, epoch milliseconds) stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

function openPostgres(url: string, schema?: string): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', destroy: () => kysely.destroy() };
}
