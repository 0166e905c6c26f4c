import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('name', 'text', (c) => c.notNull())
    // Stored trimmed and lower-cased: emails are compared case-insensitively.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    // The spec's role claim: "1" is the admin (manufacturer); shoppers are "0".
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // A token is only as good as its session row: logout and password reset end sessions for real.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
