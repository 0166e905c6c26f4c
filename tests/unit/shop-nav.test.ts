import { describe, expect, it } from 'vitest';
import { BANNERS, CATEGORIES, HOME_SECTIONS, HOME_TILES } from '../../domain/shop.js';
import { CAKES_MENU, HEADER_MENU, shopMenu } from '../../domain/shop-menu.js';
import { homeNav } from '../../domain/shop-nav.js';

const shopNav = (categories: Parameters<typeof homeNav>[0]) => ({
  ...homeNav(categories),
  ...shopMenu(categories),
});
const names = (list: { categoryName: string }[]) => list.map((c) => c.categoryName);

describe("the shop's navigation from the device's categories", () => {
  it('is the fixed layout until the device has answered, and with every demo category', () => {
    for (const nav of [shopNav(undefined), shopNav(Object.values(CATEGORIES))]) {
      expect(nav.cakes.map((e) => e.label)).toEqual(CAKES_MENU.map((e) => e.label));
      expect(nav.others.map((e) => e.label)).toEqual(HEADER_MENU.map((e) => e.label));
      expect(names(nav.tiles.map((t) => t.category))).toEqual(names([...HOME_TILES]));
      expect(names(nav.sections)).toEqual(names([...HOME_SECTIONS]));
      expect(nav.banners).toEqual(BANNERS);
    }
  });

  it('never names a category the shop no longer has, and shows the owner’s own instead', () => {
    const own = [
      { categoryID: 40, categoryName: 'Wedding Cakes' },
      { categoryID: 41, categoryName: 'Bouquets' },
    ];
    const nav = shopNav(own);
    expect(nav.cakes).toEqual([]);
    expect(nav.others.map((e) => e.label)).toEqual(['Bouquets', 'Wedding Cakes']);
    expect(nav.tiles).toEqual([
      { category: own[1], art: 0 },
      { category: own[0], art: 0 },
    ]);
    // A shop of two categories shows their products on the home page, though each has its tile.
    expect(nav.sections).toEqual([own[1], own[0]]);
    expect(nav.banners).toEqual([]);
  });

  it('keeps the demo entries that remain, named as the owner renamed them, then the owner’s', () => {
    const nav = shopNav([
      { ...CATEGORIES.allFlowers },
      { categoryID: CATEGORIES.chocolate.categoryID, categoryName: 'Dark Chocolate Cakes' },
      { categoryID: 50, categoryName: 'Hampers' },
    ]);
    expect(nav.cakes.map((e) => e.label)).toEqual(['Dark Chocolate Cakes']);
    expect(nav.others.map((e) => e.label)).toEqual(['Flowers', 'Hampers']);
    expect(names(nav.tiles.map((t) => t.category))).toEqual(['All Flowers', 'Hampers']);
    expect(names(nav.sections)).toEqual(['Dark Chocolate Cakes', 'Hampers']);
    expect(nav.banners.map((b) => b.category.categoryID)).toEqual([CATEGORIES.allFlowers.categoryID]);
  });
});

describe("the home page's banners", () => {
  it('link to their category as the device names it', () => {
    const renamed = { categoryID: CATEGORIES.allFlowers.categoryID, categoryName: 'Bouquets' };
    const nav = homeNav([renamed]);
    expect(nav.banners.map((b) => [b.title, b.category])).toEqual([['Flowers for every feeling', renamed]]);
  });
});
