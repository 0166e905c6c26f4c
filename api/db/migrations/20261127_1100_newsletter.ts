/**
 * The shop's mailing list (api/newsletter/README.md): one row per address, pending until the
 * link of its confirmation mail is opened. Only the hash of that link's token is kept; the row
 * goes when the address unsubscribes. Ids are never reused (PostgreSQL's serial, SQLite's
 * autoincrement): an unsubscribe link names its row by id.
 */
import type { Kysely } from 'kysely';
import { idColumn, idType } from './_dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('newsletter_subscribers')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('confirm_hash', 'text', (c) => c.notNull().unique())
    .addColumn('confirm_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('newsletter_subscribers_status')
    .on('newsletter_subscribers')
    .columns(['status', 'confirm_expires_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('newsletter_subscribers').execute();
}
