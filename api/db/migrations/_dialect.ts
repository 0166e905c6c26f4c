/**
 * The two places our migrations differ between SQLite and PostgreSQL. Kept
 * tiny and never changed once a migration uses it: migrations are frozen in time.
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was, untyped.
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-increment integer primary key: `serial` on PostgreSQL, `integer ... autoincrement` on SQLite. */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export function idType(db: Kysely<any>): 'serial' | 'integer' {
  return isPostgres(db) ? 'serial' : 'integer';
}

export function idColumn(db: Parameters<typeof idType>[0]) {
  return (col: ColumnDefinitionBuilder) =>
    isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement();
}
