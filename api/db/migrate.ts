import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { isPostgres } from './migrations/_dialect.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Every file in `migrations/` whose name starts with a timestamp is one
 * migration, applied in name order. Files starting with `_` are helpers.
 * Reading the folder (instead of a hand-kept index) lets each feature add its
 * own migration without touching a shared list.
 */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = readdirSync(migrationsDir)
      .filter((f) => /^\d{8}_\d{4}_[\w-]+\.(ts|js)$/.test(f))
      .sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as Migration;
      migrations[file.replace(/\.(ts|js)$/, '')] = mod;
    }
    return migrations;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on the database as it was then, not on today's typed schema.
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema of the database; tests
  // migrate many schemas side by side in one database, so we name the one this connection uses.
  const schema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({
    db,
    provider: new FolderMigrationProvider(),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
