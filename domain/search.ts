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

export class SearchIndex<P extends Searchable & { productID: number }> {
  private entries: { item: P; fields: ReturnType<typeof searchFields>; joined: string }[] = [];
  /** Prepared fields by product id, reused while the product's stamp is unchanged. */
  private prepared = new Map<
    number,
    { stamp: unknown; fields: ReturnType<typeof searchFields>; joined: string }
  >();

  /**
   * Replaces the indexed products (in catalogue order, which breaks ties).
   * `stamp` says when a product changed (its version by default); unchanged
   * products keep their prepared text, so an update after a sync costs only
   * the changed rows.
   */
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
      const fields = searchFields(item);
      this.prepared.set(item.productID, {
        stamp: s,
        fields,
        joined: `${fields.title}\u0000${fields.category}\u0000${fields.description}`,
      });
    }
  }

  update(
    products: readonly P[],
    stamp: (p: P) => unknown = (p) => (p as { version?: unknown }).version ?? p,
  ): void {
    const next = new Map<
      number,
      { stamp: unknown; fields: ReturnType<typeof searchFields>; joined: string }
    >();
    this.entries = products.map((item) => {
      const s = stamp(item);
      let prep = this.prepared.get(item.productID);
      if (!prep || prep.stamp !== s) {
        const fields = searchFields(item);
        // One string per product lets a miss (most products, most queries) cost a single indexOf.
        prep = {
          stamp: s,
          fields,
          joined: `${fields.title}\u0000${fields.category}\u0000${fields.description}`,
        };
      }
      next.set(item.productID, prep);
      return { item, fields: prep.fields, joined: prep.joined };
    });
    this.prepared = next;
    this.last = null;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The last query answered and the positions (in catalogue order) of its matches. Typing adds to
   * a query: a text that contains the longer query contains the shorter, so the next keystroke
   * need only look at these (issue 17: search at 50,000 products within a frame). `update` clears it.
   */
  private last: { query: string; hits: Int32Array; positions: Int32Array } | null = null;

  /** Matching products, best first (ties keep catalogue order); an empty query gives none. */
  search(q: string, limit = Number.POSITIVE_INFINITY): P[] {
    const query = normalizeQuery(q);
    if (!query) return [];
    const entries = this.entries;
    // A query holding the separator could match across two fields of the joined string: that rare
    // query takes the plain path.
    if (query.includes('\u0000')) return this.searchPlain(query, limit);

    const last = this.last;
    // Where the last query sits in the new one: an occurrence of the new query at p holds the last at
    // p + shift, so none starts before the last one's first occurrence minus shift.
    const shift = last ? query.indexOf(last.query) : -1;
    const candidates = last && shift >= 0 ? last.hits : null;
    const before = last && shift >= 0 ? last.positions : null;
    const total = candidates ? candidates.length : entries.length;
    // One indexOf per product answers both "does it match" and "where": the joined string starts with the
    // title, so the first hit lies in the title exactly when the title contains the query, else in the
    // category, else in the description. The score is then scoreFields()'s, computed from that position.
    const hits = new Int32Array(total);
    const positions = new Int32Array(total);
    const scores = new Uint16Array(total);
    const qlen = query.length;
    let n = 0;
    for (let c = 0; c < total; c++) {
      const i = candidates ? (candidates[c] as number) : c;
      const e = entries[i] as (typeof entries)[number];
      const pos = e.joined.indexOf(query, before ? Math.max(0, (before[c] as number) - shift) : 0);
      if (pos < 0) continue;
      const title = e.fields.title;
      let score: number;
      if (pos < title.length) {
        const wordStart = pos === 0 || !isWordChar(title, pos - 1);
        score =
          300 +
          (pos === 0 ? 50 : 0) +
          (wordStart ? 25 : 0) -
          Math.min(pos, 20) +
          (title.length === qlen ? 50 : 0);
      } else if (pos < title.length + 1 + e.fields.category.length) {
        score = 200;
      } else {
        score = 100;
      }
      hits[n] = i;
      positions[n] = pos;
      scores[n] = score;
      n++;
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
    return out;
  }

  private searchPlain(query: string, limit: number): P[] {
    const hits: { p: P; s: number; i: number }[] = [];
    this.entries.forEach((e, i) => {
      const s = scoreFields(e.fields, query);
      if (s > 0) hits.push({ p: e.item, s, i });
    });
    hits.sort((a, b) => b.s - a.s || a.i - b.i);
    return hits.slice(0, limit).map((h) => h.p);
  }
}
