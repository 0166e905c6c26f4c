import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per registration attempt of an unverified account, holding the details it was made
  // with: the code sent for an attempt verifies that attempt's password, and a later attempt by
  // someone else does not kill the code (or change the password) of an earlier one.
  await db.schema
    .createTable('registration_codes')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registration_codes_user').on('registration_codes').column('user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('registration_codes').execute();
}
