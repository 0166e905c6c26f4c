/**
 * The spec's search rule, used by the server's `GET /search` and by the
 * device's offline search: a product matches when the trimmed query is a
 * case-insensitive substring of its title, description or category name.
 * An empty query matches nothing. Matches are ranked (title before category
 * before description; earlier and whole-word hits first) without ever
 * changing what matches.
 */
import type { Product } from './catalogue.js';
import { plainText } from './plain-text.js';

export function normalizeQuery(q: string | null | undefined): string {
  return (q ?? '').trim().toLowerCase();
}

export type Searchable = Pick<Product, 'title' | 'description' | 'categoryName'>;

/** Results a search screen shows at first (and adds per "Show more"); a keystroke ranks only these. */
export const SEARCH_PAGE_SIZE = 48;

/** Lower-cased text of the three searched fields, so an index can prepare it once. */
export function searchFields(p: Searchable): { title: string; category: string; description: string } {
  return {
    title: p.title.toLowerCase(),
    category: p.categoryName.toLowerCase(),
    description: plainText(p.description).toLowerCase(),
  };
}

/**
 * The score of a title hit: the query first found at `pos` of a title of `titleLength`, starting a
 * word or not. Earlier, whole-word and whole-title hits rank first.
 */
export function titleHitScore(
  pos: number,
  wordStart: boolean,
  titleLength: number,
  queryLength: number,
): number {
  return (
    300 +
    (pos === 0 ? 50 : 0) +
    (wordStart ? 25 : 0) -
    Math.min(pos, 20) +
    (titleLength === queryLength ? 50 : 0)
  );
}

/** 0 when it does not match; otherwise a score where higher ranks first. */
export function scoreFields(
  f: { title: string; category: string; description: string },
  query: string,
): number {
  if (!query) return 0;
  const t = f.title.indexOf(query);
  if (t >= 0) {
    const wordStart = t === 0 || !/[\p{L}\p{N}]/u.test(f.title[t - 1] ?? '');
    return titleHitScore(t, wordStart, f.title.length, query.length);
  }
  if (f.category.indexOf(query) >= 0) return 200;
  if (f.description.indexOf(query) >= 0) return 100;
  return 0;
}

export function matches(p: Searchable, q: string): boolean {
  return scoreFields(searchFields(p), normalizeQuery(q)) > 0;
}

/** Matching products, best first (ties keep catalogue order). */
export function search<P extends Searchable>(products: readonly P[], q: string): P[] {
  const query = normalizeQuery(q);
  if (!query) return [];
  const hits: { p: P; s: number; i: number }[] = [];
  products.forEach((p, i) => {
    const s = scoreFields(searchFields(p), query);
    if (s > 0) hits.push({ p, s, i });
  });
  hits.sort((a, b) => b.s - a.s || a.i - b.i);
  return hits.map((h) => h.p);
}

/** The highest score scoreFields() gives (a whole title equal to the query). */
export const MAX_SCORE = 425;
