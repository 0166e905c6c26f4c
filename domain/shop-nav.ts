/**
 * The home page's navigation (tiles, sections, banners) from the categories the device has. The
 * fixed layout in `shop.ts` is the demo's, by category id: each entry shows only while its
 * category exists, so a shop that removed the demo never links to a category it does not have;
 * the owner's own categories fill the room the fixed ones leave. Until the device has answered,
 * the fixed layout stands, so the first paint of a demo shop is as it was. The header's menu
 * follows the same rule (`shop-menu.ts`).
 */
import type { Category } from './catalogue.js';
import { BANNERS, CATEGORIES, HOME_SECTIONS, HOME_TILES } from './shop.js';

/** A banner with its category as the device has it (a renamed category keeps its banner's link). */
export type Banner = Omit<(typeof BANNERS)[number], 'category'> & { category: Category };

export interface HomeNav {
  /** Each tile with its drawing's number (1-4 for the fixed ones, 0: the owner's, no drawing). */
  tiles: { category: Category; art: number }[];
  sections: Category[];
  banners: Banner[];
}

const DEMO_IDS = new Set<number>(Object.values(CATEGORIES).map((c) => c.categoryID));

/** The owner's categories (none of the demo's ids), by name. */
export function ownCategories(categories: readonly Category[]): Category[] {
  return categories
    .filter((c) => !DEMO_IDS.has(c.categoryID))
    .sort((a, b) => a.categoryName.localeCompare(b.categoryName));
}

export function homeNav(categories: readonly Category[] | undefined): HomeNav {
  const byId = new Map((categories ?? Object.values(CATEGORIES)).map((c) => [c.categoryID, c]));
  const own = categories ? ownCategories(categories) : [];
  const fixedTiles = HOME_TILES.flatMap((c, i) => {
    const category = byId.get(c.categoryID);
    return category ? [{ category, art: i + 1 }] : [];
  });
  const tiles = [...fixedTiles, ...own.map((category) => ({ category, art: 0 }))].slice(0, HOME_TILES.length);
  // The owner's categories without a tile first; then those with one, so a shop of one or two
  // categories still shows its products on the home page.
  const tiled = (c: Category) => tiles.some((t) => t.category.categoryID === c.categoryID);
  const sections = [
    ...HOME_SECTIONS.flatMap((c) => byId.get(c.categoryID) ?? []),
    ...own.filter((c) => !tiled(c)),
    ...own.filter(tiled),
  ].slice(0, HOME_SECTIONS.length);
  const banners = BANNERS.flatMap((b) => {
    const category = byId.get(b.category.categoryID);
    return category ? [{ ...b, category }] : [];
  });
  return { tiles, sections, banners };
}
