import type { Product } from './catalogue.js';

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

/** Descriptions are HTML: search their text, so "strong" or "class" never match a tag. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
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
    return (
      300 +
      (t === 0 ? 50 : 0) +
      (wordStart ? 25 : 0) -
      Math.min(t, 20) +
      (f.title.length === query.length ? 50 : 0)
    );
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
 * offline search): the three fields are lower-cased and stripped of HTML once
 * per product version, so a query is plain `indexOf` calls over strings kept
 * in memory. Matching and ranking are exactly `search()`'s: the index only
 * moves work from every query to every change.
 */
/** The highest score scoreFields() gives (a whole title equal to the query). */
const MAX_SCORE = 425;

/** scoreFields()'s "letter or digit" test on one UTF-16 unit, without a regex for plain ASCII. */
function isWordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return /[\p{L}\p{N}]/u.test(text[at] ?? '');
}

/** Fields prepared once per product version: their text, and the words of each (see Words). */
interface Prepared {
  stamp: unknown;
  fields: ReturnType<typeof searchFields>;
  /** The three fields in one string (title first), for queries with a space in them. */
  joined: string;
  /** Word ids of the title, category and description, in order; where each title word starts. */
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

  idsOf(field: string, starts?: number[]): Int32Array {
    const out: number[] = [];
    const re = /\S+/g;
    for (let m = re.exec(field); m; m = re.exec(field)) {
      let id = this.ids.get(m[0]);
      if (id === undefined) {
        id = this.list.length;
        this.ids.set(m[0], id);
        this.list.push(m[0]);
      }
      out.push(id);
      starts?.push(m.index);
    }
    return Int32Array.from(out);
  }

  /** Marks, in `offsets`, every word holding `query` with where it first does. */
  find(query: string): void {
    if (this.starts.length !== this.list.length) {
      this.text = this.list.join('\u0001');
      this.starts = new Int32Array(this.list.length);
      let at = 0;
      this.list.forEach((w, i) => {
        this.starts[i] = at;
        at += w.length + 1;
      });
      this.offsets = new Int32Array(this.list.length);
      this.wordStart = new Uint8Array(this.list.length);
    }
    this.offsets.fill(-1);
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
      this.wordStart[lo] = offset === 0 || !isWordChar(this.list[lo] as string, offset - 1) ? 1 : 0;
      // The rest of this word cannot hold an earlier occurrence: go on from the next word.
      from = (starts[lo] as number) + (this.list[lo] as string).length + 1;
    }
  }
}

function prepare(fields: ReturnType<typeof searchFields>, words: Words, stamp: unknown): Prepared {
  const starts: number[] = [];
  const titleWords = words.idsOf(fields.title, starts);
  return {
    stamp,
    fields,
    // Made by join, which gives a flat string (a template literal gives a rope).
    joined: [fields.title, fields.category, fields.description].join('\u0000'),
    titleWords,
    titleStarts: Int32Array.from(starts),
    categoryWords: words.idsOf(fields.category),
    descriptionWords: words.idsOf(fields.description),
  };
}

/** Whether any word of `ids` from `from` to `to` holds the query (its offset is marked). */
function anyMarked(ids: Int32Array, from: number, to: number, offsets: Int32Array): boolean {
  for (let j = from; j < to; j++) if ((offsets[ids[j] as number] as number) >= 0) return true;
  return false;
}

/**
 * Every indexed product's words in one array, title then category then description, and where each
 * product's run of them starts: a keystroke reads them in order from a few flat arrays, where a small
 * array per product was a cache miss per product (twice as slow as the string search it replaced).
 */
interface Layout {
  ids: Int32Array;
  /** Where each title word starts in its title (0 for other words). */
  starts: Int32Array;
  /** Per product: its first title word, first category word, first description word, and its end. */
  title: Int32Array;
  category: Int32Array;
  description: Int32Array;
  end: Int32Array;
  /** Per product: the length of its title and of its category name. */
  titleLength: Int32Array;
  categoryLength: Int32Array;
}

function layOut(entries: readonly Prepared[]): Layout {
  let size = 0;
  for (const e of entries) size += e.titleWords.length + e.categoryWords.length + e.descriptionWords.length;
  const l: Layout = {
    ids: new Int32Array(size),
    starts: new Int32Array(size),
    title: new Int32Array(entries.length),
    category: new Int32Array(entries.length),
    description: new Int32Array(entries.length),
    end: new Int32Array(entries.length),
    titleLength: new Int32Array(entries.length),
    categoryLength: new Int32Array(entries.length),
  };
  let at = 0;
  entries.forEach((e, i) => {
    l.title[i] = at;
    l.ids.set(e.titleWords, at);
    l.starts.set(e.titleStarts, at);
    at += e.titleWords.length;
    l.category[i] = at;
    l.ids.set(e.categoryWords, at);
    at += e.categoryWords.length;
    l.description[i] = at;
    l.ids.set(e.descriptionWords, at);
    at += e.descriptionWords.length;
    l.end[i] = at;
    l.titleLength[i] = e.fields.title.length;
    l.categoryLength[i] = e.fields.category.length;
  });
  return l;
}

export class SearchIndex<P extends Searchable & { productID: number }> {
  private entries: (Prepared & { item: P })[] = [];
  /** Prepared fields by product id, reused while the product's stamp is unchanged. */
  private prepared = new Map<number, Prepared>();
  private words = new Words();
  private layout: Layout = layOut([]);

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
   * products keep their prepared text, so an update after a sync costs only
   * the changed rows.
   */
  update(
    products: readonly P[],
    stamp: (p: P) => unknown = (p) => (p as { version?: unknown }).version ?? p,
  ): void {
    const next = new Map<number, Prepared>();
    this.entries = products.map((item) => {
      const s = stamp(item);
      let prep = this.prepared.get(item.productID);
      if (!prep || prep.stamp !== s) prep = prepare(searchFields(item), this.words, s);
      next.set(item.productID, prep);
      return { ...prep, item };
    });
    this.prepared = next;
    this.layout = layOut(this.entries);
    this.last = null;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The last query answered and the positions (in catalogue order) of its matches. Typing adds to
   * a query: a text that contains the longer query contains the shorter, so the next keystroke of a
   * query with a space in it need only look at these. `update` clears it.
   */
  private last: { query: string; hits: Int32Array; positions: Int32Array } | null = null;

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
    const total = entries.length;
    const hits = new Int32Array(total);
    const positions = new Int32Array(total);
    const scores = new Uint16Array(total);
    const qlen = query.length;
    let n = 0;
    // The score is scoreFields()'s, from where the query first occurs in the title, else whether it is
    // in the category, else in the description.
    const titleScore = (title: string, pos: number) =>
      300 +
      (pos === 0 ? 50 : 0) +
      (pos === 0 || !isWordChar(title, pos - 1) ? 25 : 0) -
      Math.min(pos, 20) +
      (title.length === qlen ? 50 : 0);

    const last = this.last;
    if (!/\s/.test(query)) {
      // A longer query matches only products the last one matched (typing adds to a query).
      const narrow = last && query.includes(last.query) ? last.hits : null;
      const count = narrow ? narrow.length : total;
      this.words.find(query);
      const offsets = this.words.offsets;
      const wordStart = this.words.wordStart;
      const {
        ids,
        starts: wordStarts,
        category,
        description,
        end,
        titleLength,
        categoryLength,
      } = this.layout;
      let j = 0;
      for (let c = 0; c < count; c++) {
        const i = narrow ? (narrow[c] as number) : c;
        // Words come in order and never overlap: the first title word holding the query holds its first occurrence.
        let pos = -1;
        let whole = false;
        const titleEnd = category[i] as number;
        for (j = this.layout.title[i] as number; j < titleEnd; j++) {
          const word = ids[j] as number;
          const o = offsets[word] as number;
          if (o >= 0) {
            pos = (wordStarts[j] as number) + o;
            whole = wordStart[word] === 1;
            break;
          }
        }
        let score: number;
        let at: number;
        const tl = titleLength[i] as number;
        if (pos >= 0) {
          // scoreFields()'s title score, without reading the title: the character before the hit is white
          // space (a word's start) or inside the word, which the word table judged once.
          score = 300 + (pos === 0 ? 50 : 0) + (whole ? 25 : 0) - Math.min(pos, 20) + (tl === qlen ? 50 : 0);
          at = pos;
        } else if (anyMarked(ids, titleEnd, description[i] as number, offsets)) {
          score = 200;
          // Where the category starts: no later than the first occurrence, which is all narrowing needs.
          at = tl + 1;
        } else if (anyMarked(ids, description[i] as number, end[i] as number, offsets)) {
          score = 100;
          at = tl + 1 + (categoryLength[i] as number) + 1;
        } else continue;
        hits[n] = i;
        positions[n] = at;
        scores[n] = score;
        n++;
      }
    } else {
      // Where the last query sits in the new one: an occurrence of the new query at p holds the last at
      // p + shift, so none starts before the last one's (first, or a bound under it) minus shift.
      const shift = last ? query.indexOf(last.query) : -1;
      const candidates = last && shift >= 0 ? last.hits : null;
      const before = last && shift >= 0 ? last.positions : null;
      const count = candidates ? candidates.length : total;
      for (let c = 0; c < count; c++) {
        const i = candidates ? (candidates[c] as number) : c;
        const e = entries[i] as (typeof entries)[number];
        // One indexOf per product answers both "does it match" and "where": the joined string starts with the
        // title, so the first hit lies in the title exactly when the title contains the query, else in the
        // category, else in the description.
        const pos = e.joined.indexOf(query, before ? Math.max(0, (before[c] as number) - shift) : 0);
        if (pos < 0) continue;
        const title = e.fields.title;
        hits[n] = i;
        positions[n] = pos;
        scores[n] =
          pos < title.length
            ? titleScore(title, pos)
            : pos < title.length + 1 + e.fields.category.length
              ? 200
              : 100;
        n++;
      }
    }
    const matched = hits.slice(0, n);
    this.last = { query, hits: matched, positions: positions.slice(0, n) };

    // Scores are small whole numbers (100 to 425): a counting sort ranks them in one pass, stable,
    // so ties keep catalogue order, where a comparison sort of 50,000 hits cost a frame by itself.
    const starts = new Int32Array(MAX_SCORE + 2);
    for (let k = 0; k < n; k++) {
      const b = MAX_SCORE - (scores[k] as number) + 1;
      starts[b] = (starts[b] as number) + 1;
    }
    for (let b = 1; b < starts.length; b++) starts[b] = (starts[b] as number) + (starts[b - 1] as number);
    const count = Math.min(n, limit);
    const out: P[] = new Array(count);
    for (let k = 0; k < n; k++) {
      const b = MAX_SCORE - (scores[k] as number);
      const at = starts[b] as number;
      starts[b] = at + 1;
      if (at < count) out[at] = (entries[matched[k] as number] as (typeof entries)[number]).item;
    }
    return { items: out, total: n };
  }

  private searchPlain(query: string): P[] {
    const hits: { p: P; s: number; i: number }[] = [];
    this.entries.forEach((e, i) => {
      const s = scoreFields(e.fields, query);
      if (s > 0) hits.push({ p: e.item, s, i });
    });
    hits.sort((a, b) => b.s - a.s || a.i - b.i);
    return hits.map((h) => h.p);
  }
}
