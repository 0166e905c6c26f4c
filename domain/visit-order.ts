/**
 * The spec's random order of a list of products (a category, All Products), kept for a visit:
 * from one seed per browser tab (the app keeps it in sessionStorage, `web/hooks/useProducts.ts`)
 * and each product's id, so the same list always comes out the same, a product added by a sync
 * takes its own place without moving the others, and no list is stored.
 *
 * One rule for the app and the server: a first visit to a category's address starts with the seed
 * the server chose for that page (`<meta name="visit-seed">`), which lets the server name the
 * first card's picture in the HTML (`api/pages`), so the phone fetches it with the app's code
 * instead of after it.
 */

/** The seed's range: a whole number from 1 to 2^32 - 1. */
export function isVisitSeed(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= 0xffffffff;
}

/** FNV-1a over the list's name, from the seed: each list of the visit has its own order. */
function hashText(text: string, start: number): number {
  let h = start ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: a well-spread 32-bit rank from the list's seed and a product id. */
function rank(listSeed: number, productID: number): number {
  let x = listSeed ^ Math.imul(productID, 0x9e3779b1);
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * `items` in the visit's order for the list named `list`: a category's is its name as the address
 * gives it, trimmed and lower-cased (`categoryListName`).
 */
export function visitOrder<T extends { productID: number }>(
  items: readonly T[],
  list: string,
  visit: number,
): T[] {
  const listSeed = hashText(list, visit);
  const ranks = new Map(items.map((p) => [p.productID, rank(listSeed, p.productID)]));
  const of = (p: T) => ranks.get(p.productID) ?? 0;
  return [...items].sort((a, b) => of(a) - of(b) || a.productID - b.productID);
}

/** The first `n` of `visitOrder(items, list, visit)`, found in one pass (the server asks it per page). */
export function firstInVisitOrder<T extends { productID: number }>(
  items: readonly T[],
  list: string,
  visit: number,
  n: number,
): T[] {
  const listSeed = hashText(list, visit);
  const best: { item: T; rank: number }[] = [];
  const before = (a: { item: T; rank: number }, b: { item: T; rank: number }) =>
    a.rank - b.rank || a.item.productID - b.item.productID;
  for (const item of items) {
    const entry = { item, rank: rank(listSeed, item.productID) };
    if (best.length === n && before(entry, best[n - 1] as { item: T; rank: number }) >= 0) continue;
    best.push(entry);
    best.sort(before);
    if (best.length > n) best.pop();
  }
  return best.map((b) => b.item);
}

/** A category page's list name, from the category as its address names it (already URL-decoded). */
export function categoryListName(routeCategory: string): string {
  return routeCategory.trim().toLowerCase();
}
