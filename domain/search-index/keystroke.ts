/** One keystroke of the search index: the matches of a query, their scores, and a page of them best first. */
import { MAX_SCORE, titleHitScore } from '../search.js';
import { bitsetLength, type Layout, type Postings, STEP } from './postings.js';
import { isWordChar } from './text.js';

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

/**
 * A keystroke's matches in catalogue order: which, where each first holds the query, and its score
 * (of a query without white space, only its title hits until a query with a space narrows it).
 */
export interface Buffers {
  hits: Int32Array;
  positions: Int32Array;
  scores: Uint16Array;
  /** Text hits: what follows each match (see ahead()); 0 where unknown. */
  ahead: Int32Array;
}

export function emptyBuffers(n = 0): Buffers {
  return {
    hits: new Int32Array(n),
    positions: new Int32Array(n),
    scores: new Uint16Array(n),
    ahead: new Int32Array(n),
  };
}

/** The last answer, which the next keystroke narrows (SearchIndex.last). */
export interface Answer {
  query: string;
  hits: Int32Array;
  positions: Int32Array;
  scores: Uint16Array;
  ahead: Int32Array;
}

/** The answer to `query` whose `n` matches are at the start of `buffer`. */
export function answerIn(query: string, buffer: Buffers, n: number): Answer {
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
export function wordHits(layout: Layout, marks: Marks, qlen: number, out: Buffers): number {
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
 * A query with white space, searched in each product's joined text: of all products, or of the
 * last answer's (`narrowed`, whose query sits at `shift` in this one).
 */
export function textHits(
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
