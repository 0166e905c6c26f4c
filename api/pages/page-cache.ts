import type { Category, Product } from '../../domain/catalogue.js';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import type { ShopProfile } from '../../domain/shop-profile.js';
import { firstInVisitOrder } from '../../domain/visit-order.js';
import type { ProductListCache } from '../catalogue/catalogue.cache.js';
import { currentVersion, type Executor, loadProduct } from '../catalogue/catalogue.repository.js';
import { searchCatalogue } from '../catalogue/catalogue.search.js';
import { listCategories } from '../catalogue/category.repository.js';
import { listAreas } from '../delivery-areas/delivery-area.repository.js';
import { readShopSettings } from '../settings/settings.service.js';
import { firstProductIn, productIdsIn } from './pages.repository.js';

/**
 * What page heads read from the catalogue, the delivery areas and the shop's profile (whose every
 * change moves the catalogue version too: `changeSettings`), kept in memory for the current
 * catalogue version. Every request reads the version (one one-row query), so
 * a change made by any API process is seen at once; a new version empties the
 * cache. Products are kept up to `maxProducts` (a page of a shared cake is
 * asked for many times in a row; the long tail of products is not worth
 * memory), and a miss is remembered too, so a crawler asking for a missing id
 * again costs no query.
 */
export class PageCache {
  #version = -1;
  #products = new Map<number, Promise<Product | null>>();
  #categories: Promise<Category[]> | null = null;
  #areas: Promise<DeliveryArea[]> | null = null;
  #profile: Promise<ShopProfile> | null = null;
  #categoryProduct = new Map<number, Promise<number | null>>();
  #categoryIds = new Map<number, Promise<number[]>>();
  readonly #db: Executor;
  readonly #lists: ProductListCache;
  readonly #maxProducts: number;

  /** `lists`: the process's product lists, which the catalogue's endpoints keep too (app.productLists). */
  constructor(db: Executor, lists: ProductListCache, maxProducts = 256) {
    this.#db = db;
    this.#lists = lists;
    this.#maxProducts = maxProducts;
  }

  /** Reads the catalogue's version and forgets everything older; returns the version. */
  async refresh(): Promise<number> {
    const version = await currentVersion(this.#db);
    if (version !== this.#version) {
      // Older entries are dropped, newer ones never replaced by a slower request's older read:
      // only the greatest version seen so far is kept.
      if (version < this.#version) return version;
      this.#version = version;
      this.#products = new Map();
      this.#categories = null;
      this.#areas = null;
      this.#profile = null;
      this.#categoryProduct = new Map();
      this.#categoryIds = new Map();
    }
    return version;
  }

  /**
   * A read kept under its key until the next version, at most `maxProducts` kept per map. A failed
   * read is not remembered: the next request asks the database again.
   */
  #remember<K, V>(map: Map<K, Promise<V>>, key: K, read: () => Promise<V>): Promise<V> {
    let hit = map.get(key);
    if (!hit) {
      if (map.size >= this.#maxProducts) map.clear();
      hit = read();
      map.set(key, hit);
      hit.catch(() => map.delete(key));
    }
    return hit;
  }

  product(id: number): Promise<Product | null> {
    return this.#remember(this.#products, id, () => loadProduct(this.#db, id));
  }

  categories(): Promise<Category[]> {
    if (!this.#categories) {
      const read = listCategories(this.#db);
      this.#categories = read;
      read.catch(() => {
        if (this.#categories === read) this.#categories = null;
      });
    }
    return this.#categories;
  }

  /** Where the shop delivers: its live delivery areas. */
  areas(): Promise<DeliveryArea[]> {
    if (!this.#areas) {
      const read = listAreas(this.#db);
      this.#areas = read;
      read.catch(() => {
        if (this.#areas === read) this.#areas = null;
      });
    }
    return this.#areas;
  }

  /** The shop's profile (name, tagline, stores, care, social links): read once per version. */
  profile(): Promise<ShopProfile> {
    if (!this.#profile) {
      const read = readShopSettings(this.#db).then((s) => s.profile);
      this.#profile = read;
      read.catch(() => {
        if (this.#profile === read) this.#profile = null;
      });
    }
    return this.#profile;
  }

  /** The product whose picture stands for a category in its link preview. */
  async categoryProduct(categoryID: number): Promise<Product | null> {
    const id = await this.#remember(this.#categoryProduct, categoryID, () =>
      firstProductIn(this.#db, categoryID),
    );
    return id === null ? null : this.product(id);
  }

  /**
   * The products a category page shows first for a visit's seed (the first `n` of the app's order,
   * `visitOrder`, over the category's live products).
   */
  async firstCards(categoryID: number, list: string, seed: number, n: number): Promise<Product[]> {
    const ids = await this.#remember(this.#categoryIds, categoryID, () => productIdsIn(this.#db, categoryID));
    const first = firstInVisitOrder(
      ids.map((productID) => ({ productID })),
      list,
      seed,
      n,
    );
    const products = await Promise.all(first.map((p) => this.product(p.productID)));
    return products.filter((p): p is Product => p !== null);
  }

  /**
   * The first `n` results of a search, as the device ranks them over the same catalogue (id order,
   * the shop's synonyms). Not kept: a query is the shopper's own, and the list it searches is.
   */
  async firstResults(q: string, n: number): Promise<Product[]> {
    return (await searchCatalogue(this.#db, this.#lists, q, this.#version)).slice(0, n);
  }
}
