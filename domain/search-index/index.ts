/**
 * A prepared index for searching the same catalogue many times (the device's offline search): the
 * searched fields are lower-cased and stripped of HTML, and split into words, once per product
 * version. A word of a query is looked up in the catalogue's distinct words and per-word lists of
 * products (`words.ts`, `postings.ts`): one word found as typed (the usual keystroke) is ranked
 * straight from those lists; several words, or one found nowhere (widened by the shop's synonyms
 * and typos), are each a bitset of products with their scores for it, read from the same lists,
 * ANDed, each product left scored by its weakest word.
 * Matching and ranking are exactly `search()`'s: the index only moves work from every query to
 * every change.
 */
import {
  latinWords,
  MAX_SCORE,
  normalizeQuery,
  queryWords,
  SEARCH_PAGE_SIZE,
  type Searchable,
  type SynonymMap,
  scoreFields,
  search,
  searchFields,
  synonymMap,
  titleHitScore,
  wordMatch,
} from '../search.js';
import type { Synonym } from '../search-synonyms.js';
import {
  addMarked,
  type Buffers,
  emptyBuffers,
  emptyMarks,
  type Marks,
  markOthers,
  markTitles,
  ranked,
  type WordAnswer,
  wordAnswer,
} from './keystroke.js';
import { bitsetLength, emptyLayout, type Layout, layOut, type Postings, STEP } from './postings.js';
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
    this.latin = null;
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
   * The last query of one word found as typed, its answer being in the marks (see wordAnswer): the
   * same query again (a space typed after a word: "rose " is "rose") is only ranked anew. `update`
   * and any other query clear it.
   */
  private last: WordAnswer | null = null;
  private synonyms: SynonymMap = new Map();
  private synonymList: readonly Synonym[] | null = null;
  /** The catalogue's Latin words (for typos), made when a typo first needs them after an update. */
  private latin: string[] | null = null;

  /** The shop's synonyms (the device setting `searchSynonyms`); the same list again changes nothing. */
  setSynonyms(list: readonly Synonym[]): void {
    if (list === this.synonymList) return;
    this.synonymList = list;
    this.synonyms = synonymMap(list);
    this.last = null;
  }

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
    // A query holding a separator of the word table takes the plain path (never typed).
    if (query.includes('\u0000') || query.includes('\u0001')) {
      this.last = null;
      const all = search(this.items, query, this.synonyms);
      return { items: all.slice(0, limit), total: all.length };
    }
    const words = queryWords(query);
    if (words.length === 1) {
      // The usual keystroke: one word, found as typed. Only a word found nowhere is widened (below).
      const page = this.oneWord(query, limit);
      if (page.total > 0) return page;
    }
    this.last = null;
    return this.allWords(words, limit);
  }

  /**
   * This keystroke's arrays, big enough for the catalogue. Two sets in turn, kept between
   * keystrokes (a keystroke's answer is read from the other's): new arrays of 50,000 on every
   * keystroke kept a phone's garbage collector busy.
   */
  private nextBuffer(): Buffers {
    let buffer = this.buffers[this.turn] as Buffers;
    if (buffer.hits.length < this.entries.length) {
      buffer = emptyBuffers(this.entries.length);
      this.buffers[this.turn] = buffer;
    }
    this.turn ^= 1;
    return buffer;
  }

  /** One word as typed: its marks, its title hits ranked, the rest counted (see wordAnswer). */
  private oneWord(query: string, limit: number): { items: P[]; total: number } {
    // The last answer's arrays: this keystroke's go in the other set (below).
    const previous = this.buffers[this.turn ^ 1] as Buffers;
    if (this.last?.query === query) return this.wordPage(this.last, previous, limit);
    const buffer = this.nextBuffer();
    const marks = this.markWord(query);
    const answer = { query, ...wordAnswer(this.layout, marks, query.length, buffer) };
    this.last = answer;
    return this.wordPage(answer, buffer, limit);
  }

  /**
   * The marks (`this.marks`) of the products whose fields hold `word` (no white space): per field,
   * and in titles where it first starts. One look in the word table, then each matched word's lists.
   */
  private markWord(word: string): Marks {
    this.words.find(word);
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
    return marks;
  }

  /** Per query word, the products holding it (a bitset) and each one's score for it; kept between keystrokes. */
  private wordSets: { set: Int32Array; score: Uint16Array }[] = [];
  private allSet = new Int32Array(0);

  /**
   * Every word must match (the rule's AND): per word, the products holding it (or, found nowhere,
   * what it widens to) as a bitset with each one's score for it, read from the word lists as a
   * one-word keystroke reads them; the bitsets ANDed, and each product left scored by its weakest
   * word, as the rule's `queryScore` scores it.
   */
  private allWords(words: readonly string[], limit: number): { items: P[]; total: number } {
    const n = this.entries.length;
    const length = bitsetLength(n);
    if (this.allSet.length !== length) this.allSet = new Int32Array(length);
    const all = this.allSet.fill(-1);
    for (const [k, word] of words.entries()) {
      let slot = this.wordSets[k];
      if (!slot || slot.score.length !== n) {
        slot = { set: new Int32Array(length), score: new Uint16Array(n) };
        this.wordSets[k] = slot;
      }
      const { set, score } = slot;
      set.fill(0);
      score.fill(0);
      if (!this.scoreWord(word, set, score)) {
        const match = wordMatch(
          word,
          () => false,
          () => this.latinWords(),
          this.synonyms,
        );
        let any = false;
        for (const w of match.words) any = this.scoreWord(w, set, score) || any;
        if (!any) return { items: [], total: 0 };
      }
      let left = 0;
      for (let b = 0; b < length; b++) left |= all[b] = (all[b] as number) & (set[b] as number);
      if (left === 0) return { items: [], total: 0 };
    }
    const out = this.nextBuffer();
    const scores = this.wordSets.slice(0, words.length).map((s) => s.score);
    let hits = 0;
    for (let b = 0; b < length; b++) {
      let m = all[b] as number;
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const i = (b << 5) | (31 - Math.clz32(low));
        if (i >= n) break;
        let weakest = MAX_SCORE;
        for (const s of scores) weakest = Math.min(weakest, s[i] as number);
        out.hits[hits] = i;
        out.scores[hits] = weakest;
        hits++;
      }
    }
    return { items: ranked(this.items, out.hits, out.scores, hits, limit), total: hits };
  }

  /**
   * Marks in `set` the products holding `word` and raises each one's `score` to its score for it
   * (`scoreFields`'s, read from the word lists: where the word first starts in the title, else its
   * category, else the rest). Whether any product holds it.
   */
  private scoreWord(word: string, set: Int32Array, score: Uint16Array): boolean {
    let any = false;
    if (/\s/.test(word)) {
      // A synonym's meaning of several words: scored on each product's text (the owner's rare case).
      this.entries.forEach((e, i) => {
        const s = scoreFields(e.fields, word);
        if (s === 0) return;
        set[i >>> 5] = (set[i >>> 5] as number) | (1 << (i & 31));
        if (s > (score[i] as number)) score[i] = s;
        any = true;
      });
      return any;
    }
    const marks = this.markWord(word);
    const { titleLength } = this.layout;
    const qlen = word.length;
    for (let b = 0; b < set.length; b++) {
      const t = marks.title[b] as number;
      const c = marks.category[b] as number;
      let m = t | c | (marks.description[b] as number);
      if (m === 0) continue;
      set[b] = (set[b] as number) | m;
      any = true;
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const i = (b << 5) | (31 - Math.clz32(low));
        const s =
          (t & low) !== 0
            ? titleHitScore(marks.best[i] as number, marks.whole[i] === 1, titleLength[i] as number, qlen)
            : (c & low) !== 0
              ? 200
              : 100;
        if (s > (score[i] as number)) score[i] = s;
      }
    }
    return any;
  }

  /** The Latin words of the indexed products (a word of the table no product holds any more is not one). */
  private latinWords(): string[] {
    if (!this.latin) {
      const words = new Set<string>();
      const { title, category, description } = this.layout;
      const held = (list: Postings, w: number) =>
        (list.dense[w] ?? -1) >= 0 || (list.at[w + 1] as number) > (list.at[w] as number);
      for (let w = 0; w + 1 < title.at.length; w++) {
        if (!held(title, w) && !held(category, w) && !held(description, w)) continue;
        for (const l of latinWords(this.words.wordAt(w))) words.add(l);
      }
      this.latin = [...words];
    }
    return this.latin;
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
}
