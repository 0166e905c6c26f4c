import { type Kysely, sql, type Transaction } from 'kysely';
import sharp from 'sharp';
import type { VariationInput } from '../../domain/catalogue.js';
import { deliveryAreasText, SEED_AREAS } from '../../domain/delivery-areas.js';
import { deliveryLine } from '../../domain/delivery-words.js';
import { giftMessages } from '../../domain/gifts.js';
import { DEMO_COUPON } from '../../domain/go-live.js';
import { inListOrder, type Occasion } from '../../domain/occasions.js';
import { CATEGORIES } from '../../domain/shop.js';
import type { Offer } from '../../domain/shop-offer.js';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { bumpVersion, insertProduct, type NewProduct } from '../catalogue/catalogue.repository.js';
import { sanitizeDescription } from '../catalogue/sanitize.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { withStartupLock } from '../db/startup-lock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { newStem, type ProcessedImage, processImage, removeImages } from '../images/images.js';
import type { MediaStore } from '../images/media-store.js';
import { listSettingRows, writeSettings } from '../settings/settings.repository.js';
import { type ArtKind, artwork, type Palette, rng } from './artwork.js';

/**
 * The shop's demo catalogue: the spec's categories with their ids and 86
 * products over them (every cake also in All Cakes, every bouquet in All
 * Flowers, ...), each with a picture the project draws itself. Loaded once,
 * into an empty catalogue, in one transaction (one catalogue version).
 */
type Cat = (typeof CATEGORIES)[keyof typeof CATEGORIES];

interface Line {
  kind: ArtKind;
  categories: Cat[];
  palette: Palette;
  /** Base price in rupees of the smallest size. */
  from: number;
  names: string[];
  /** The description's first line: what it is, by the product's title where a line's products differ. */
  flavour: string | ((title: string) => string);
}

const C = CATEGORIES;
const cakeLine = (cat: Cat, from: number, flavour: string, palette: Palette, names: string[]): Line => ({
  kind: 'cake',
  categories: [cat, C.allCakes],
  palette,
  from,
  names,
  flavour,
});

const LINES: Line[] = [
  cakeLine(
    C.chocolate,
    549,
    'rich chocolate sponge layered with silky chocolate cream',
    {
      bg: ['#fff4e6', '#f3d9c0'],
      body: '#6b3e26',
      top: '#3b1f12',
      accent: ['#d4a373', '#f4e1c1', '#a4161a'],
    },
    [
      'Chocolate Truffle Delight',
      'Dark Chocolate Ganache Cake',
      'Chocolate Chip Celebration Cake',
      'Belgian Chocolate Cake',
      'Choco Lava Fudge Cake',
      'Chocolate Cookie Crunch Cake',
    ],
  ),
  cakeLine(
    C.truffle,
    649,
    'dense truffle ganache over moist cocoa sponge',
    {
      bg: ['#fdf0e7', '#e9cbb4'],
      body: '#4a2c1d',
      top: '#2d1810',
      accent: ['#c9a227', '#f2e8cf', '#8d5a3b'],
    },
    [
      'Classic Truffle Cake',
      'Hazelnut Truffle Cake',
      'Mocha Truffle Cake',
      'Double Truffle Cake',
      'White Chocolate Truffle Cake',
      'Truffle Rose Cake',
    ],
  ),
  cakeLine(
    C.blackForest,
    499,
    'chocolate sponge, whipped cream and dark cherries',
    {
      bg: ['#fdeef0', '#f1c9cf'],
      body: '#4b2a1e',
      top: '#fff8f0',
      accent: ['#9b111e', '#c1121f', '#3b1f12'],
    },
    [
      'Classic Black Forest Cake',
      'Cherry Black Forest Cake',
      'Black Forest Heart Cake',
      'Black Forest Gateau',
      'Black Forest Cream Cake',
      'Royal Black Forest Cake',
    ],
  ),
  cakeLine(
    C.butterscotch,
    499,
    'butterscotch sponge with caramel sauce and crunchy praline',
    {
      bg: ['#fff8e1', '#f6dfa6'],
      body: '#e0a84f',
      top: '#b5651d',
      accent: ['#ffd166', '#fff3d6', '#8c4a12'],
    },
    [
      'Butterscotch Crunch Cake',
      'Butterscotch Caramel Cake',
      'Praline Butterscotch Cake',
      'Butterscotch Delight',
      'Butterscotch Almond Cake',
      'Butterscotch Drip Cake',
    ],
  ),
  cakeLine(
    C.redVelvet,
    649,
    'red velvet sponge with tangy cream cheese frosting',
    {
      bg: ['#fff0f3', '#f7c6d0'],
      body: '#a4161a',
      top: '#fdf6f0',
      accent: ['#e63946', '#ffccd5', '#7a0c12'],
    },
    [
      'Red Velvet Cream Cheese Cake',
      'Red Velvet Heart Cake',
      'Red Velvet Rose Cake',
      'Classic Red Velvet Cake',
      'Red Velvet Celebration Cake',
      'Red Velvet Strawberry Cake',
    ],
  ),
  cakeLine(
    C.vanilla,
    449,
    'light vanilla bean sponge with fresh buttercream',
    {
      bg: ['#f1f7ff', '#cfe3f7'],
      body: '#f8e9c8',
      top: '#fffaf0',
      accent: ['#ff8fab', '#8ecae6', '#ffd166'],
    },
    [
      'Vanilla Bean Cake',
      'Vanilla Sprinkle Cake',
      'Vanilla Strawberry Cake',
      'Vanilla Rainbow Cake',
      'Vanilla Blueberry Cake',
      'Vanilla Buttercream Cake',
    ],
  ),
  cakeLine(
    C.pineapple,
    449,
    'vanilla sponge soaked in pineapple syrup with pineapple chunks',
    {
      bg: ['#fffbe6', '#f9e79f'],
      body: '#f9d949',
      top: '#fffdf2',
      accent: ['#f4a261', '#e9c46a', '#c1121f'],
    },
    [
      'Pineapple Cream Cake',
      'Pineapple Upside-Down Cake',
      'Pineapple Cherry Cake',
      'Tropical Pineapple Cake',
      'Pineapple Fresh Fruit Cake',
      'Pineapple Delight Cake',
    ],
  ),
  cakeLine(
    C.fruit,
    599,
    'fresh cream sponge topped with seasonal fruit',
    {
      bg: ['#effaf1', '#c8ecd0'],
      body: '#f6e7cb',
      top: '#fffdf7',
      accent: ['#e63946', '#80b918', '#f77f00'],
    },
    [
      'Fresh Fruit Cake',
      'Mixed Fruit Gateau',
      'Mango Fruit Cake',
      'Strawberry Fruit Cake',
      'Kiwi Fruit Cake',
      'Fruit Overload Cake',
    ],
  ),
  {
    kind: 'flowers',
    categories: [C.allFlowers],
    palette: {
      bg: ['#fdf2f8', '#f5cde3'],
      body: '#f2e9e4',
      top: '#c9184a',
      accent: ['#e63946', '#ff8fab', '#ffd60a', '#ffffff', '#9d4edd'],
      bodies: ['#f2e9e4', '#ffe5ec', '#e9f5db', '#fff1c1', '#e0c3fc'],
    },
    from: 599,
    flavour: 'fresh stems, hand-tied with seasonal greens',
    names: [
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
    ],
  },
  {
    kind: 'chocolate',
    categories: [C.allChocolate],
    palette: {
      bg: ['#fff5eb', '#eed4bb'],
      body: '#c9184a',
      top: '#ffd166',
      accent: ['#7f5539', '#b08968', '#ddb892'],
    },
    from: 399,
    flavour: 'hand-made chocolates and sweets, packed fresh',
    names: [
      'Assorted Chocolate Box',
      'Hazelnut Chocolate Bouquet',
      'Dark Chocolate Truffles Box',
      'Kaju Katli Gift Box',
      'Chocolate Dry Fruit Hamper',
      'Milk Chocolate Hearts',
      'Handmade Chocolate Bar Set',
      'Soan Papdi Gift Box',
    ],
  },
  {
    kind: 'combo',
    categories: [C.allCombo],
    palette: { bg: ['#fef6e4', '#f3d2c1'], body: '#f2e9e4', top: '#e63946', accent: ['#ff4d6d', '#ffb3c1'] },
    from: 999,
    flavour: (title) => comboOf(title).what,
    names: [
      'Chocolate Cake and Red Roses',
      'Red Velvet Cake and Pink Roses',
      'Black Forest Cake and Gerberas',
      'Pineapple Cake and Carnations',
      'Truffle Cake and Chocolate Box',
      'Roses and Chocolates Combo',
    ],
  },
  {
    kind: 'plant',
    categories: [C.plants],
    palette: {
      bg: ['#f0f7ee', '#cfe8c9'],
      body: '#c8553d',
      top: '#e07a5f',
      accent: ['#2d6a4f', '#52b788'],
      bodies: ['#c8553d', '#f1faee', '#457b9d', '#e9c46a', '#6d597a', '#2a9d8f'],
    },
    from: 349,
    flavour: 'healthy indoor plants in a gift-ready pot',
    names: [
      'Money Plant in Ceramic Pot',
      'Lucky Bamboo Two Layer',
      'Jade Plant',
      'Snake Plant',
      'Peace Lily',
      'Areca Palm',
    ],
  },
  {
    kind: 'gift',
    categories: [C.gifts],
    palette: {
      bg: ['#eef4ff', '#cdd9f7'],
      body: '#3a86ff',
      top: '#ffbe0b',
      accent: ['#fb5607'],
      bodies: ['#3a86ff', '#ff006e', '#8338ec', '#06d6a0', '#ef476f', '#118ab2'],
    },
    from: 449,
    flavour: 'thoughtful gifts, wrapped by hand',
    names: [
      'Personalised Photo Mug',
      'Teddy Bear with Roses',
      'Scented Candle Set',
      'Greeting Card and Balloon Set',
      'Celebration Hamper',
      'Rakhi Gift Hamper',
    ],
  },
];

/**
 * What a combo holds, read from its title (a cake with flowers, a cake with chocolates, roses
 * with chocolates): its two sizes and the description's words for it.
 */
function comboOf(title: string): { small: string; large: string; what: string } {
  const cake = /\bcake\b/i.test(title);
  const chocolates = /\bchocolates?\b(?!\s+cake)/i.test(title);
  if (cake && chocolates)
    return {
      small: '0.5 kg cake + 250 g chocolates',
      large: '1 kg cake + 250 g chocolates',
      what: 'a cake and a box of chocolates, delivered together',
    };
  if (cake)
    return {
      small: '0.5 kg cake + 10 stems',
      large: '1 kg cake + 10 stems',
      what: 'a cake and a hand-tied bouquet, delivered together',
    };
  return {
    small: '10 stems + 250 g chocolates',
    large: '20 stems + 250 g chocolates',
    what: 'a hand-tied bouquet and a box of chocolates, delivered together',
  };
}

/** A palette nudged per product (background hue and accent order), so a grid of one category varies. */
function vary(p: Palette, i: number): Palette {
  const shift = [...p.accent.slice(i % p.accent.length), ...p.accent.slice(0, i % p.accent.length)];
  const body = p.bodies?.length ? (p.bodies[i % p.bodies.length] ?? p.body) : p.body;
  return { ...p, accent: shift, body };
}

const round = (x: number) => Math.round(x / 10) * 10 - 1;

/**
 * A product's own size is one of its options at its own price, so the product page offers it
 * once ("0.5 kg: ₹649") and the description never names a size the shopper did not pick.
 */
function sizesFor(
  kind: ArtKind,
  from: number,
  title: string,
): { size: string; variations: VariationInput[] } {
  switch (kind) {
    case 'cake':
      return {
        size: '0.5 kg',
        variations: [
          { variationName: 'Weight', variationValue: '0.5 kg', price: from },
          { variationName: 'Weight', variationValue: '1 kg', price: round(from * 1.85) },
          { variationName: 'Weight', variationValue: '2 kg', price: round(from * 3.5) },
        ],
      };
    case 'flowers':
      return {
        size: '12 stems',
        variations: [
          { variationName: 'Stems', variationValue: '6 stems', price: round(from * 0.6) },
          { variationName: 'Stems', variationValue: '12 stems', price: from },
          { variationName: 'Stems', variationValue: '24 stems', price: round(from * 1.8) },
        ],
      };
    case 'chocolate':
      return {
        size: '250 g',
        variations: [
          { variationName: 'Box', variationValue: '250 g', price: from },
          { variationName: 'Box', variationValue: '500 g', price: round(from * 1.8) },
        ],
      };
    case 'combo': {
      const { small, large } = comboOf(title);
      return {
        size: small,
        variations: [
          { variationName: 'Size', variationValue: small, price: from },
          { variationName: 'Size', variationValue: large, price: round(from * 1.5) },
        ],
      };
    }
    case 'plant':
      return {
        size: 'Plastic pot',
        variations: [
          { variationName: 'Pot', variationValue: 'Plastic pot', price: from },
          { variationName: 'Pot', variationValue: 'Ceramic pot', price: round(from * 1.6) },
        ],
      };
    case 'gift':
      return { size: '1 set', variations: [] };
  }
}

const LABELS: Record<ArtKind, [string, string]> = {
  cake: [
    '100% eggless, baked to order',
    'Baked fresh in our Chandigarh kitchen on the day of delivery. Keep refrigerated and enjoy within 24 hours.',
  ],
  flowers: [
    'Fresh from the farm',
    'Hand-tied by our florists on the morning of delivery. Trim the stems and change the water daily.',
  ],
  chocolate: ['Made in small batches', 'Store in a cool, dry place away from sunlight. Best before 30 days.'],
  combo: [
    'Delivered together',
    'One delivery, one smile: everything arrives together at the time you choose.',
  ],
  plant: ['Air-purifying and easy care', 'Water once a week and keep in bright, indirect light.'],
  gift: ['Gift wrapped by hand', 'Every gift arrives wrapped with a greeting card carrying your message.'],
};

/**
 * The demo's photo cakes: plain buttercream tops a printed photo sits on. Every demo
 * cake takes a message on the cake.
 */
export const DEMO_PHOTO_CAKES: readonly string[] = [
  'Vanilla Buttercream Cake',
  'Red Velvet Celebration Cake',
];

/**
 * The occasions a demo product is for, from what it is: cakes for birthdays, anniversaries and good
 * news, roses and hearts for Valentine's Day, sweets for Diwali and Rakhi, plants to get well.
 */
function occasionsFor(kind: ArtKind, title: string): Occasion[] {
  const t = title.toLowerCase();
  const romantic = /rose|heart|red velvet/.test(t) ? (["Valentine's Day"] as const) : [];
  switch (kind) {
    case 'cake':
      return inListOrder(['Birthday', 'Anniversary', 'Congratulations', ...romantic]);
    case 'flowers':
      return inListOrder([
        ...romantic,
        ...(/lil|orchid/.test(t) ? (['Wedding', 'Congratulations'] as const) : []),
        ...(/rose/.test(t) ? (['Anniversary', 'Sorry'] as const) : []),
        "Mother's Day",
        'Get well soon',
        'Thank you',
      ]);
    case 'chocolate':
      return inListOrder([
        ...(/katli|papdi|dry fruit/.test(t) ? (['Diwali', 'Rakhi'] as const) : []),
        ...(/heart/.test(t) ? (["Valentine's Day"] as const) : []),
        'Rakhi',
        'Thank you',
      ]);
    case 'combo':
      return inListOrder(['Birthday', 'Anniversary', "Valentine's Day"]);
    case 'plant':
      return ['Congratulations', 'Get well soon', 'Thank you'];
    default: {
      const family: Occasion[] = /rakhi/.test(t) ? ['Rakhi'] : ["Mother's Day", "Father's Day"];
      return inListOrder([
        ...family,
        ...(/teddy/.test(t) ? (["Valentine's Day"] as const) : []),
        'Birthday',
        'Thank you',
      ]);
    }
  }
}

export interface DemoProduct extends NewProduct {
  kind: ArtKind;
  palette: Palette;
  seed: number;
}

/** The demo products, in id order (ids 1..n), the same on every machine. */
export function demoProducts(): DemoProduct[] {
  const out: DemoProduct[] = [];
  let id = 0;
  for (const line of LINES) {
    const r = rng(line.from * 7 + line.names.length);
    line.names.forEach((title, i) => {
      id += 1;
      const from = round(line.from + Math.floor(r() * 4) * 50);
      const { size, variations } = sizesFor(line.kind, from, title);
      const [labelHeading, labelDescription] = LABELS[line.kind];
      const photoCake = DEMO_PHOTO_CAKES.includes(title);
      const flavour = typeof line.flavour === 'string' ? line.flavour : line.flavour(title);
      // Every weight's servings, so the text holds whichever weight is picked.
      const serves =
        line.kind === 'cake'
          ? '<li>Serves 4 to 6 at 0.5 kg, 8 to 10 at 1 kg, 16 to 20 at 2 kg</li><li>Shape: round</li>'
          : '';
      // The demo shop's areas, in the words every page uses. A photo cake is printed to order: a
      // day's notice, never the same day.
      const delivery = photoCake
        ? `<li>Your photo printed on the cake. ${giftMessages.photoCakeNotice()} ${deliveryLine(SEED_AREAS, false)}</li>`
        : `<li>${deliveryAreasText(SEED_AREAS)}</li>`;
      out.push({
        id,
        kind: line.kind,
        palette: vary(line.palette, i),
        seed: id * 7919,
        title,
        description: sanitizeDescription(
          `<p><strong>${title}</strong>: ${flavour}.</p><ul><li>${line.categories.map((c) => c.categoryName).join(', ')}</li>${serves}${delivery}</ul>`,
        ),
        price: from,
        labelHeading,
        labelDescription,
        sizeOrWeight: size,
        categoryIDs: line.categories.map((c) => c.categoryID),
        variations,
        takesMessage: line.kind === 'cake',
        photoCake,
        occasions: occasionsFor(line.kind, title),
      });
    });
  }
  return out;
}

/** True when the catalogue has never had a category or product (deleted ones count: the shop is in use). */
export async function catalogueIsEmpty(db: Kysely<Database>): Promise<boolean> {
  const [c, p] = await Promise.all([
    db.selectFrom('categories').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('products').select('id').limit(1).executeTakeFirst(),
  ]);
  return !c && !p;
}

/**
 * PostgreSQL's serial columns do not notice explicitly inserted ids; moving
 * each sequence past the largest id keeps later inserts from colliding.
 * SQLite's autoincrement always continues after the largest id by itself.
 */
export async function fixSequences(db: Kysely<Database>, dialect: Dialect, tables: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db,
    );
  }
}

async function renderPicture(p: DemoProduct, store: MediaStore): Promise<ProcessedImage> {
  const png = await sharp(Buffer.from(artwork(p.kind, p.palette, p.seed, p.title)))
    .png({ compressionLevel: 0 })
    .toBuffer();
  // A random part in the name: two processes seeding at once never write (or, losing, remove) one name.
  return processImage(png, store, `Demo picture ${p.id}`, newStem(`demo-${p.id}-`));
}

/** Runs `fn` over `items` with at most `n` at a time (sharp has its own threads; this bounds memory). */
async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i] as T);
      }
    }),
  );
  return results;
}

/** The demo shop's coupon, which its product pages advertise (the rule's home: domain/go-live.ts). */
export { DEMO_COUPON };

/**
 * The demo shop's profile and offer, beside its catalogue, so `npm start` shows a whole shop. A
 * profile the owner already saved stays; the offer only names the demo coupon while it is live.
 */
async function writeDemoSettings(trx: Transaction<Database>, version: number, now: number): Promise<void> {
  const saved = new Set((await listSettingRows(trx)).map((r) => r.key));
  const coupon = await trx
    .selectFrom('coupons')
    .select(['code', 'discount_amount', 'first_order_only', 'expires_at'])
    .where('code', '=', DEMO_COUPON)
    .where('active', '=', 1)
    .executeTakeFirst();
  const values: Record<string, unknown> = {};
  if (!saved.has('profile')) values.profile = DEMO_PROFILE;
  if (!saved.has('offer') && coupon) {
    values.offer = {
      code: coupon.code,
      amount: Number(coupon.discount_amount),
      firstOrderOnly: Number(coupon.first_order_only) === 1,
      endsAt: coupon.expires_at === null ? null : Number(coupon.expires_at),
    } satisfies Offer;
  }
  await writeSettings(trx, values, version, now);
}

/**
 * Loads the demo catalogue when the catalogue is empty; does nothing
 * otherwise. Returns how many products it added. Processes starting together
 * on one PostgreSQL database take turns (`withStartupLock`): the first seeds,
 * the others find the catalogue there and draw no pictures.
 */
export async function seedDemoCatalogue(
  db: Kysely<Database>,
  dialect: Dialect,
  store: MediaStore,
): Promise<{ categories: number; products: number }> {
  return withStartupLock(db, dialect, 'demo-catalogue', () => seedWhenEmpty(db, dialect, store));
}

async function seedWhenEmpty(
  db: Kysely<Database>,
  dialect: Dialect,
  store: MediaStore,
): Promise<{ categories: number; products: number }> {
  if (!(await catalogueIsEmpty(db))) return { categories: 0, products: 0 };
  const products = demoProducts();
  const pictures = await pool(products, 4, (p) => renderPicture(p, store));
  try {
    await db.transaction().execute(async (trx) => {
      const version = await bumpVersion(trx);
      const now = Date.now();
      await trx
        .insertInto('categories')
        .values(
          Object.values(CATEGORIES).map((c) => ({
            id: c.categoryID,
            name: c.categoryName,
            version,
            created_at: now,
            updated_at: now,
            deleted_at: null,
            demo: 1,
          })),
        )
        .execute();
      for (const [i, p] of products.entries()) {
        const { kind: _k, palette: _p, seed: _s, ...fields } = p;
        await insertProduct(trx, version, { ...fields, demo: true }, [pictures[i] as ProcessedImage]);
      }
      await writeDemoSettings(trx, version, now);
    });
  } catch (err) {
    await removeImages(store, pictures);
    // Another process seeded it first without taking the lock (an older version during a rolling
    // start; the categories' fixed ids collided): its catalogue stands, and this one adds none.
    if (isUniqueViolation(err) && !(await catalogueIsEmpty(db))) return { categories: 0, products: 0 };
    throw err;
  }
  await fixSequences(db, dialect, ['categories', 'products']);
  return { categories: Object.keys(CATEGORIES).length, products: products.length };
}
