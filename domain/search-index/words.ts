/** The search index's word table, and a product's fields prepared into word ids once per version. */
import type { searchFields } from '../search.js';
import { isSpace, isWordChar } from './text.js';

/** Fields prepared once per product version: their text, and the words of each (see Words). */
export interface Prepared {
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
 * product then only looks its own word ids up: no string search per product (an indexOf call each,
 * too slow for a broad query's keystroke at tens of thousands of products); the word table costs a
 * table lookup per word.
 */
export class Words {
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

  wordAt(id: number): string {
    return this.list[id] ?? '';
  }

  idsOf(field: string, starts?: number[]): Int32Array {
    const out: number[] = [];
    // A loop over the characters, not a regular expression: a first visit to Search prepares every
    // product's words, and `/\S+/g` takes about three times as long.
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

export function prepare(fields: ReturnType<typeof searchFields>, words: Words, stamp: unknown): Prepared {
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
