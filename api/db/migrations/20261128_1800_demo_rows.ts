/**
 * The demo's rows are told apart from the owner's: `demo` is 1 on a product or category the demo
 * seed wrote and nobody has changed since (api/seed/demo.ts sets it; every admin write of the row
 * clears it: catalogue.repository.ts, category.repository.ts), so "Remove the demo catalogue"
 * (api/golive) removes only those.
 *
 * A database seeded before this column existed is recognised here, by a rule that can only err
 * towards keeping: a category is the demo's when it has the demo's id and name and was never
 * written since it was made (`updated_at = created_at`, every write moves `updated_at`); a product
 * when it has the demo's id and title and was never written since. A demo product the owner
 * edited, or one re-stamped because the owner renamed or deleted one of its categories, is kept
 * as the owner's. Ids and names are written out here: migrations are frozen in time.
 */
import type { Kysely } from 'kysely';

const CATEGORIES: readonly [id: number, name: string][] = [
  [13, 'Chocolate Cakes'],
  [14, 'Truffle Cakes'],
  [15, 'Black Forest Cakes'],
  [17, 'Butterscotch Cakes'],
  [18, 'Red Velvet Cakes'],
  [19, 'Vanilla Cakes'],
  [20, 'Pineapple Cakes'],
  [21, 'Fruit Cakes'],
  [24, 'All Cakes'],
  [25, 'All Flowers'],
  [26, 'All Chocolate'],
  [27, 'All Combo'],
  [28, 'Plants'],
  [29, 'Gifts'],
];

/** The demo's product titles by id: ids 1..86 in this order. */
const PRODUCTS: readonly string[] = [
  'Chocolate Truffle Delight',
  'Dark Chocolate Ganache Cake',
  'Chocolate Chip Celebration Cake',
  'Belgian Chocolate Cake',
  'Choco Lava Fudge Cake',
  'Chocolate Cookie Crunch Cake',
  'Classic Truffle Cake',
  'Hazelnut Truffle Cake',
  'Mocha Truffle Cake',
  'Double Truffle Cake',
  'White Chocolate Truffle Cake',
  'Truffle Rose Cake',
  'Classic Black Forest Cake',
  'Cherry Black Forest Cake',
  'Black Forest Heart Cake',
  'Black Forest Gateau',
  'Black Forest Cream Cake',
  'Royal Black Forest Cake',
  'Butterscotch Crunch Cake',
  'Butterscotch Caramel Cake',
  'Praline Butterscotch Cake',
  'Butterscotch Delight',
  'Butterscotch Almond Cake',
  'Butterscotch Drip Cake',
  'Red Velvet Cream Cheese Cake',
  'Red Velvet Heart Cake',
  'Red Velvet Rose Cake',
  'Classic Red Velvet Cake',
  'Red Velvet Celebration Cake',
  'Red Velvet Strawberry Cake',
  'Vanilla Bean Cake',
  'Vanilla Sprinkle Cake',
  'Vanilla Strawberry Cake',
  'Vanilla Rainbow Cake',
  'Vanilla Blueberry Cake',
  'Vanilla Buttercream Cake',
  'Pineapple Cream Cake',
  'Pineapple Upside-Down Cake',
  'Pineapple Cherry Cake',
  'Tropical Pineapple Cake',
  'Pineapple Fresh Fruit Cake',
  'Pineapple Delight Cake',
  'Fresh Fruit Cake',
  'Mixed Fruit Gateau',
  'Mango Fruit Cake',
  'Strawberry Fruit Cake',
  'Kiwi Fruit Cake',
  'Fruit Overload Cake',
  'Red Roses Bouquet',
  'Pink Roses Bunch',
  'Mixed Gerbera Bouquet',
  'Yellow Roses Bouquet',
  'White Lilies Bouquet',
  'Purple Orchids Bunch',
  'Carnations Basket',
  'Sunflower Bouquet',
  'Tulip Bouquet',
  'Roses and Lilies Basket',
  'Red Roses Heart Arrangement',
  'Blue Orchid Bouquet',
  'Assorted Chocolate Box',
  'Hazelnut Chocolate Bouquet',
  'Dark Chocolate Truffles Box',
  'Kaju Katli Gift Box',
  'Chocolate Dry Fruit Hamper',
  'Milk Chocolate Hearts',
  'Handmade Chocolate Bar Set',
  'Soan Papdi Gift Box',
  'Chocolate Cake and Red Roses',
  'Red Velvet Cake and Pink Roses',
  'Black Forest Cake and Gerberas',
  'Pineapple Cake and Carnations',
  'Truffle Cake and Chocolate Box',
  'Roses and Chocolates Combo',
  'Money Plant in Ceramic Pot',
  'Lucky Bamboo Two Layer',
  'Jade Plant',
  'Snake Plant',
  'Peace Lily',
  'Areca Palm',
  'Personalised Photo Mug',
  'Teddy Bear with Roses',
  'Scented Candle Set',
  'Greeting Card and Balloon Set',
  'Celebration Hamper',
  'Rakhi Gift Hamper',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['products', 'categories']) {
    await db.schema
      .alterTable(table)
      .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await markDemoRows(db);
}

/** Marks the rows an older demo seed wrote and nobody changed since. Exported for its test. */
// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function markDemoRows(db: Kysely<any>): Promise<void> {
  for (const [id, name] of CATEGORIES) {
    await db
      .updateTable('categories')
      .set({ demo: 1 })
      .where('id', '=', id)
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .whereRef('updated_at', '=', 'created_at')
      .execute();
  }
  for (const [i, title] of PRODUCTS.entries()) {
    await db
      .updateTable('products')
      .set({ demo: 1 })
      .where('id', '=', i + 1)
      .where('title', '=', title)
      .where('deleted_at', 'is', null)
      .whereRef('updated_at', '=', 'created_at')
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('demo').execute();
  await db.schema.alterTable('categories').dropColumn('demo').execute();
}
