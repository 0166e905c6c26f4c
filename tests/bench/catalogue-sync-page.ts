import { SEARCH_PAGE_SIZE, SearchIndex } from '../../domain/search.js';
import { ShopDatabase, type StoredProduct } from '../../sw/db.js';
import { allProducts } from '../../sw/product-reads.js';

/**
 * The in-page half of the catalogue-sync bench (bundled by catalogue-sync.bench.ts and
 * evaluated in the shop's own page, on the device's own IndexedDB, under the bench's CPU
 * throttling). It times the app's search index one keystroke at a time: each prefix of a
 * query, as a shopper typing it into the search box would ask for.
 */
async function searchKeystrokes(
  queries: string[],
): Promise<{ products: number; build: number; times: number[] }> {
  const db = new ShopDatabase();
  try {
    const rows: StoredProduct[] = await allProducts(db);
    let t = performance.now();
    const index = new SearchIndex<StoredProduct>();
    index.update(rows);
    const build = performance.now() - t;
    const times: number[] = [];
    for (const q of queries) {
      for (let i = 1; i <= q.length; i++) {
        t = performance.now();
        // As the search screen asks (web/hooks/useSearch.ts): its first page, and how many match.
        index.searchPage(q.slice(0, i), SEARCH_PAGE_SIZE);
        times.push(performance.now() - t);
      }
    }
    return { products: rows.length, build, times };
  } finally {
    db.close();
  }
}

(globalThis as unknown as { catalogueSyncBench: unknown }).catalogueSyncBench = { searchKeystrokes };
