/**
 * Product lists keyed by the catalogue version. Callers read the current
 * version from the database on every request (one one-row query), so a write
 * made by any API process is seen at once; only while the version is
 * unchanged is a list (four queries, the assembling of every product and its
 * JSON) reused. At most one list per scope ("all" and each category), for the
 * latest version only.
 */
import type { Product } from '../../domain/catalogue.js';
import { type Envelope, ok } from '../../domain/envelope.js';
import { type Executor, loadProducts, type ProductScope } from './catalogue.repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product lists of the current catalogue version, one per process (app.ts). */
    productLists: ProductListCache;
  }
}

export interface CachedList {
  products: Product[];
  /**
   * The success envelope of `products`, serialized once with the serializer given first (the
   * route's, made from its response schema, so the cached text names only the schema's fields).
   */
  json(serialize: (envelope: Envelope<Product[]>) => string): string;
}

export class ProductListCache {
  readonly #entries = new Map<string, { version: number; list: CachedList }>();
  readonly #maxEntries: number;

  constructor(maxEntries = 64) {
    this.#maxEntries = maxEntries;
  }

  async get(
    db: Executor,
    version: number,
    scope: ProductScope & ({ all: true } | { categoryId: number }),
  ): Promise<CachedList> {
    const key = 'all' in scope ? 'all' : `c${scope.categoryId}`;
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) return hit.list;
    const products = await loadProducts(db, scope);
    let json: string | null = null;
    const list: CachedList = {
      products,
      json: (serialize) => {
        json ??= serialize(ok(products));
        return json;
      },
    };
    // Entries of deleted or unknown categories would linger; clearing at the bound keeps memory fixed.
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    // A slower request that read an older version must not replace a newer list.
    const current = this.#entries.get(key);
    if (!current || current.version <= version) this.#entries.set(key, { version, list });
    return list;
  }
}
