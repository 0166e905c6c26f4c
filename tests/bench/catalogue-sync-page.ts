import { SEARCH_PAGE_SIZE } from '../../domain/search.js';
import { SearchIndex } from '../../domain/search-index/index.js';
import { readSettings } from '../../domain/settings.js';
import { syncCatalogue } from '../../sw/catalogue-sync.js';
import { ShopDatabase } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { allProducts } from '../../sw/product-reads.js';

/**
 * The in-page half of the catalogue-sync bench (bundled by catalogue-sync.bench.ts and
 * evaluated in the shop's own page, on the device's own IndexedDB, under the bench's CPU
 * throttling). It times the app's search index one keystroke at a time: each prefix of a
 * query, as a shopper typing it into the search box would ask for.
 */
/** Time between two keystrokes (ms). */
const TYPING_MS = 100;

async function searchKeystrokes(
  queries: string[],
): Promise<{ products: number; build: number; times: number[]; keys: string[] }> {
  const db = new ShopDatabase();
  try {
    const rows: StoredProduct[] = await allProducts(db);
    let t = performance.now();
    const index = new SearchIndex<StoredProduct>();
    index.update(rows);
    // The shop's words as the device synced them, as web/hooks/useSearch.ts gives them.
    index.setSynonyms(readSettings(await db.settings.toArray()).searchSynonyms);
    const build = performance.now() - t;
    // As web/hooks/useSearch.ts does once the index is built: a warming query per task.
    const warming = index.warming();
    do await new Promise((resolve) => setTimeout(resolve, 0));
    while (!warming.next().done);
    const times: number[] = [];
    const keys: string[] = [];
    for (const q of queries) {
      for (let i = 1; i <= q.length; i++) {
        // A keystroke is an event of its own, a tenth of a second after the last for a fast typist: not
        // one loop, where the garbage of one keystroke (and of building the index) lands on the next.
        await new Promise((resolve) => setTimeout(resolve, TYPING_MS));
        keys.push(q.slice(0, i));
        t = performance.now();
        // As the search screen asks (web/hooks/useSearch.ts): its first page, and how many match.
        index.searchPage(q.slice(0, i), SEARCH_PAGE_SIZE);
        times.push(performance.now() - t);
      }
    }
    return { products: rows.length, build, times, keys };
  } finally {
    db.close();
  }
}

/**
 * A delta sync run by the app's own sync code in this (throttled) page, on the device's database:
 * the time from the feed's last byte to the run's end (parsing, the transaction, the cursor), which
 * is the device's work. Chromium does not throttle a service worker's CPU, so the worker's own run
 * (the bench's other figure) is a fast machine's.
 */
async function deltaSync(): Promise<{ applyMs: number; products: number; bytes: number }> {
  const store = new ShopDatabase();
  let lastByte = 0;
  let bytes = 0;
  try {
    const result = await syncCatalogue({
      store,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const body = await response.arrayBuffer();
        lastByte = performance.now();
        bytes += body.byteLength;
        return new Response(response.status === 304 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      },
    });
    return { applyMs: performance.now() - lastByte, products: result.productsChanged, bytes };
  } finally {
    store.close();
  }
}

(globalThis as unknown as { catalogueSyncBench: unknown }).catalogueSyncBench = {
  searchKeystrokes,
  deltaSync,
};
