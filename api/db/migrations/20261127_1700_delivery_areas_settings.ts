/**
 * Delivery areas by pincode, and the shop's settings.
 *
 * `delivery_areas`: one row per pincode with its city, state, charge (rupees), the slots it gets
 * (a JSON array of slot ids, null for every slot) and whether today is offered there. Each row
 * carries the catalogue version of its last change, as products do, so the delta feed sends a
 * changed pincode and nothing else; a removed pincode stays as a tombstone (`deleted_at`) so the
 * removal itself travels in the feed.
 *
 * `shop_settings`: one row per setting the owner saved (a key of domain/settings.ts, its value as
 * JSON), stamped with the catalogue version of the change for the same reason. A setting never
 * saved has no row: its default applies.
 *
 * The areas are filled from the spec's delivery table by pincode, written out here rather than
 * imported (migrations are frozen in time), under a new catalogue version so devices already
 * synced receive them with their next delta.
 */
import { type Kysely, sql } from 'kysely';

const AREAS: readonly [city: string, state: string, charge: number, pincodes: string[]][] = [
  [
    'Chandigarh',
    'Chandigarh',
    200,
    [
      '160001',
      '160002',
      '160003',
      '160009',
      '160011',
      '160012',
      '160014',
      '160015',
      '160016',
      '160017',
      '160018',
      '160019',
      '160020',
      '160022',
      '160023',
      '160025',
      '160030',
      '160031',
      '160036',
      '160047',
    ],
  ],
  ['Mohali', 'Punjab', 150, ['160055', '160059', '160061', '160062', '160071', '140308']],
  ['Kharar', 'Punjab', 200, ['140301']],
  ['Zirakpur', 'Punjab', 250, ['140603', '140604']],
  [
    'Panchkula',
    'Haryana',
    300,
    ['134101', '134102', '134104', '134108', '134109', '134112', '134113', '134114', '134116', '134117'],
  ],
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_areas')
    .addColumn('pincode', 'text', (c) => c.primaryKey())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('charge', 'integer', (c) => c.notNull())
    .addColumn('slot_ids', 'text')
    .addColumn('same_day', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  // The feed asks for the rows changed in a window of versions.
  await db.schema.createIndex('delivery_areas_version').on('delivery_areas').column('version').execute();

  await db.schema
    .createTable('shop_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await sql`update catalogue_state set version = version + 1 where id = 1`.execute(db);
  const row = await db.selectFrom('catalogue_state').select('version').where('id', '=', 1).executeTakeFirst();
  const version = Number(row?.version ?? 1);
  const now = Date.now();
  await db
    .insertInto('delivery_areas')
    .values(
      AREAS.flatMap(([city, state, charge, pincodes]) =>
        pincodes.map((pincode) => ({
          pincode,
          city,
          state,
          charge,
          slot_ids: null,
          same_day: 1,
          version,
          updated_at: now,
          deleted_at: null,
        })),
      ),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_settings').execute();
  await db.schema.dropIndex('delivery_areas_version').execute();
  await db.schema.dropTable('delivery_areas').execute();
}
