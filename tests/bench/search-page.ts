import MiniSearch from 'minisearch';
import { plainText } from '../../domain/plain-text.js';
import { search, synonymMap } from '../../domain/search.js';
import { SearchIndex } from '../../domain/search-index/index.js';
import { DEFAULT_SYNONYMS } from '../../domain/search-synonyms.js';
import { ShopDatabase } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { writeProducts } from '../../sw/product-chunks.js';
import { allProducts } from '../../sw/product-reads.js';

/**
 * The browser side of the search benchmark (bundled by search.bench.ts and
 * run in Chromium). It stores the synthetic catalogue in a real IndexedDB
 * through the app's own Dexie schema, then times each way of answering a
 * query; every figure comes from the same page and the same data.
 */

interface Timings {
  [approach: string]: number[];
}

function now(): number {
  return performance.now();
}

async function fill(products: StoredProduct[]): Promise<ShopDatabase> {
  const db = new ShopDatabase(`bench-${Date.now()}`);
  await writeProducts(db, products, []);
  return db;
}

async function run(products: StoredProduct[], queries: string[], rounds: number) {
  const db = await fill(products);
  const times: Timings = { dexieScan: [], arrayScan: [], prepared: [], minisearch: [] };
  const setup: Record<string, number> = {};

  // The prepared index, as the app builds it: read every product from IndexedDB once, prepare the fields.
  let t = now();
  const rows = await allProducts(db);
  setup.readAll = now() - t;
  t = now();
  const index = new SearchIndex<StoredProduct>();
  index.update(rows);
  // With the shop's default words on, as a phone has them (typo tolerance is always on).
  index.setSynonyms(DEFAULT_SYNONYMS);
  setup.preparedBuild = now() - t;
  const synonyms = synonymMap(DEFAULT_SYNONYMS);
  // An update after a sync that changed 50 products re-prepares only those.
  const changed = rows.map((p, i) =>
    i % 200 === 0 ? { ...p, version: p.version + 1, price: p.price + 1 } : p,
  );
  t = now();
  index.update(changed);
  setup.preparedUpdate50 = now() - t;

  // MiniSearch over the same fields (descriptions as text, as ours searches them).
  t = now();
  const mini = new MiniSearch<{ id: number; title: string; description: string; categoryName: string }>({
    fields: ['title', 'description', 'categoryName'],
    storeFields: [],
    searchOptions: { prefix: true, boost: { title: 3, categoryName: 2 } },
  });
  mini.addAll(
    rows.map((p) => ({
      id: p.productID,
      title: p.title,
      description: plainText(p.description),
      categoryName: p.categoryName,
    })),
  );
  setup.minisearchBuild = now() - t;

  const counts: Record<string, number> = {};
  let sameAsRule = true;
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      if (r === 0) {
        // Once per query (not timed): a plain scan straight over IndexedDB, the approach without any memory.
        t = now();
        const all = await allProducts(db);
        search(all, q, synonyms);
        times.dexieScan?.push(now() - t);
      }
      t = now();
      const a = search(rows, q, synonyms);
      times.arrayScan?.push(now() - t);
      t = now();
      const b = index.search(q);
      times.prepared?.push(now() - t);
      t = now();
      const c = mini.search(q);
      times.minisearch?.push(now() - t);
      if (r === 0) {
        counts[q] = b.length;
        if (a.length !== b.length || a.some((p, i) => p.productID !== b[i]?.productID)) sameAsRule = false;
        counts[`${q} (minisearch)`] = c.length;
      }
    }
  }
  await db.delete();
  return { times, setup, counts, sameAsRule };
}

(globalThis as unknown as { benchSearch: typeof run }).benchSearch = run;
