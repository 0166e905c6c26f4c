/** One keystroke of the search index: the matches of a query, their scores, and a page of them best first. */
import { MAX_SCORE, titleHitScore } from '../search.js';
import { bitsetLength, type Layout, type Postings } from './postings.js';

/**
 * Marks, in `held`, the products whose title holds word `w`; the first occurrence in a title is the
 * smallest of its words' (start + where the query is in the word), in `best`.
 */
export function markTitles(
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
export function markOthers(list: Postings, w: number, held: Int32Array): void {
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
export interface Marks {
  title: Int32Array;
  category: Int32Array;
  description: Int32Array;
  best: Int32Array;
  whole: Uint8Array;
}

export function emptyMarks(n: number): Marks {
  const length = bitsetLength(n);
  return {
    title: new Int32Array(length),
    category: new Int32Array(length),
    description: new Int32Array(length),
    best: new Int32Array(n),
    whole: new Uint8Array(n),
  };
}

/** A keystroke's matches in catalogue order and their scores. */
export interface Buffers {
  hits: Int32Array;
  scores: Uint16Array;
}

export function emptyBuffers(n = 0): Buffers {
  return { hits: new Int32Array(n), scores: new Uint16Array(n) };
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
export function wordAnswer(
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
export function addMarked<P>(
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
export interface WordAnswer {
  query: string;
  titles: number;
  categories: number;
  descriptions: number;
}

/**
 * The first `limit` of `n` hits, best first. Scores are small whole numbers (100 to 425): a
 * counting sort ranks them in one pass, stable, so ties keep catalogue order, where a comparison
 * sort of 50,000 hits cost a frame by itself.
 */
export function ranked<P>(
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
