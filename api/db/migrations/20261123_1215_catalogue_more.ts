/**
 * A live category's name is unique, case-insensitively ("Plants" and "plants"
 * would be one menu entry to a shopper). The API checks first for a friendly
 * 409; this index makes it hold when two admins (or two API processes) add the
 * same name at the same moment. Deleted categories keep their rows (the feed
 * needs them) and do not block a name. Named after 1200 so that databases
 * already migrated past the orders migration accept it in order.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('categories_live_name')
    .on('categories')
    .unique()
    .expression(sql`lower(name)`)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('categories_live_name').execute();
}
