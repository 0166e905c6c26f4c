/**
 * The search rule, used by the server's `GET /search` and by the device's offline search
 * (`search-index/`, which answers exactly what this answers). DESIGN.md's departure 19.
 *
 * - A product's searched text is every word a shopper reads of it: the title, the category
 *   names, the description, the label's heading and description, the size, its options' values
 *   and its occasions.
 * - A query is its words (split at white space); every word must match (AND), in any order.
 * - A word matches a product whose text holds it (case-insensitive substring: the spec's rule,
 *   so everything the spec's rule found is still found). A word found as typed in no product of
 *   the catalogue is widened: to what the shop's synonyms say it means (`search-synonyms.ts`,
 *   exact words: Devanagari and Gurmukhi go this way), and, for a Latin word of 5 letters or
 *   more, to the catalogue's words one letter away (wrong, missing, extra, or two letters
 *   swapped). A word found as typed is never widened: a real word gets what holds it, not its
 *   neighbours.
 * - An empty query matches nothing.
 *
 * Ranking never changes what matches: each word scores as the spec's rule ranked a query (title
 * before category before the rest; earlier and whole-word title hits first) and the weakest word
 * decides, so a one-word query ranks exactly as the spec ranked it (`queryScore`).
 */
import type { Product } from './catalogue.js';
import { plainText } from './plain-text.js';
import type { Synonym } from './search-synonyms.js';

export function normalizeQuery(q: string | null | undefined): string {
  return (q ?? '').trim().toLowerCase();
}

export type Searchable = Pick<Product, 'title' | 'description' | 'categoryName'> &
  Partial<Pick<Product, 'labelHeading' | 'labelDescription' | 'sizeOrWeight' | 'variations' | 'occasions'>>;

/** Results a search screen shows at first (and adds per "Show more"); a keystroke ranks only these. */
export const SEARCH_PAGE_SIZE = 48;

/**
 * Lower-cased text of the searched fields, so an index can prepare it once: the title, the
 * category names, and the rest a shopper reads (the description, then the label, the size, the
 * options' values and the occasions, a line each: no query word holds a line break, so none
 * matches across two of them), which ranks as the description did.
 */
export function searchFields(p: Searchable): { title: string; category: string; description: string } {
  let rest = plainText(p.description);
  for (const more of [p.labelHeading, p.labelDescription, p.sizeOrWeight]) if (more) rest += `\n${more}`;
  for (const o of p.variations ?? []) if (o.variationValue) rest += `\n${o.variationValue}`;
  for (const o of p.occasions ?? []) rest += `\n${o}`;
  return {
    title: p.title.toLowerCase(),
    category: p.categoryName.toLowerCase(),
    description: rest.toLowerCase(),
  };
}

type Fields = ReturnType<typeof searchFields>;

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

/** Whether a product's fields hold `word` anywhere. */
export function holds(f: Fields, word: string): boolean {
  return f.title.includes(word) || f.category.includes(word) || f.description.includes(word);
}

/** A query's words (its runs between white space), each once, in the order typed. */
export function queryWords(query: string): string[] {
  return [...new Set(query.split(/\s+/).filter(Boolean))];
}

/** The shop's synonyms as a lookup: each word shoppers type, and what it means. */
export type SynonymMap = ReadonlyMap<string, readonly string[]>;

export function synonymMap(list: readonly Synonym[]): SynonymMap {
  const map = new Map<string, string[]>();
  for (const { word, means } of list) {
    const key = normalizeQuery(word);
    const to = normalizeQuery(means);
    if (!key || !to || key === to) continue;
    const known = map.get(key);
    if (!known) map.set(key, [to]);
    else if (!known.includes(to)) known.push(to);
  }
  return map;
}

const NO_SYNONYMS: SynonymMap = new Map();

/** Typo tolerance is for Latin words of 5 letters or more. */
export const TYPO_MIN_LETTERS = 5;
const LATIN_WORD = /^[a-z]+$/;
const LATIN_RUNS = /[a-z]+/g;

export function typoTolerant(word: string): boolean {
  return word.length >= TYPO_MIN_LETTERS && LATIN_WORD.test(word);
}

/** The Latin words of a text (runs of a to z), the vocabulary a typo is matched against. */
export function latinWords(text: string): string[] {
  return text.match(LATIN_RUNS) ?? [];
}

/**
 * Whether `b` is one letter away from `a`: one letter wrong, missing or extra, or two neighbours
 * swapped (a Damerau edit distance of exactly 1).
 */
export function oneLetterAway(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1 || a === b) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    // One wrong letter, or two swapped: the rest after it (or after the pair) is the same.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One letter more in the longer: skip it there.
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** What a query word matches by: itself, or (found nowhere) the words it was widened to. */
export interface WordMatch {
  words: readonly string[];
  widened: boolean;
}

/**
 * What one query word matches by. `found`: whether any product of the catalogue holds a word;
 * `vocabulary`: the catalogue's Latin words (asked only for a word found nowhere, long enough
 * and Latin, so a keystroke that finds its word pays nothing for it).
 */
export function wordMatch(
  word: string,
  found: (w: string) => boolean,
  vocabulary: () => Iterable<string>,
  synonyms: SynonymMap,
): WordMatch {
  if (found(word)) return { words: [word], widened: false };
  const wider = new Set(synonyms.get(word) ?? []);
  if (typoTolerant(word)) for (const w of vocabulary()) if (oneLetterAway(word, w)) wider.add(w);
  return { words: [...wider], widened: true };
}

/**
 * A product's score for a query whose words match as `words` says (0: it does not match): each
 * word scores as the spec scored a query (`scoreFields`: title, earlier and whole-word hits first,
 * then category, then the rest), by the best of what it matches by, and the weakest word decides.
 * One word found as typed thus ranks exactly as the spec ranked it.
 */
export function queryScore(f: Fields, words: readonly WordMatch[]): number {
  let weakest = Number.POSITIVE_INFINITY;
  for (const m of words) {
    let best = 0;
    for (const w of m.words) best = Math.max(best, scoreFields(f, w));
    if (best === 0) return 0;
    weakest = Math.min(weakest, best);
  }
  return weakest === Number.POSITIVE_INFINITY ? 0 : weakest;
}

/** A catalogue's searched text, made once per product list (the server's cached list of a version). */
interface Prepared {
  fields: Fields[];
  vocabulary: Set<string> | null;
}
const prepared = new WeakMap<readonly Searchable[], Prepared>();

function preparedOf(products: readonly Searchable[]): Prepared {
  let p = prepared.get(products);
  if (!p) {
    p = { fields: products.map(searchFields), vocabulary: null };
    prepared.set(products, p);
  }
  return p;
}

/**
 * Matching products, best first (ties keep catalogue order). The searched text of a list is kept
 * while the list lives (the same list searched again, as the server's cached one is, prepares
 * nothing), and its Latin words are gathered only when a typo first needs them.
 */
export function search<P extends Searchable>(
  products: readonly P[],
  q: string,
  synonyms: SynonymMap = NO_SYNONYMS,
): P[] {
  const query = normalizeQuery(q);
  if (!query) return [];
  const catalogue = preparedOf(products);
  const { fields } = catalogue;
  const words = queryWords(query).map((word) =>
    wordMatch(
      word,
      (w) => fields.some((f) => holds(f, w)),
      () => {
        catalogue.vocabulary ??= new Set(
          fields.flatMap((f) => latinWords(`${f.title} ${f.category} ${f.description}`)),
        );
        return catalogue.vocabulary;
      },
      synonyms,
    ),
  );
  const hits: { p: P; s: number; i: number }[] = [];
  products.forEach((p, i) => {
    const s = queryScore(fields[i] as Fields, words);
    if (s > 0) hits.push({ p, s, i });
  });
  hits.sort((a, b) => b.s - a.s || a.i - b.i);
  return hits.map((h) => h.p);
}

/** Whether a product alone matches a query (the catalogue being that product). */
export function matches(p: Searchable, q: string, synonyms: SynonymMap = NO_SYNONYMS): boolean {
  return search([p], q, synonyms).length > 0;
}

/** The highest score scoreFields() gives (a whole title equal to the query). */
export const MAX_SCORE = 425;
