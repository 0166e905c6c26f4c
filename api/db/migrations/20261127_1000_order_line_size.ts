/**
 * An order line keeps the option's value ("1 kg"), not only its name ("Weight"): the kitchen
 * must tell 0.5, 1 and 2 kg apart. New lines always write it ('' for a product with no size);
 * NULL is left only on an old line whose size cannot be known, shown as "size not recorded".
 *
 * Old lines get it back only where it is certain, never by a guess:
 * - the line's variation still exists (on the line's own product): its value;
 * - else the product still exists and exactly one of its options (its base size at its base
 *   price, or a variation) has the line's unit price, and that option is of the line's kind
 *   (a variation for a line that named one, the base for a line that named none): its value.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and see the database untyped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').addColumn('variation_value', 'text').execute();
  await recoverLineSizes(db);
}

/** Fills the size of every line that has none, where it can be known. Exported for its test. */
// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function recoverLineSizes(db: Kysely<any>): Promise<void> {
  const lines: {
    id: number;
    product_id: number;
    variation_id: number | null;
    variation_name: string | null;
    unit_price: number | string;
  }[] = await db
    .selectFrom('order_items')
    .select(['id', 'product_id', 'variation_id', 'variation_name', 'unit_price'])
    .where('variation_value', 'is', null)
    .execute();
  if (lines.length === 0) return;
  const productIds = [...new Set(lines.map((l) => l.product_id))];
  const products: { id: number; price: number | string; size_or_weight: string | null }[] = [];
  const variations: { id: number; product_id: number; value: string; price: number | string }[] = [];
  // Chunks keep each IN list under SQLite's bound-parameter limit.
  for (let i = 0; i < productIds.length; i += 500) {
    const ids = productIds.slice(i, i + 500);
    products.push(
      ...(await db
        .selectFrom('products')
        .select(['id', 'price', 'size_or_weight'])
        .where('id', 'in', ids)
        .execute()),
    );
    variations.push(
      ...(await db
        .selectFrom('variations')
        .select(['id', 'product_id', 'value', 'price'])
        .where('product_id', 'in', ids)
        .execute()),
    );
  }
  const productById = new Map(products.map((p) => [p.id, p]));

  for (const line of lines) {
    const value = recoveredValue(line, productById.get(line.product_id), variations);
    if (value === null) continue;
    await db.updateTable('order_items').set({ variation_value: value }).where('id', '=', line.id).execute();
  }
}

function recoveredValue(
  line: {
    product_id: number;
    variation_id: number | null;
    variation_name: string | null;
    unit_price: number | string;
  },
  product: { price: number | string; size_or_weight: string | null } | undefined,
  variations: readonly { id: number; product_id: number; value: string; price: number | string }[],
): string | null {
  const own = variations.filter((v) => v.product_id === line.product_id);
  if (line.variation_id !== null) {
    const still = own.find((v) => v.id === line.variation_id);
    if (still) return still.value;
  }
  if (!product) return null;
  const price = Number(line.unit_price);
  const options = [
    { base: true, value: product.size_or_weight ?? '', price: Number(product.price) },
    ...own.map((v) => ({ base: false, value: v.value, price: Number(v.price) })),
  ];
  const wasVariation = line.variation_id !== null || line.variation_name !== null;
  // Options of the line's kind at its price; two with the same value are still one size.
  const values = new Set(
    options.filter((o) => o.price === price && o.base === !wasVariation).map((o) => o.value),
  );
  return values.size === 1 ? ([...values][0] ?? null) : null;
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').dropColumn('variation_value').execute();
}
