import type { Kysely } from 'kysely';
import { deliveryAreasText, SEED_AREAS } from '../../domain/delivery-areas.js';
import { joinOccasions, OCCASIONS, type Occasion } from '../../domain/occasions.js';
import { bumpVersion } from '../catalogue/catalogue.repository.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { rng } from './artwork.js';
import { fixSequences } from './demo.js';

/**
 * A large synthetic catalogue for benchmarks (10,000 products and more):
 * products spread over the existing categories, with variations and HTML
 * descriptions like the demo's, but without pictures (rendering 10,000
 * pictures would measure sharp, not the API). Inserted in batches inside one
 * transaction, with explicit ids after the largest one, in one catalogue version.
 */
const WORDS = [
  'Chocolate',
  'Truffle',
  'Butterscotch',
  'Vanilla',
  'Pineapple',
  'Mango',
  'Strawberry',
  'Rose',
  'Orchid',
  'Lily',
  'Hazelnut',
  'Caramel',
  'Almond',
  'Coffee',
  'Saffron',
  'Pistachio',
  'Blueberry',
  'Kiwi',
  'Lotus',
  'Jasmine',
];
const NOUNS = ['Cake', 'Bouquet', 'Hamper', 'Box', 'Basket', 'Gateau', 'Bunch', 'Combo', 'Plant', 'Gift Set'];
/** Every product some occasions (from the list, by id), so the benchmarks search them too. */
const occasionsOf = (id: number): string =>
  joinOccasions([OCCASIONS[id % OCCASIONS.length], OCCASIONS[(id * 5 + 3) % OCCASIONS.length]] as Occasion[]);
const BATCH = 400;

export async function seedSyntheticProducts(
  db: Kysely<Database>,
  dialect: Dialect,
  count: number,
): Promise<{ firstId: number; lastId: number }> {
  const categories = (
    await db.selectFrom('categories').select('id').where('deleted_at', 'is', null).orderBy('id').execute()
  ).map((r) => r.id);
  if (!categories.length) throw new Error('seed the categories first (the demo catalogue)');
  const max = await db
    .selectFrom('products')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  const firstId = Number(max?.max ?? 0) + 1;
  const r = rng(count);
  await db.transaction().execute(async (trx) => {
    const version = await bumpVersion(trx);
    const now = Date.now();
    for (let start = 0; start < count; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => firstId + start + i);
      const rows = ids.map((id) => {
        const title = `${WORDS[id % WORDS.length]} ${WORDS[(id * 7) % WORDS.length]} ${NOUNS[id % NOUNS.length]} ${id}`;
        return {
          id,
          title,
          description: `<p><strong>${title}</strong>: freshly made for your celebration.</p><ul><li>Eggless</li><li>${deliveryAreasText(SEED_AREAS)}</li></ul>`,
          price: 299 + Math.floor(r() * 40) * 25,
          label_heading: 'Freshly made',
          label_description: 'Made to order on the day of delivery.',
          size_or_weight: '0.5 kg',
          extra_media: '',
          occasions: occasionsOf(id),
          version,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        };
      });
      await trx.insertInto('products').values(rows).execute();
      const links = ids.flatMap((id) => {
        const a = categories[id % categories.length] as number;
        const b = categories[(id * 3 + 1) % categories.length] as number;
        return a === b
          ? [{ product_id: id, category_id: a }]
          : [
              { product_id: id, category_id: a },
              { product_id: id, category_id: b },
            ];
      });
      await trx.insertInto('product_categories').values(links).execute();
      const variations = ids.flatMap((id, k) =>
        ['0.5 kg', '1 kg', '2 kg'].map((value, position) => ({
          product_id: id,
          name: 'Weight',
          value,
          price: (rows[k]?.price ?? 299) * (position === 0 ? 1 : position === 1 ? 2 : 4) - position,
          position,
        })),
      );
      await trx.insertInto('variations').values(variations).execute();
    }
  });
  await fixSequences(db, dialect, ['products']);
  return { firstId, lastId: firstId + count - 1 };
}
