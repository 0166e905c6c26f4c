import type { Product } from './catalogue.js';
import { plainText } from './plain-text.js';

/**
 * The spec's search rule, used by the server's `GET /search` and by the
 * device's offline search: a product matches when the trimmed query is a
 * case-insensitive substring of its title, description or category name.
 * An empty query matches nothing. Matches are ranked (title before category
 * before description; earlier and whole-word hits first) without ever
 * changing what matches.
 */
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
function titleHitScore(pos: number, wordStart: boolean, titleLength: number, queryLength: number): number {
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

/**
 * A prepared index for searching the same catalogue many times (the device's
 * offline search): the three fields are lower-cased and stripped of HTML, and
 * split into words, once per product version; a query is looked up in the
 * catalogue's distinct words and per-word lists of products (see Words and
 * Postings below), or, with a space in it, searched in the text of the last
 * answer's products. Matching and ranking are exactly `search()`'s: the index
 * only moves work from every query to every change.
 */
/** The highest score scoreFields() gives (a whole title equal to the query). */
const MAX_SCORE = 425;

/** Which of the first 128 UTF-16 units are letters or digits. */
const ASCII_WORD_CHARS = Uint8Array.from({ length: 128 }, (_, c) =>
  /[\p{L}\p{N}]/u.test(String.fromCharCode(c)) ? 1 : 0,
);

/**
 * scoreFields()'s "letter or digit" test on one UTF-16 unit, without a regex for plain ASCII. A
 * table read, not a chain of comparisons: the engine compiles a comparison no run has reached as
 * a bail-out, and one it first reached on a shopper's keystroke (a title hit after a space, in a
 * query with a space) threw the search's compiled loop away in the middle of it.
 */
function isWordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c < 128 ? ASCII_WORD_CHARS[c] === 1 : /[\p{L}\p{N}]/u.test(text[at] ?? '');
}

/** JavaScript's white space (what `\s` matches), so that words split exactly where a query's `\s` test does. */
function isSpace(c: number): boolean {
  return c < 128
    ? c === 32 || (c >= 9 && c <= 13)
    : c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff;
}

/** Fields prepared once per product version: their text, and the words of each (see Words). */
interface Prepared {
  stamp: unknown;
  fields: ReturnType<typeof searchFields>;
  /**
   * Word ids of the title, category and description, in order, each word once per product (the
   * category and description without the earlier fields' words); where each title word first starts.
   */
  titleWords: Int32Array;
  titleStarts: Int32Array;
  categoryWords: Int32Array;
  descriptionWords: Int32Array;
}

/**
 * Every distinct word (a run of characters between white space) of the indexed text, once. A query
 * without white space is a substring of a field exactly when it is a substring of one of the
 * field's words, so such a query is looked for in the words, each distinct word once, and each
 * product then only looks its own word ids up: no string search per product. At 50,000 products a
 * string search per product (an indexOf call each) cost a broad query's keystroke 20-30 ms of a
 * fast machine, 70 ms on a phone (issue 17); the word table costs a table lookup per word.
 */
class Words {
  private ids = new Map<string, number>();
  private list: string[] = [];
  /** The words joined by a character no query holds, and where each starts; rebuilt when words were added. */
  private text = '';
  private starts = new Int32Array(0);
  /** Per word, where the current query first occurs in it (-1: nowhere). */
  offsets = new Int32Array(0);
  /** Per word holding the query: 1 when that first occurrence starts a word (scoreFields' "whole-word hit"). */
  wordStart = new Uint8Array(0);
  /** The words holding the current query. */
  matched: number[] = [];

  get size(): number {
    return this.list.length;
  }

  idsOf(field: string, starts?: number[]): Int32Array {
    const out: number[] = [];
    // A loop over the characters, not a regular expression: a first visit to Search prepares every
    // product's words, and `/\S+/g` cost three times as long on a phone.
    const len = field.length;
    let from = -1;
    for (let p = 0; p <= len; p++) {
      if (p < len && !isSpace(field.charCodeAt(p))) {
        if (from < 0) from = p;
        continue;
      }
      if (from < 0) continue;
      const word = field.slice(from, p);
      let id = this.ids.get(word);
      if (id === undefined) {
        id = this.list.length;
        this.ids.set(word, id);
        this.list.push(word);
      }
      out.push(id);
      starts?.push(from);
      from = -1;
    }
    return Int32Array.from(out);
  }

  /** Makes the joined text of the words current (after words were added): at `update`, not on a keystroke. */
  ready(): void {
    if (this.starts.length !== this.list.length) {
      this.text = this.list.join('\u0001');
      this.starts = new Int32Array(this.list.length);
      let at = 0;
      this.list.forEach((w, i) => {
        this.starts[i] = at;
        at += w.length + 1;
      });
      this.offsets = new Int32Array(this.list.length).fill(-1);
      this.wordStart = new Uint8Array(this.list.length);
      this.matched = [];
    }
  }

  /** Marks, in `offsets`, every word holding `query` with where it first does. */
  find(query: string): void {
    this.ready();
    for (const w of this.matched) this.offsets[w] = -1;
    this.matched = [];
    const starts = this.starts;
    let from = 0;
    for (;;) {
      const hit = this.text.indexOf(query, from);
      if (hit < 0) return;
      // The word holding the hit: the last start at or before it (a hit never spans the separator).
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= hit) lo = mid;
        else hi = mid - 1;
      }
      const offset = hit - (starts[lo] as number);
      this.offsets[lo] = offset;
      this.matched.push(lo);
      this.wordStart[lo] = offset === 0 || !isWordChar(this.list[lo] as string, offset - 1) ? 1 : 0;
      // The rest of this word cannot hold an earlier occurrence: go on from the next word.
      from = (starts[lo] as number) + (this.list[lo] as string).length + 1;
    }
  }
}

function prepare(fields: ReturnType<typeof searchFields>, words: Words, stamp: unknown): Prepared {
  const starts: number[] = [];
  const inTitle = words.idsOf(fields.title, starts);
  // Each title word once, where it first starts: the first occurrence is the one a score needs.
  const firstStarts: number[] = [];
  const titleWords = inTitle.filter((id, j) => {
    if (inTitle.indexOf(id) !== j) return false;
    firstStarts.push(starts[j] as number);
    return true;
  });
  const categoryWords = words.idsOf(fields.category);
  return {
    stamp,
    fields,
    titleWords,
    titleStarts: Int32Array.from(firstStarts),
    // Only the words an earlier field does not hold: a query in such a word already matched there,
    // which outranks this field (descriptions often repeat the title, and each repeat was one more
    // entry for every keystroke to walk past).
    categoryWords: without(categoryWords, titleWords),
    descriptionWords: without(words.idsOf(fields.description), titleWords, categoryWords),
  };
}

/** The ids of `ids` that none of `earlier` holds, each once. */
function without(ids: Int32Array, ...earlier: Int32Array[]): Int32Array {
  const seen = new Set<number>();
  for (const list of earlier) for (const id of list) seen.add(id);
  return ids.filter((id) => {
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * For each word, the products (by position in catalogue order) whose field holds it: one list per
 * field, each product once per word (the first time, with where it starts, for titles). A keystroke
 * walks the lists of the words holding the query, a few array reads per product that holds one,
 * instead of reading every product's words: at 50,000 products a per-product pass cost a broad
 * query 100 ms of a throttled phone's keystroke (issue 17's bench).
 */
interface Postings {
  /** Where each word's list starts in `items` (and the end, at the word count). */
  at: Int32Array;
  items: Int32Array;
  /** Titles only: where the word starts in the title. */
  starts: Int32Array;
  /**
   * Categories and descriptions: per word, which of `bits` holds its products (-1: a list in
   * `items`). A word that more than one product in 32 holds is a bitset of all products instead of a
   * list, never bigger than the list: a keystroke ORs a few thousand words of it, where walking the
   * list was a read per product. The seeder's descriptions share 16 words with every product, and a
   * first letter walked 400,000 entries of them (issue 17's bench, 50,000 products).
   */
  dense: Int32Array;
  bits: Int32Array;
}

/** 32-bit words of a bitset of `n` products. */
const bitsetLength = (n: number): number => (n + 31) >>> 5;

/** Products per step of a rebuild between two yields (see SearchIndex.updating). */
const STEP = 2_000;

/**
 * The lists of `lists` (per product, its word ids) turned around: per word, its products. With
 * `starts` (titles), each entry keeps where its word starts; without, common words are bitsets
 * (see Postings.dense).
 */
function* postings(
  words: number,
  lists: readonly Int32Array[],
  starts?: readonly Int32Array[],
): Generator<void, Postings> {
  // A product's list holds each word once (see prepare), so each word's list holds each product once.
  const at = new Int32Array(words + 1);
  for (let i = 0; i < lists.length; i++) {
    const ids = lists[i] as Int32Array;
    for (let j = 0; j < ids.length; j++) {
      const w = ids[j] as number;
      at[w + 1] = (at[w + 1] as number) + 1;
    }
    if (i % STEP === STEP - 1) yield;
  }
  const stride = bitsetLength(lists.length);
  const dense = new Int32Array(words).fill(-1);
  let bitsets = 0;
  if (!starts) {
    for (let w = 0; w < words; w++) {
      if ((at[w + 1] as number) > stride) {
        dense[w] = bitsets++;
        at[w + 1] = 0;
      }
    }
  }
  for (let w = 0; w < words; w++) at[w + 1] = (at[w + 1] as number) + (at[w] as number);
  const size = at[words] as number;
  const fill = at.slice(0, words);
  const items = new Int32Array(size);
  const out = new Int32Array(starts ? size : 0);
  const bits = new Int32Array(bitsets * stride);
  for (let i = 0; i < lists.length; i++) {
    const ids = lists[i] as Int32Array;
    const word = i >>> 5;
    const bit = 1 << (i & 31);
    for (let j = 0; j < ids.length; j++) {
      const w = ids[j] as number;
      const d = dense[w] as number;
      if (d >= 0) {
        bits[d * stride + word] = (bits[d * stride + word] as number) | bit;
        continue;
      }
      const k = fill[w] as number;
      fill[w] = k + 1;
      items[k] = i;
      if (starts) out[k] = (starts[i] as Int32Array)[j] as number;
    }
    if (i % STEP === STEP - 1) yield;
  }
  return { at, items, starts: out, dense, bits };
}

interface Layout {
  title: Postings;
  category: Postings;
  description: Postings;
  /** Per product: the length of its title and of its category name, and its three fields in one string. */
  titleLength: Int32Array;
  categoryLength: Int32Array;
  joined: string[];
  /** The strings the joined texts are slices of (one per STEP products), and where each product's starts in its own. */
  steps: string[];
  stepAt: Int32Array;
}

function emptyLayout(): Layout {
  const none = (): Postings => ({
    at: new Int32Array(1),
    items: new Int32Array(0),
    starts: new Int32Array(0),
    dense: new Int32Array(0),
    bits: new Int32Array(0),
  });
  return {
    title: none(),
    category: none(),
    description: none(),
    titleLength: new Int32Array(0),
    categoryLength: new Int32Array(0),
    joined: [],
    steps: [],
    stepAt: new Int32Array(0),
  };
}

function lengths(entries: readonly Prepared[], of: (e: Prepared) => number): Int32Array {
  const out = new Int32Array(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = of(entries[i] as Prepared);
  return out;
}

/**
 * Each product's three fields in one string (title first), for queries with a space in them. The
 * strings are slices of one string per step of products, so their characters lie side by side in
 * memory in catalogue order: a string per product, made when that product was prepared, lay
 * scattered over the heap, and reading 50,000 of them was mostly cache misses (a query with a
 * space from scratch cost 11 ms of a fast machine, against 2.4 ms for the same text side by side).
 */
function* joinedTexts(
  entries: readonly Prepared[],
): Generator<void, Pick<Layout, 'joined' | 'steps' | 'stepAt'>> {
  const joined: string[] = new Array(entries.length);
  const steps: string[] = [];
  const stepAt = new Int32Array(entries.length);
  for (let from = 0; from < entries.length; from += STEP) {
    const step = entries.slice(from, from + STEP);
    const texts = step.map((e) => [e.fields.title, e.fields.category, e.fields.description].join('\u0000'));
    // Slices share these characters (no copy); a search in one ends at its own end.
    const all = texts.join('\u0000');
    steps.push(all);
    let at = 0;
    texts.forEach((t, k) => {
      joined[from + k] = all.slice(at, at + t.length);
      stepAt[from + k] = at;
      at += t.length + 1;
    });
    yield;
  }
  return { joined, steps, stepAt };
}

function* layOut(entries: readonly Prepared[], words: number): Generator<void, Layout> {
  const title = yield* postings(
    words,
    entries.map((e) => e.titleWords),
    entries.map((e) => e.titleStarts),
  );
  const category = yield* postings(
    words,
    entries.map((e) => e.categoryWords),
  );
  const description = yield* postings(
    words,
    entries.map((e) => e.descriptionWords),
  );
  return {
    title,
    category,
    description,
    titleLength: lengths(entries, (e) => e.fields.title.length),
    categoryLength: lengths(entries, (e) => e.fields.category.length),
    ...(yield* joinedTexts(entries)),
  };
}

/**
 * Whether `text` holds `query` at `at`. Given a step's string (Layout.steps) and where in it, not a
 * product's slice: character reads of a slice go through its parent one at a time, and that check
 * cost more than the rest of a narrowed keystroke. A query never spans two products: it holds no
 * separator (SearchIndex.searchPage).
 */
function matchesAt(text: string, query: string, at: number): boolean {
  if (at + query.length > text.length) return false;
  for (let k = 0; k < query.length; k++) if (text.charCodeAt(at + k) !== query.charCodeAt(k)) return false;
  return true;
}

/**
 * Marks, in `held`, the products whose title holds word `w`; the first occurrence in a title is the
 * smallest of its words' (start + where the query is in the word), in `best`.
 */
function markTitles(
  title: Postings,
  w: number,
  offset: number,
  wordStart: number,
  held: Int32Array,
  best: Int32Array,
  whole: Uint8Array,
): void {
  const { items, starts } = title;
  for (let k = title.at[w] as number, end = title.at[w + 1] as number; k < end; k++) {
    const i = items[k] as number;
    const pos = (starts[k] as number) + offset;
    const word = i >>> 5;
    const bit = 1 << (i & 31);
    const was = held[word] as number;
    if ((was & bit) === 0) {
      held[word] = was | bit;
      best[i] = pos;
      whole[i] = wordStart;
    } else if (pos < (best[i] as number)) {
      best[i] = pos;
      whole[i] = wordStart;
    }
  }
}

/** Marks, in `held`, the products whose category (or description) holds word `w`. */
function markOthers(list: Postings, w: number, held: Int32Array): void {
  const d = list.dense[w] as number;
  if (d >= 0) {
    const bits = list.bits;
    const stride = held.length;
    for (let k = 0, from = d * stride; k < stride; k++)
      held[k] = (held[k] as number) | (bits[from + k] as number);
    return;
  }
  const items = list.items;
  for (let k = list.at[w] as number, end = list.at[w + 1] as number; k < end; k++) {
    const i = items[k] as number;
    held[i >>> 5] = (held[i >>> 5] as number) | (1 << (i & 31));
  }
}

/** Which products a keystroke without white space found, per field (bitsets), and in titles where. */
interface Marks {
  title: Int32Array;
  category: Int32Array;
  description: Int32Array;
  best: Int32Array;
  whole: Uint8Array;
}

function emptyMarks(n: number): Marks {
  const length = bitsetLength(n);
  return {
    title: new Int32Array(length),
    category: new Int32Array(length),
    description: new Int32Array(length),
    best: new Int32Array(n),
    whole: new Uint8Array(n),
  };
}

/**
 * A keystroke's matches in catalogue order: which, where each first holds the query, and its score
 * (of a query without white space, only its title hits until a query with a space narrows it).
 */
interface Buffers {
  hits: Int32Array;
  positions: Int32Array;
  scores: Uint16Array;
  /** Text hits: what follows each match (see ahead()); 0 where unknown. */
  ahead: Int32Array;
}

function emptyBuffers(n = 0): Buffers {
  return {
    hits: new Int32Array(n),
    positions: new Int32Array(n),
    scores: new Uint16Array(n),
    ahead: new Int32Array(n),
  };
}

/** The last answer, which the next keystroke narrows (SearchIndex.last). */
interface Answer {
  query: string;
  hits: Int32Array;
  positions: Int32Array;
  scores: Uint16Array;
  ahead: Int32Array;
}

/** The answer to `query` whose `n` matches are at the start of `buffer`. */
function answerIn(query: string, buffer: Buffers, n: number): Answer {
  return {
    query,
    hits: buffer.hits.subarray(0, n),
    positions: buffer.positions.subarray(0, n),
    scores: buffer.scores.subarray(0, n),
    ahead: buffer.ahead.subarray(0, n),
  };
}

/**
 * What follows a text hit, for the keystroke that adds a character to the query: up to three
 * characters after the match (ISO-8859-1 ones, a byte each, the first lowest; 0 ends them) and, in
 * bit 24, whether a title match starts a word (what its score needs). A keystroke that adds the
 * next of these characters matches at the same place without reading the product's text: at 50,000
 * products the texts are megabytes, and reading one per candidate was a cache miss each, most of
 * such a keystroke's time.
 */
function ahead(step: string, after: number, wordStart: boolean): number {
  let chars = 0;
  for (let k = 0; k < 3; k++) {
    const c = step.charCodeAt(after + k);
    // The separator (0), a character past the step's end (NaN) or one beyond a byte ends them.
    if (!(c > 0 && c < 256)) break;
    chars |= c << (8 * k);
  }
  return chars | (wordStart ? 1 << 24 : 0);
}

/**
 * One product of a query without white space, if the marks found it: its score (scoreFields()'s,
 * from where the query first occurs in the title, else whether it is in the category, else in the
 * description) and a bound on where it holds the query, put at `n` of `out`. Returns whether it is.
 */
function wordHit(layout: Layout, marks: Marks, i: number, qlen: number, out: Buffers, n: number): boolean {
  const word = i >>> 5;
  const bit = 1 << (i & 31);
  const tl = layout.titleLength[i] as number;
  let score: number;
  let at: number;
  if (((marks.title[word] as number) & bit) !== 0) {
    // scoreFields()'s title score, without reading the title: the character before the hit is white
    // space (a word's start) or inside the word, which the word table judged once.
    at = marks.best[i] as number;
    score = titleHitScore(at, marks.whole[i] === 1, tl, qlen);
  } else if (((marks.category[word] as number) & bit) !== 0) {
    // Where the category or the description starts: no later than the first occurrence, which is
    // all narrowing needs.
    score = 200;
    at = tl + 1;
  } else if (((marks.description[word] as number) & bit) !== 0) {
    score = 100;
    at = tl + 1 + (layout.categoryLength[i] as number) + 1;
  } else return false;
  out.hits[n] = i;
  out.positions[n] = at;
  out.scores[n] = score;
  out.ahead[n] = 0;
  return true;
}

/**
 * A query without white space listed whole from its marks, in catalogue order, for a query with a
 * space to narrow (SearchIndex.searchPage): 32 products a test, then the marked ones one by one.
 */
function wordHits(layout: Layout, marks: Marks, qlen: number, out: Buffers): number {
  const { title, category, description } = marks;
  let n = 0;
  for (let b = 0; b < title.length; b++) {
    let m = (title[b] as number) | (category[b] as number) | (description[b] as number);
    while (m !== 0) {
      const low = m & -m;
      m ^= low;
      if (wordHit(layout, marks, (b << 5) | (31 - Math.clz32(low)), qlen, out, n)) n++;
    }
  }
  return n;
}

/** Set bits in a 32-bit word. */
function bitCount(word: number): number {
  const a = word - ((word >>> 1) & 0x55555555);
  const b = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  return Math.imul((b + (b >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * A query without white space, as a page needs it: its title hits in catalogue order with their
 * scores (into `out`), and how many products hold it only in their category and only in their
 * description. Every title hit outranks every other (scoreFields() gives a title at least 280, a
 * category 200, a description 100), so those two are counted, not listed: a query that every
 * product's description holds (the seeder's "eggless") costs a count per 32 products, where a list
 * in catalogue order cost a few array writes per product.
 */
function wordAnswer(
  layout: Layout,
  marks: Marks,
  qlen: number,
  out: Buffers,
): { titles: number; categories: number; descriptions: number } {
  const { title, category, description, best, whole } = marks;
  const { titleLength } = layout;
  const { hits, scores } = out;
  let titles = 0;
  let categories = 0;
  let descriptions = 0;
  for (let b = 0; b < title.length; b++) {
    const t = title[b] as number;
    const c = category[b] as number;
    if (c !== 0) categories += bitCount(c & ~t);
    const d = description[b] as number;
    if (d !== 0) descriptions += bitCount(d & ~c & ~t);
    let m = t;
    while (m !== 0) {
      const low = m & -m;
      m ^= low;
      const i = (b << 5) | (31 - Math.clz32(low));
      hits[titles] = i;
      // scoreFields()'s title score, without reading the title (see wordHit).
      scores[titles] = titleHitScore(best[i] as number, whole[i] === 1, titleLength[i] as number, qlen);
      titles++;
    }
  }
  return { titles, categories, descriptions };
}

/** Adds to `page`, up to `limit`, the products marked in `held` and in neither `not` nor `nor`, in catalogue order. */
function addMarked<P>(
  items: readonly P[],
  held: Int32Array,
  not: Int32Array,
  nor: Int32Array | null,
  page: P[],
  limit: number,
): void {
  for (let b = 0; b < held.length && page.length < limit; b++) {
    let m = (held[b] as number) & ~(not[b] as number) & (nor ? ~(nor[b] as number) : -1);
    while (m !== 0 && page.length < limit) {
      const low = m & -m;
      m ^= low;
      page.push(items[(b << 5) | (31 - Math.clz32(low))] as P);
    }
  }
}

/** The last answer to a query without white space, as wordAnswer() left it (its marks and title hits). */
interface WordAnswer {
  query: string;
  titles: number;
  categories: number;
  descriptions: number;
}

/**
 * A query with white space, searched in each product's joined text: of all products, or of the
 * last answer's (`narrowed`, whose query sits at `shift` in this one).
 */
function textHits(
  layout: Layout,
  query: string,
  narrowed: Answer | null,
  shift: number,
  total: number,
  out: Buffers,
): number {
  const candidates = narrowed ? narrowed.hits : null;
  const before = narrowed ? narrowed.positions : null;
  const known = narrowed ? narrowed.ahead : null;
  const count = candidates ? candidates.length : total;
  const qlen = query.length;
  // The character this keystroke added to the last query, when that is all it did (-1 otherwise).
  const added =
    narrowed && shift === 0 && qlen === narrowed.query.length + 1 ? query.charCodeAt(qlen - 1) : -1;
  // Flat arrays, not the products' objects: reading 5,000 scattered objects cost more than searching their text.
  const { joined, steps, stepAt, titleLength, categoryLength } = layout;
  const { hits, positions, scores, ahead: follows } = out;
  let n = 0;
  for (let c = 0; c < count; c++) {
    const i = candidates ? (candidates[c] as number) : c;
    // One indexOf per product answers both "does it match" and "where": the joined string starts with the
    // title, so the first hit lies in the title exactly when the title contains the query, else in the
    // category, else in the description.
    const text = joined[i] as string;
    const from = before ? Math.max(0, (before[c] as number) - shift) : 0;
    const step = steps[(i / STEP) | 0] as string;
    const start = stepAt[i] as number;
    const next = known ? (known[c] as number) : 0;
    let pos: number;
    let after = 0;
    if (added > 0 && (next & 0xff) === added) {
      // The added character is the one after the last match: the same place, from what was kept.
      pos = from;
      after = ((next & 0xffffff) >>> 8) | (next & (1 << 24));
    } else if (added > 0 && (next & 0xff) !== 0) {
      // Another character follows the last match: not there, so later if anywhere.
      pos = text.indexOf(query, from + 1);
    } else {
      // Still where the last query was (the usual keystroke): a few character reads, not a search.
      pos = matchesAt(step, query, start + from) ? from : text.indexOf(query, from + 1);
    }
    if (pos < 0) continue;
    const tl = titleLength[i] as number;
    const inTitle = pos < tl;
    // The title is where the joined text starts, so the character before a title hit is read there;
    // whether any other hit starts a word counts for nothing.
    if ((after & 0xff) === 0)
      after = ahead(step, start + pos + qlen, inTitle && (pos === 0 || !isWordChar(step, start + pos - 1)));
    hits[n] = i;
    positions[n] = pos;
    follows[n] = after;
    scores[n] = inTitle
      ? titleHitScore(pos, (after & (1 << 24)) !== 0, tl, qlen)
      : pos < tl + 1 + (categoryLength[i] as number)
        ? 200
        : 100;
    n++;
  }
  return n;
}

/**
 * The first `limit` of `n` hits, best first. Scores are small whole numbers (100 to 425): a
 * counting sort ranks them in one pass, stable, so ties keep catalogue order, where a comparison
 * sort of 50,000 hits cost a frame by itself.
 */
function ranked<P>(
  items: readonly P[],
  hits: Int32Array,
  scores: Uint16Array,
  n: number,
  limit: number,
): P[] {
  const starts = new Int32Array(MAX_SCORE + 2);
  for (let k = 0; k < n; k++) {
    const b = MAX_SCORE - (scores[k] as number) + 1;
    starts[b] = (starts[b] as number) + 1;
  }
  for (let b = 1; b < starts.length; b++) starts[b] = (starts[b] as number) + (starts[b - 1] as number);
  const count = Math.min(n, limit);
  const out: P[] = new Array(count);
  // Each hit has a place of its own: once the first `count` places are taken, no later hit takes one
  // (a query every product matches, all of one score, ends here after a page of hits, not 50,000).
  let placed = 0;
  for (let k = 0; k < n && placed < count; k++) {
    const b = MAX_SCORE - (scores[k] as number);
    const at = starts[b] as number;
    starts[b] = at + 1;
    if (at < count) {
      out[at] = items[hits[k] as number] as P;
      placed++;
    }
  }
  return out;
}

/**
 * A catalogue whose searches take every path of the keystroke functions (SearchIndex.warming): hits
 * at a title's start, inside a title word and after a space, in a category and in a description,
 * next to a letter outside ASCII, with and without a space in the query, narrowed and not, and
 * a typed character that the text after the last match has, has not ('rose bo' after 'rose bed')
 * or has run out of.
 */
const WARMING_CATALOGUE = (
  [
    ['Eggless cake', 'Cakes', '<p>Rich and dark, serves ten</p>'],
    ['Rosé bouquet', 'Flowers', '<p>Twelve red roses</p>'],
    ['Hamper', 'Gifts and hampers', ''],
    ['Plant', 'Plants', '<p>A fern in a pot, easy care</p>'],
    ['Crème brûlée jar 2', 'Desserts', ''],
    ['Red rose bed and rose box', 'Roses', '<p>A rose bouquet</p>'],
  ] as const
).map(([title, categoryName, description], i) => ({
  productID: i + 1,
  version: 1,
  title,
  categoryName,
  description,
}));
/** Typed into the warming catalogue a key at a time (each prefix narrows the last). */
const WARMING_TYPED = [
  'eggless cake',
  'é b',
  'and hampers',
  'a fern',
  'twelve red roses',
  'plant',
  'e a',
  'cake',
  'me b',
  'jar 2',
  'bouquet',
  'rose bo',
];

export class SearchIndex<P extends Searchable & { productID: number }> {
  /** The indexed products in catalogue order, and their prepared fields (two arrays: no object per product to make). */
  private items: P[] = [];
  private entries: Prepared[] = [];
  /** Prepared fields by product id, reused while the product's stamp is unchanged. */
  private prepared = new Map<number, Prepared>();
  private words = new Words();
  private layout: Layout = emptyLayout();
  /** A keystroke's marks, kept between keystrokes (see Marks). */
  private marks: Marks = emptyMarks(0);
  private buffers: Buffers[] = [emptyBuffers(), emptyBuffers()];
  private turn = 0;

  /**
   * Prepares the text of some products ahead of `update`, without changing
   * what a search sees: a caller can prepare a big catalogue in slices with
   * yields between them, and the `update` that follows then reuses every
   * slice's work instead of preparing everything in one long task.
   */
  prepare(
    products: readonly P[],
    stamp: (p: P) => unknown = (p) => (p as { version?: unknown }).version ?? p,
  ): void {
    for (const item of products) {
      const s = stamp(item);
      const prep = this.prepared.get(item.productID);
      if (prep && prep.stamp === s) continue;
      this.prepared.set(item.productID, prepare(searchFields(item), this.words, s));
    }
  }

  /**
   * Replaces the indexed products (in catalogue order, which breaks ties).
   * `stamp` says when a product changed (its version by default); unchanged
   * products keep their prepared text and words, so an update after a sync
   * prepares only the changed rows (the word lists are made again whole).
   */
  update(
    products: readonly P[],
    stamp: (p: P) => unknown = (p) => (p as { version?: unknown }).version ?? p,
  ): void {
    const steps = this.updating(products, stamp);
    while (!steps.next().done) {
      // all at once
    }
  }

  /**
   * `update` in steps of a few thousand products: the caller runs them with yields between (at
   * 50,000 products the word lists took a phone most of a second, one task, web/hooks/useSearch.ts).
   * Searches in between answer from the index as it was; the new one takes over at the last step.
   * A caller that stops early leaves the index as it was.
   */
  *updating(
    products: readonly P[],
    stamp: (p: P) => unknown = (p) => (p as { version?: unknown }).version ?? p,
  ): Generator<void, void> {
    const next = new Map<number, Prepared>();
    const entries: Prepared[] = new Array(products.length);
    for (let i = 0; i < products.length; i++) {
      const item = products[i] as P;
      const s = stamp(item);
      let prep = this.prepared.get(item.productID);
      if (!prep || prep.stamp !== s) prep = prepare(searchFields(item), this.words, s);
      next.set(item.productID, prep);
      entries[i] = prep;
      if (i % STEP === STEP - 1) yield;
    }
    const layout = yield* layOut(entries, this.words.size);
    this.items = [...products];
    this.entries = entries;
    this.prepared = next;
    this.layout = layout;
    this.words.ready();
    this.marks = emptyMarks(this.entries.length);
    this.last = null;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Runs every kind of keystroke over the index a few times, answers thrown away: the first runs of
   * a loop over 50,000 products are the engine's interpreter and its first compilers (a first
   * letter cost 3 ms of a fast machine three times over and 0.9 ms from the fourth, 12 ms and more
   * on a phone, issue 17's bench), and a path first taken in compiled code throws that code away.
   * So each path (a query without a space, one with a space from scratch and narrowed) runs here
   * three times. Called when the index is built, a query per task (web/hooks/useSearch.ts), so the
   * shopper's first keystroke runs optimized code. Changes no answer: the next search starts afresh.
   */
  *warming(): Generator<void, void> {
    // First every path of every kind on a small catalogue made to take them all (see WARMING_CATALOGUE):
    // the engine compiles a loop for the paths it has seen run, and the first product to take another
    // threw the compiled loop away mid-keystroke (issue 17's bench at 50,000 products: "chocolate c"
    // took 17-41 ms of a throttled phone, 10 ms without).
    // Three times: the engine records nothing of a function's first few calls (about eight), so a
    // path taken only then counts as never taken.
    const sample = new SearchIndex<(typeof WARMING_CATALOGUE)[number]>();
    sample.update(WARMING_CATALOGUE);
    for (let round = 0; round < 3; round++)
      for (const typed of WARMING_TYPED)
        for (let k = 1; k <= typed.length; k++) sample.searchPage(typed.slice(0, k), 3);
    yield;
    for (let round = 0; round < 3; round++) {
      for (const q of ['e', 'ea', 'a', 'e a', 'e an', 'a e']) {
        this.searchPage(q, SEARCH_PAGE_SIZE);
        yield;
      }
    }
    this.last = null;
  }

  /** `warming` at once. */
  warm(): void {
    const steps = this.warming();
    while (!steps.next().done) {
      // all at once
    }
  }

  /**
   * The last query answered and the positions (in catalogue order) of its matches; or, for a query
   * without white space, its counts, its answer being in the marks (see wordAnswer). Typing adds to
   * a query: a text that contains the longer query contains the shorter, so the next keystroke of a
   * query with a space in it need only look at these. `update` clears it.
   */
  private last: Answer | WordAnswer | null = null;

  /** Matching products, best first (ties keep catalogue order); an empty query gives none. */
  search(q: string, limit = Number.POSITIVE_INFINITY): P[] {
    return this.searchPage(q, limit).items;
  }

  /**
   * The first `limit` matches, best first, and how many match in all: a screen that shows the first
   * few dozen never has an array of all 50,000 made for it on every keystroke.
   */
  searchPage(q: string, limit: number): { items: P[]; total: number } {
    const query = normalizeQuery(q);
    if (!query) return { items: [], total: 0 };
    const entries = this.entries;
    // A query holding a separator could match across two fields or words: that rare query takes the plain path.
    if (query.includes('\u0000') || query.includes('\u0001')) {
      const all = this.searchPlain(query);
      return { items: all.slice(0, limit), total: all.length };
    }
    // The last answer's arrays: this keystroke's go in the other set (below).
    const previous = this.buffers[this.turn ^ 1] as Buffers;
    // The same query again (a space typed after a word: "rose " is "rose"): the last answer, ranked anew.
    const same = this.last?.query === query ? this.last : null;
    if (same && !('hits' in same)) return this.wordPage(same, previous, limit);
    if (same && 'hits' in same) {
      const n = same.hits.length;
      return { items: ranked(this.items, same.hits, same.scores, n, limit), total: n };
    }
    const total = entries.length;
    // Two sets of arrays in turn, kept between keystrokes: this one's answer is read from the other's,
    // and new arrays of 50,000 on every keystroke kept a phone's garbage collector busy.
    let buffer = this.buffers[this.turn] as Buffers;
    if (buffer.hits.length < total) {
      buffer = emptyBuffers(total);
      this.buffers[this.turn] = buffer;
    }
    this.turn ^= 1;
    const qlen = query.length;
    // Each kind of keystroke is a function of its own, and so is the ranking: the engine compiles and
    // optimizes each alone. In one function, a keystroke of the other kind ran code compiled without
    // its path, which the engine threw away and compiled again, running the loop uncompiled meanwhile
    // (a narrowed query with a space cost 4 ms of a fast machine every time instead of 0.5).
    if (!/\s/.test(query)) {
      this.words.find(query);
      const { offsets, wordStart, matched } = this.words;
      const { title, category, description } = this.layout;
      const marks = this.marks;
      marks.title.fill(0);
      marks.category.fill(0);
      marks.description.fill(0);
      for (const w of matched)
        markTitles(
          title,
          w,
          offsets[w] as number,
          wordStart[w] as number,
          marks.title,
          marks.best,
          marks.whole,
        );
      for (const w of matched) markOthers(category, w, marks.category);
      for (const w of matched) markOthers(description, w, marks.description);
      // The marks are exactly the matches, so there is no last answer to narrow; nor is this answer
      // listed whole unless a query with a space narrows it (below).
      const answer = { query, ...wordAnswer(this.layout, marks, qlen, buffer) };
      this.last = answer;
      return this.wordPage(answer, buffer, limit);
    }
    let last = this.last;
    if (last && !('hits' in last)) {
      // The query without a space that this one narrows, listed whole now from its marks, in its own arrays.
      last = query.includes(last.query)
        ? answerIn(last.query, previous, wordHits(this.layout, this.marks, last.query.length, previous))
        : null;
    }
    // Where the last query sits in the new one: an occurrence of the new query at p holds the last at
    // p + shift, so none starts before the last one's (first, or a bound under it) minus shift.
    const shift = last ? query.indexOf(last.query) : -1;
    const narrowed = last && shift >= 0 ? last : null;
    const n = textHits(this.layout, query, narrowed, shift, total, buffer);
    this.last = answerIn(query, buffer, n);
    return { items: ranked(this.items, buffer.hits, buffer.scores, n, limit), total: n };
  }

  /** A page of a query without white space: its title hits best first, then its category and description hits. */
  private wordPage(answer: WordAnswer, from: Buffers, limit: number): { items: P[]; total: number } {
    const { titles, categories, descriptions } = answer;
    const items = ranked(this.items, from.hits, from.scores, titles, limit);
    const { title, category, description } = this.marks;
    if (items.length < limit && categories > 0) addMarked(this.items, category, title, null, items, limit);
    if (items.length < limit && descriptions > 0)
      addMarked(this.items, description, title, category, items, limit);
    return { items, total: titles + categories + descriptions };
  }

  private searchPlain(query: string): P[] {
    const hits: { p: P; s: number; i: number }[] = [];
    this.entries.forEach((e, i) => {
      const s = scoreFields(e.fields, query);
      if (s > 0) hits.push({ p: this.items[i] as P, s, i });
    });
    hits.sort((a, b) => b.s - a.s || a.i - b.i);
    return hits.map((h) => h.p);
  }
}
