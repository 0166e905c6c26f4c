/** The search index's layout: per word, the products holding it. */
import type { Prepared } from './words.js';

/**
 * For each word, the products (by position in catalogue order) whose field holds it: one list per
 * field, each product once per word (the first time, with where it starts, for titles). A keystroke
 * walks the lists of the words holding the query, a few array reads per product that holds one,
 * instead of reading every product's words, which at tens of thousands of products is too slow for
 * a phone's keystroke.
 */
export interface Postings {
  /** Where each word's list starts in `items` (and the end, at the word count). */
  at: Int32Array;
  items: Int32Array;
  /** Titles only: where the word starts in the title. */
  starts: Int32Array;
  /**
   * Categories and descriptions: per word, which of `bits` holds its products (-1: a list in
   * `items`). A word that more than one product in 32 holds is a bitset of all products instead of a
   * list, never bigger than the list: a keystroke ORs a few thousand words of it, where walking the
   * list was a read per product. Descriptions that share words with every product (the seeder's share
   * 16) would otherwise make a first letter walk a list entry per product and word.
   */
  dense: Int32Array;
  bits: Int32Array;
}

/** 32-bit words of a bitset of `n` products. */
export const bitsetLength = (n: number): number => (n + 31) >>> 5;

/** Products per step of a rebuild between two yields (see SearchIndex.updating). */
export const STEP = 2_000;

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

export interface Layout {
  title: Postings;
  category: Postings;
  description: Postings;
  /** Per product: the length of its title (what a title hit's score needs). */
  titleLength: Int32Array;
}

export function emptyLayout(): Layout {
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
  };
}

function lengths(entries: readonly Prepared[], of: (e: Prepared) => number): Int32Array {
  const out = new Int32Array(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = of(entries[i] as Prepared);
  return out;
}

export function* layOut(entries: readonly Prepared[], words: number): Generator<void, Layout> {
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
  };
}
