/** The delta feed's reads: what changed in a window of catalogue versions (`catalogue.feed.ts` pages them). */
import type { Category, Product } from '../../domain/catalogue.js';
import { type Executor, loadProducts } from './catalogue.repository.js';

/**
 * Live products changed in the version window (after, upTo], by id, after
 * `afterId`, at most `limit`; `hasMore` when more remain in the window.
 */
export async function changedProducts(
  db: Executor,
  window: { after: number; upTo: number; afterId: number; limit: number },
): Promise<{ products: Product[]; hasMore: boolean }> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .where('id', '>', window.afterId)
    .orderBy('id')
    .limit(window.limit + 1)
    .execute();
  const ids = rows.slice(0, window.limit).map((r) => r.id);
  return { products: await loadProducts(db, { ids }), hasMore: rows.length > window.limit };
}

export async function changedCategories(
  db: Executor,
  window: { after: number; upTo: number },
): Promise<{ live: Category[]; deletedIds: number[] }> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name', 'deleted_at'])
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('id')
    .execute();
  return {
    live: rows.filter((r) => r.deleted_at === null).map((r) => ({ categoryID: r.id, categoryName: r.name })),
    deletedIds: rows.filter((r) => r.deleted_at !== null).map((r) => r.id),
  };
}

export async function deletedProductIds(
  db: Executor,
  window: { after: number; upTo: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('deleted_at', 'is not', null)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
