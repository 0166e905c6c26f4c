import type { Product } from '../../domain/catalogue.js';
import { currentVersion, type Executor, loadProducts, type ProductScope } from './catalogue.repository.js';

/**
 * Product lists keyed by the catalogue version. Every request still asks the
 * database for the current version (one one-row query), so a write made by
 * any API process is visible at once; only when the version is unchanged is
 * the list (four queries and the assembling of every product) reused. The
 * cache holds at most one list per scope ("all" and each category), each for
 * the latest version only.
 */
export class ProductListCache {
  readonly #entries = new Map<string, { version: number; products: Product[] }>();
  readonly #maxEntries: number;

  constructor(maxEntries = 64) {
    this.#maxEntries = maxEntries;
  }

  async get(
    db: Executor,
    scope: ProductScope & ({ all: true } | { categoryId: number }),
  ): Promise<Product[]> {
    const key = 'all' in scope ? 'all' : `c${scope.categoryId}`;
    const version = await currentVersion(db);
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) return hit.products;
    const products = await loadProducts(db, scope);
    // Deleted categories' entries would linger; dropping everything at the bound keeps memory fixed.
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(key, { version, products });
    return products;
  }
}
