/** A small catalogue and what is typed into it, so that a new index runs every keystroke path before a shopper does. */

/**
 * A catalogue whose searches take every path of the keystroke functions (SearchIndex.warming): hits
 * at a title's start, inside a title word and after a space, in a category and in a description,
 * next to a letter outside ASCII, with and without a space in the query, narrowed and not, and
 * a typed character that the text after the last match has, has not ('rose bo' after 'rose bed')
 * or has run out of.
 */
export const WARMING_CATALOGUE = (
  [
    ['Eggless cake', 'Cakes', '<p>Rich and dark, serves ten</p>'],
    ['Rosé bouquet', 'Flowers', '<p>Twelve red roses</p>'],
    ['Hamper', 'Gifts and hampers', ''],
    ['Plant', 'Plants', '<p>A fern in a pot, easy care</p>'],
    ['Crème brûlée jar 2', 'Desserts', ''],
    ['Red rose bed and rose box', 'Roses', '<p>A rose bouquet</p>'],
  ] as const
).map(([title, categoryName, description], i) => ({
  productID: i + 1,
  version: 1,
  title,
  categoryName,
  description,
}));
/** Typed into the warming catalogue a key at a time (each prefix narrows the last). */
export const WARMING_TYPED = [
  'eggless cake',
  'é b',
  'and hampers',
  'a fern',
  'twelve red roses',
  'plant',
  'e a',
  'cake',
  'me b',
  'jar 2',
  'bouquet',
  'rose bo',
  'bouqet',
  'twelev roses',
];
