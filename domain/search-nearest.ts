/**
 * What a search with no match offers instead (never a dead end): the shop's names (occasions,
 * categories) nearest to what was typed, by the letter pairs they share, so "brthday cke" offers
 * Birthday and Cakes. Names that share nothing keep the shop's own order after those that do.
 */
import { normalizeQuery } from './search.js';

/** The headings of what a search with no match offers. */
export const noResultsMessages = {
  occasions: 'Shop by occasion',
  categories: 'Shop by category',
  products: 'You may like',
} as const;

/** The letter pairs of a text's words (each word padded, so first and last letters count). */
function letterPairs(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of normalizeQuery(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = ` ${word} `;
    for (let i = 0; i + 1 < padded.length; i++) out.add(padded.slice(i, i + 2));
  }
  return out;
}

/** How near two texts are, 0 (no pair shared) to 1 (the same pairs): Dice's coefficient. */
export function nearness(a: string, b: string): number {
  const pa = letterPairs(a);
  const pb = letterPairs(b);
  if (!pa.size || !pb.size) return 0;
  let shared = 0;
  for (const p of pa) if (pb.has(p)) shared++;
  return (2 * shared) / (pa.size + pb.size);
}

/** The `count` items nearest to `query` by their names, nearest first (ties keep the given order). */
export function nearest<T>(
  query: string,
  items: readonly T[],
  nameOf: (item: T) => string,
  count: number,
): T[] {
  return items
    .map((item, i) => ({ item, i, near: nearness(query, nameOf(item)) }))
    .sort((a, b) => b.near - a.near || a.i - b.i)
    .slice(0, count)
    .map((x) => x.item);
}
