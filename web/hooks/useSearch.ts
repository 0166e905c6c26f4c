/**
 * Offline search over the whole local catalogue. One index lives for the
 * page's lifetime: built from IndexedDB the first time a search is shown and
 * kept current by a Dexie live query (a sync or another tab changing
 * products re-prepares only the changed rows). A query is then in-memory
 * string matching, well within a frame for 10,000 products (see
 * tests/bench/search.bench.ts).
 */
import { liveQuery } from 'dexie';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { SearchIndex } from '../../domain/search-index/index.js';
import type { Synonym } from '../../domain/search-synonyms.js';
import { db } from '../../sw/db.js';
import type { StoredProduct } from '../../sw/db-rows.js';
import { productSlice } from '../../sw/product-reads.js';

const index = new SearchIndex<StoredProduct>();
/** The catalogue the index last took, for what a search with no match offers (`useSearchFallback`). */
let catalogue: readonly StoredProduct[] = [];
let loaded = false;
let revision = 0;
let started = false;
let warmed = false;
/** The newest catalogue read; an older one still being prepared in slices stops. */
let latest = 0;
/** Products prepared per task: well under a frame's budget on a slow phone. */
const SLICE = 500;
/** The index's later steps run for about this long per task (ms). */
const STEP_MS = 12;
const listeners = new Set<() => void>();

/**
 * The whole catalogue, read in slices of chunks: each chunk is its own IndexedDB request, so
 * decoding 10,000 products is many short tasks instead of one long one on a phone. The live
 * query still observes every chunk read.
 */
async function readCatalogue(): Promise<StoredProduct[]> {
  const all: StoredProduct[] = [];
  let after: number | null = null;
  for (;;) {
    const slice = await productSlice(db, after, SLICE / db.chunkSpan);
    all.push(...slice.products);
    if (slice.next === null) return all;
    after = slice.next;
  }
}

function start(): void {
  if (started) return;
  started = true;
  liveQuery(readCatalogue).subscribe({
    next(products) {
      const generation = ++latest;
      // Preparing a whole catalogue's text at once is one long task on a phone's first visit to
      // Search: prepare it in slices, yielding between them, then `update` reuses that work.
      let from = 0;
      let building: Generator<void, void> | null = null;
      const step = () => {
        if (generation !== latest) return; // a newer read supersedes this one
        if (from < products.length) {
          index.prepare(products.slice(from, from + SLICE));
          from += SLICE;
          setTimeout(step, 0);
          return;
        }
        // Then the index's word lists, in steps of a task each (SearchIndex.updating).
        building ??= index.updating(products);
        const until = performance.now() + STEP_MS;
        while (performance.now() < until) {
          if (building.next().done) {
            done();
            return;
          }
        }
        setTimeout(step, 0);
      };
      const done = () => {
        loaded = true;
        catalogue = products;
        revision += 1;
        // In a task of its own: React's render of the results in the same task as
        // indexing made one long task.
        setTimeout(() => {
          for (const l of listeners) l();
          // Once per page, a query per task: the search's loops compiled before the shopper's first
          // keystroke (SearchIndex.warming).
          if (!warmed) {
            warmed = true;
            const warming = index.warming();
            const warmStep = () => {
              if (!warming.next().done) setTimeout(warmStep, 0);
            };
            setTimeout(warmStep, 0);
          }
        }, 0);
      };
      step();
    },
    error() {
      // Reading failed (storage blocked or evicted): allow a later search to try again.
      started = false;
    },
  });
}

/**
 * Starts building the index ahead of the first query (the header calls it
 * when the search box gets focus), so results show at once on submit.
 */
export function warmSearch(): void {
  start();
}

function subscribe(listener: () => void): () => void {
  start();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Matching products best first, or `undefined` until the index has read the store once.
 * A new index revision re-renders as a transition (not through useSyncExternalStore, whose
 * updates always render in one blocking pass): on a first visit to Search the results
 * arrive with the catalogue, and rendering their cards in one go was one long task.
 */
export function useSearch(
  q: string,
  limit: number,
  synonyms: readonly Synonym[] | undefined,
): { products: StoredProduct[]; total: number } | undefined {
  const rev = useRevision();
  // `rev` stands for the index's contents: a new revision re-runs the query.
  return useMemo(() => {
    // The shop's words as the device last synced them (a device setting), read in a moment: a
    // short form searched before them would say "No results found" for that moment.
    if (rev < 0 || !synonyms) return undefined;
    index.setSynonyms(synonyms);
    const page = index.searchPage(q, limit);
    return { products: page.items, total: page.total };
  }, [q, limit, rev, synonyms]);
}

/**
 * What a search with no match offers from the device's catalogue: the occasions its products are
 * for and its first few products; `undefined` until the index has read it.
 */
export function useSearchFallback(
  count: number,
): { occasions: string[]; products: StoredProduct[] } | undefined {
  const rev = useRevision();
  return useMemo(() => {
    if (rev < 0) return undefined;
    // The occasions its products carry, the most carried first (the list itself is not imported:
    // it would be one more chunk before a search with no match could show).
    const carried = new Map<string, number>();
    for (const p of catalogue) for (const o of p.occasions ?? []) carried.set(o, (carried.get(o) ?? 0) + 1);
    return {
      occasions: [...carried.keys()].sort((a, b) => (carried.get(b) ?? 0) - (carried.get(a) ?? 0)),
      products: catalogue.slice(0, count),
    };
  }, [rev, count]);
}

/** The index's revision (-1 until it has read the store once), re-rendered as a transition. */
function useRevision(): number {
  const [rev, setRev] = useState(() => (loaded ? revision : -1));
  useEffect(() => {
    const changed = () => startTransition(() => setRev(loaded ? revision : -1));
    const unsubscribe = subscribe(changed);
    // The index may have moved on between this render and the subscription.
    changed();
    return unsubscribe;
  }, []);
  return rev;
}
