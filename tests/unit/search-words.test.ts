/**
 * The search rule that finds what shoppers type (domain/search.ts): every word a shopper reads,
 * every word of the query (AND), the shop's synonyms and typos only for a word found nowhere. A
 * fixed catalogue with the expected hits in their order, then the device's engine
 * (domain/search-index/) against the rule on the same and on random queries.
 */
import { describe, expect, it } from 'vitest';
import type { Product } from '../../domain/catalogue.js';
import { oneLetterAway, type SynonymMap, search, synonymMap } from '../../domain/search.js';
import { SearchIndex } from '../../domain/search-index/index.js';
import { DEFAULT_SYNONYMS } from '../../domain/search-synonyms.js';

type P = Pick<
  Product,
  | 'productID'
  | 'title'
  | 'description'
  | 'categoryName'
  | 'version'
  | 'labelHeading'
  | 'labelDescription'
  | 'sizeOrWeight'
  | 'variations'
  | 'occasions'
>;

const p = (productID: number, title: string, more: Partial<P> = {}): P => ({
  productID,
  title,
  description: '',
  categoryName: 'Cakes',
  version: 1,
  labelHeading: '',
  labelDescription: '',
  sizeOrWeight: '',
  variations: [],
  occasions: [],
  ...more,
});
const option = (variationID: number, variationValue: string) => ({
  variationID,
  variationName: 'Weight',
  variationValue,
  price: 500,
});

const catalogue: P[] = [
  p(1, 'Chocolate Truffle Cake', {
    description: '<p>Rich and dark.</p>',
    occasions: ['Birthday', 'Anniversary'],
    labelHeading: 'Eggless',
    labelDescription: '100% vegetarian, baked fresh',
    sizeOrWeight: '0.5 kg',
    variations: [option(1, '1 kg'), option(2, '2 kg')],
  }),
  p(2, 'Red Velvet Cake', { occasions: ["Valentine's Day", 'Birthday'], sizeOrWeight: '1 kg' }),
  p(3, 'Red Roses Bouquet', { categoryName: 'Flowers', occasions: ["Valentine's Day", 'Anniversary'] }),
  p(4, 'Kaju Katli Box', { categoryName: 'Sweets', occasions: ['Diwali', 'Rakhi'] }),
  p(5, 'Velvet Red Cupcakes', { description: '<p>Six cupcakes in a box.</p>' }),
  p(6, 'Congratulations Hamper', { categoryName: 'Gifts', occasions: ['Congratulations'] }),
  p(7, 'Pineapple Cake', { description: '<p>Fresh pineapple and cream.</p>' }),
];
const synonyms = synonymMap(DEFAULT_SYNONYMS);
const ids = (q: string, s: SynonymMap = synonyms) => search(catalogue, q, s).map((x) => x.productID);

describe('search that finds what shoppers type', () => {
  it('finds every word a shopper reads: an occasion, the label, the size, an option', () => {
    expect(ids('anniversary')).toEqual([1, 3]);
    expect(ids("valentine's")).toEqual([2, 3]);
    expect(ids('eggless')).toEqual([1]);
    expect(ids('vegetarian')).toEqual([1]);
    expect(ids('2 kg')).toEqual([1]);
    expect(ids('1 kg')).toEqual([1, 2]);
    expect(ids('diwali')).toEqual([4]);
  });

  it("the shop's short forms, in Latin, Devanagari and Gurmukhi", () => {
    expect(ids('bday')).toEqual([1, 2]);
    expect(ids('HBD')).toEqual([1, 2]);
    expect(ids('congrats')).toEqual([6]);
    expect(ids('mithai')).toEqual([4]);
    expect(ids('मिठाई')).toEqual([4]);
    // Ranked as "cake" is: earliest in the title first; in cupcakes last (not a word's start).
    expect(ids('केक')).toEqual([7, 2, 1, 5]);
    expect(ids('ਕੇਕ')).toEqual([7, 2, 1, 5]);
    expect(ids('ਗੁਲਾਬ')).toEqual([3]);
    // Without the shop's list, a word printed nowhere finds nothing.
    expect(ids('bday', new Map())).toEqual([]);
  });

  it('a typo of each kind in a Latin word of 5 letters or more: wrong, missing, extra, swapped', () => {
    expect(ids('chocolite')).toEqual([1]);
    expect(ids('choclate')).toEqual([1]);
    expect(ids('chocoolate')).toEqual([1]);
    expect(ids('chcoolate')).toEqual([1]);
    expect(ids('pinaepple')).toEqual([7]);
    // Shorter than 5 letters, or two letters away: nothing.
    expect(ids('cke')).toEqual([]);
    expect(ids('chcolite')).toEqual([]);
  });

  it('every word must match, in any order, each by these rules; the weakest word ranks', () => {
    // Both hold both words in the title; in Red Velvet Cake the later word comes sooner.
    expect(ids('red velvet')).toEqual([2, 5]);
    expect(ids('velvet red')).toEqual([2, 5]);
    expect(ids('cake birthday')).toEqual([1, 2]);
    expect(ids('bday cake')).toEqual([1, 2]);
    // One word found as typed, the other only as a typo.
    expect(ids('velvet cupcaeks')).toEqual([5]);
    expect(ids('red bouqet')).toEqual([3]);
    expect(ids('red velvet zzzz')).toEqual([]);
  });

  it('a real word is taken as typed: never widened by a synonym or a typo', () => {
    // "cream" is printed (product 7), so "cream" never means its neighbours ("creme", "dream").
    const withCream = synonymMap([{ word: 'cream', means: 'chocolate' }]);
    expect(ids('cream', withCream)).toEqual([7]);
    // "roses" is printed: the typo rule never adds "rose"-alikes to it.
    expect(ids('roses')).toEqual([3]);
  });

  it('ranks the spec’s way for a word found as typed: title first, then category, then the rest', () => {
    expect(ids('velvet')).toEqual([5, 2]);
    expect(ids('sweets')).toEqual([4]);
    expect(ids('box')).toEqual([4, 5]);
  });

  it('one letter away means exactly one edit', () => {
    expect(oneLetterAway('cake', 'cakes')).toBe(true);
    expect(oneLetterAway('cakes', 'cake')).toBe(true);
    expect(oneLetterAway('cake', 'caek')).toBe(true);
    expect(oneLetterAway('cake', 'bake')).toBe(true);
    expect(oneLetterAway('cake', 'cake')).toBe(false);
    expect(oneLetterAway('cake', 'ekac')).toBe(false);
    expect(oneLetterAway('cake', 'cakess')).toBe(false);
  });
});

describe('the engine answers what the rule answers', () => {
  it('on the fixed catalogue, with and without the synonyms', () => {
    const index = new SearchIndex<P>();
    index.update(catalogue);
    const queries = [
      'anniversary',
      '2 kg',
      'bday',
      'केक',
      'chcoolate',
      'velvet red',
      'velvet cupcaeks',
      'cream',
      'red velvet zzzz',
      'box',
      'a',
    ];
    for (const list of [DEFAULT_SYNONYMS, []]) {
      index.setSynonyms(list);
      const map = synonymMap(list);
      for (const q of queries)
        expect(
          index.search(q).map((x) => x.productID),
          q,
        ).toEqual(ids(q, map));
    }
  });

  it('on random catalogues and queries of typos, synonyms and words in any order, a key at a time', () => {
    let seed = 11;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const words = ['chocolate', 'truffle', 'birthday', 'roses', 'red', 'velvet', 'kaju', 'cake', 'कलाकंद'];
    const pick = () => words[Math.floor(rand() * words.length)] as string;
    const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
    const many: P[] = Array.from({ length: 200 }, (_, i) =>
      p(i + 1, phrase(1 + Math.floor(rand() * 3)), {
        description: `<p>${phrase(3)}</p>`,
        categoryName: phrase(1),
        occasions: rand() < 0.3 ? ['Birthday'] : [],
        sizeOrWeight: rand() < 0.5 ? `${1 + Math.floor(rand() * 3)} kg` : '',
      }),
    );
    const typo = (w: string) => {
      const at = Math.floor(rand() * w.length);
      const kind = Math.floor(rand() * 4);
      if (kind === 0) return w.slice(0, at) + w.slice(at + 1);
      if (kind === 1) return `${w.slice(0, at)}x${w.slice(at)}`;
      if (kind === 2) return `${w.slice(0, at)}q${w.slice(at + 1)}`;
      return w.slice(0, at) + (w[at + 1] ?? '') + (w[at] ?? '') + w.slice(at + 2);
    };
    const index = new SearchIndex<P>();
    index.update(many);
    const own = [
      ...DEFAULT_SYNONYMS,
      { word: 'barfi', means: 'कलाकंद' },
      { word: 'hbd', means: 'happy birthday' },
    ];
    index.setSynonyms(own);
    const map = synonymMap(own);
    const queries = Array.from({ length: 80 }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const r = rand();
        return r < 0.4 ? typo(pick()) : r < 0.55 ? 'bday' : r < 0.6 ? 'barfi' : r < 0.65 ? 'hbd' : pick();
      }).join(' '),
    );
    for (const q of queries) {
      const steps = [...q].map((_, i) => [...q].slice(0, i + 1).join(''));
      for (const typed of steps) {
        const want = search(many, typed, map).map((x) => x.productID);
        expect(
          index.search(typed).map((x) => x.productID),
          typed,
        ).toEqual(want);
        expect(
          index.search(typed, 3).map((x) => x.productID),
          `${typed} (3)`,
        ).toEqual(want.slice(0, 3));
      }
    }
  });
});
