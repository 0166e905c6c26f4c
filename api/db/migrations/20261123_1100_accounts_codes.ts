import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  // One live code per user and purpose: issuing a new one overwrites the row, so the old code dies.
  // Only an HMAC of the code is kept; a leaked table does not reveal live codes.
  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // register | login | reset: a code works only for the purpose it was sent for.
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('one_time_codes_user_purpose', ['user_id', 'purpose'])
    .execute();

  // Fixed-window counters for rate limits, shared by every API process on this database.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_start').on('rate_limits').column('window_start').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('one_time_codes').execute();
}
