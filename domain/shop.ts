/**
 * The shop's own fixed facts: its categories (with the spec's ids), the home
 * page's sections and tiles, the header's menus. The demo catalogue (server)
 * and the screens (browser) both read them here, so a category link on the
 * home page always matches a category the catalogue has. Links match by name
 * (`/products-by-category/{name}`, trimmed and case-insensitive).
 */
export const CATEGORIES = {
  chocolate: { categoryID: 13, categoryName: 'Chocolate Cakes' },
  truffle: { categoryID: 14, categoryName: 'Truffle Cakes' },
  blackForest: { categoryID: 15, categoryName: 'Black Forest Cakes' },
  butterscotch: { categoryID: 17, categoryName: 'Butterscotch Cakes' },
  redVelvet: { categoryID: 18, categoryName: 'Red Velvet Cakes' },
  vanilla: { categoryID: 19, categoryName: 'Vanilla Cakes' },
  pineapple: { categoryID: 20, categoryName: 'Pineapple Cakes' },
  fruit: { categoryID: 21, categoryName: 'Fruit Cakes' },
  allCakes: { categoryID: 24, categoryName: 'All Cakes' },
  allFlowers: { categoryID: 25, categoryName: 'All Flowers' },
  allChocolate: { categoryID: 26, categoryName: 'All Chocolate' },
  allCombo: { categoryID: 27, categoryName: 'All Combo' },
  plants: { categoryID: 28, categoryName: 'Plants' },
  gifts: { categoryID: 29, categoryName: 'Gifts' },
} as const;

/** Home: four tiles, then three sections of up to 4 random products. */
export const HOME_TILES = [
  CATEGORIES.allCakes,
  CATEGORIES.allFlowers,
  CATEGORIES.allChocolate,
  CATEGORIES.allCombo,
] as const;
export const HOME_SECTIONS = [CATEGORIES.pineapple, CATEGORIES.redVelvet, CATEGORIES.chocolate] as const;
export const HOME_SECTION_SIZE = 4;

/**
 * The header search box's suggestion panel (spec: Cake, Flowers, Chocolates &
 * Sweets, Plants, Gifts). Each searches for what leads to the products it
 * names: no product is called "Chocolates & Sweets", but every chocolate and
 * sweet is in the category All Chocolate, which search matches by name.
 */
export const SEARCH_SUGGESTIONS = [
  { label: 'Cake', query: 'Cake' },
  { label: 'Flowers', query: 'Flowers' },
  { label: 'Chocolates & Sweets', query: CATEGORIES.allChocolate.categoryName },
  { label: 'Plants', query: 'Plants' },
  { label: 'Gifts', query: 'Gifts' },
] as const;

export const ADDED_POPUP_MS = 5000;

/**
 * The home page's banner carousel: four banners drawn with CSS, so nothing is downloaded. Each
 * links to its category as the device names it (domain/shop-nav.ts).
 */
export const BANNERS = [
  {
    title: 'Cakes, baked fresh',
    text: 'For birthdays, anniversaries and every day.',
    category: CATEGORIES.allCakes,
    cta: 'Shop cakes',
  },
  {
    title: 'Flowers for every feeling',
    text: 'Hand-tied bouquets for every occasion.',
    category: CATEGORIES.allFlowers,
    cta: 'Shop flowers',
  },
  {
    title: 'Chocolates & sweets',
    text: 'Gift boxes for birthdays, festivals and thank-yous.',
    category: CATEGORIES.allChocolate,
    cta: 'Shop chocolates',
  },
  {
    title: 'Combos that say it all',
    text: 'Cake and flowers together, one delivery.',
    category: CATEGORIES.allCombo,
    cta: 'Shop combos',
  },
] as const;
