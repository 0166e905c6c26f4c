/**
 * A prepared index for searching the same catalogue many times (the device's
 * offline search): the three fields are lower-cased and stripped of HTML, and
 * split into words, once per product version; a query is looked up in the
 * catalogue's distinct words and per-word lists of products (`words.ts`,
 * `postings.ts`), or, with a space in it, searched in the text of the last
 * answer's products. Matching and ranking are exactly `search()`'s: the index
 * only moves work from every query to every change.
 */
import { normalizeQuery, SEARCH_PAGE_SIZE, type Searchable, scoreFields, searchFields } from '../search.js';
import {
  type Answer,
  addMarked,
  answerIn,
  type Buffers,
  emptyBuffers,
  emptyMarks,
  type Marks,
  markOthers,
  markTitles,
  ranked,
  textHits,
  type WordAnswer,
  wordAnswer,
  wordHits,
} from './keystroke.js';
import { emptyLayout, type Layout, layOut, STEP } from './postings.js';
import { WARMING_CATALOGUE, WARMING_TYPED } from './warming.js';
import { type Prepared, prepare, Words } from './words.js';

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
   * 50,000 products the word lists would be a long task of a phone, web/hooks/useSearch.ts).
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
   * a loop over a big catalogue are the engine's interpreter and its first compilers, several times
   * slower than the optimized code (`tests/bench/search.bench.ts` measures it), and a path first
   * taken in compiled code throws that code away.
   * So each path (a query without a space, one with a space from scratch and narrowed) runs here
   * three times. Called when the index is built, a query per task (web/hooks/useSearch.ts), so the
   * shopper's first keystroke runs optimized code. Changes no answer: the next search starts afresh.
   */
  *warming(): Generator<void, void> {
    // First every path of every kind on a small catalogue made to take them all (see WARMING_CATALOGUE):
    // the engine compiles a loop for the paths it has seen run, and the first product to take another
    // would throw the compiled loop away mid-keystroke, making that keystroke several times slower.
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
    // optimizes each alone. In one function, a keystroke of the other kind would run code compiled
    // without its path, which the engine throws away and compiles again, running the loop uncompiled
    // meanwhile.
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
