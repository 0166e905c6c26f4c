/**
 * The catalogue version at which the delivery slots or closed dates last changed: the
 * delta feed sends them only to a device that has not seen that version, so a delta after one
 * product changed carries the product, not the shop's whole slot table. 0 on an existing shop:
 * the next slot change stamps it, and until then no device needs them again (a first sync gets
 * them whole, as before).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('catalogue_state')
    .addColumn('slots_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalogue_state').dropColumn('slots_version').execute();
}
