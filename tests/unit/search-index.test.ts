import { describe, expect, it } from 'vitest';
import type { Product } from '../../domain/catalogue.js';
import { matches, search } from '../../domain/search.js';
import { SearchIndex } from '../../domain/search-index/index.js';

type P = Pick<Product, 'productID' | 'title' | 'description' | 'categoryName' | 'version'>;
const p = (productID: number, title: string, description = '', categoryName = 'Gifts', version = 1): P => ({
  productID,
  title,
  description,
  categoryName,
  version,
});

const catalogue: P[] = [
  p(1, 'Vanilla sponge', '<p>With <strong>chocolate</strong> chips &amp; cream</p>', 'All Cakes'),
  p(2, 'Dark Chocolate Truffle', '', 'All Cakes'),
  p(3, 'Roses', '', 'All Chocolate'),
  p(4, 'Chocolate', '', 'All Cakes'),
  p(5, 'Hot chocolate mug', '', 'Gifts'),
  p(6, 'Lily', '<p>Fresh</p>', 'All Flowers'),
];

describe('the spec search rule', () => {
  it('matches a trimmed, case-insensitive substring of title, description text or category name', () => {
    expect(matches(catalogue[0] as P, '  CHIPS ')).toBe(true);
    expect(matches(catalogue[0] as P, 'cream')).toBe(true);
    expect(matches(catalogue[0] as P, '& cream')).toBe(true);
    expect(matches(catalogue[2] as P, 'all choc')).toBe(true);
    expect(matches(catalogue[5] as P, 'rose')).toBe(false);
    // Markup is not text: tag and attribute names never match.
    expect(matches(catalogue[0] as P, 'strong')).toBe(false);
    expect(matches(catalogue[0] as P, '<p>')).toBe(false);
  });

  it('gives nothing for an empty or blank query', () => {
    expect(search(catalogue, '')).toEqual([]);
    expect(search(catalogue, '   ')).toEqual([]);
    expect(new SearchIndex<P>().search('   ')).toEqual([]);
  });

  it('ranks exact title, then earlier title hits, then category, then description', () => {
    expect(search(catalogue, 'chocolate').map((x) => x.productID)).toEqual([4, 5, 2, 3, 1]);
  });
});

describe('SearchIndex', () => {
  it('answers exactly what search() answers, in the same order', () => {
    const index = new SearchIndex<P>();
    index.update(catalogue);
    for (const q of ['chocolate', 'a', 'CAKES', ' l', 'fresh', 'zz', 'strong', '& cream', 'o']) {
      expect(index.search(q).map((x) => x.productID)).toEqual(search(catalogue, q).map((x) => x.productID));
    }
    expect(index.search('chocolate', 2).map((x) => x.productID)).toEqual([4, 5]);
  });

  it('follows updates: changed, added and removed products', () => {
    const index = new SearchIndex<P>();
    index.update(catalogue);
    expect(index.search('orchid')).toEqual([]);
    const next = catalogue
      .filter((x) => x.productID !== 4)
      .map((x) => (x.productID === 6 ? { ...x, title: 'Orchid', version: 2 } : x));
    next.push(p(7, 'Orchid basket'));
    index.update(next);
    expect(index.search('orchid').map((x) => x.productID)).toEqual([6, 7]);
    expect(index.search('chocolate').map((x) => x.productID)).not.toContain(4);
    expect(index.size).toBe(6);
  });

  it('keeps prepared text while the stamp is unchanged and re-prepares when it changes', () => {
    const index = new SearchIndex<P>();
    index.update(catalogue);
    // Same version but a new title: the stamp says "unchanged", so the index keeps the old text.
    index.update(catalogue.map((x) => (x.productID === 6 ? { ...x, title: 'Tulip' } : x)));
    expect(index.search('tulip')).toEqual([]);
    index.update(catalogue.map((x) => (x.productID === 6 ? { ...x, title: 'Tulip', version: 9 } : x)));
    expect(index.search('tulip').map((x) => x.productID)).toEqual([6]);
  });

  it('agrees with search() on a varied catalogue (accents, digits, emoji, HTML, repeats)', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const words = [
      'Gâteau',
      'éclair',
      'choco',
      'CAKE',
      'cake',
      'rose',
      '2kg',
      'x',
      'ànd',
      '🎂',
      'Red-Velvet',
      'a',
      'ab',
    ];
    const pick = () => words[Math.floor(rand() * words.length)] as string;
    const phrase = (n: number) => Array.from({ length: n }, pick).join(rand() < 0.5 ? ' ' : '');
    const many: P[] = Array.from({ length: 300 }, (_, i) =>
      p(i + 1, phrase(1 + Math.floor(rand() * 3)), `<p>${phrase(4)}</p><b>${phrase(2)}</b>`, phrase(2)),
    );
    const index = new SearchIndex<P>();
    index.update(many);
    const queries = [
      ...words,
      'cakecake',
      'ke',
      'e',
      ' CAKE ',
      'à',
      'é',
      '🎂 ',
      'b>',
      'velvet',
      '2',
      'x x',
      'nd',
      'clair',
      'teau',
    ];
    for (const q of queries) {
      expect(
        index.search(q).map((x) => x.productID),
        q,
      ).toEqual(search(many, q).map((x) => x.productID));
    }
    // Typed a key at a time, then erased, then typed again: each keystroke narrows the last answer
    // while the query grows, and starts over when it does not; every answer is search()'s, also with
    // a limit.
    const typed = ['red-velvet cake', 'gâteau 🎂', ' choco  ', 'xab'];
    for (const word of typed) {
      const steps = [...word].map((_, i) => [...word].slice(0, i + 1).join(''));
      for (const q of [...steps, ...steps.slice(0, -1).reverse(), 'zz', ...steps]) {
        const want = search(many, q).map((x) => x.productID);
        expect(
          index.search(q).map((x) => x.productID),
          q,
        ).toEqual(want);
        expect(
          index.search(q, 3).map((x) => x.productID),
          `${q} (3)`,
        ).toEqual(want.slice(0, 3));
      }
    }
  });

  it('narrows no answer across an update: a product changed mid-typing is found', () => {
    const index = new SearchIndex<P>();
    index.update([p(1, 'Rose', '', 'Flowers'), p(2, 'Lily', '', 'Flowers')]);
    expect(index.search('ro').map((x) => x.productID)).toEqual([1]);
    index.update([p(1, 'Rose', '', 'Flowers'), p(2, 'Rose lily', '', 'Flowers', 2)]);
    expect(index.search('ros').map((x) => x.productID)).toEqual([1, 2]);
  });

  it('warming up changes no answer, mid-typing either, and a page gives the total of all matches', () => {
    const catalogue = [
      p(1, 'Eggless chocolate cake', '<p>Rich and dark</p>', 'Cakes'),
      p(2, 'Rose bouquet', '<p>Twelve red roses, eggless card</p>', 'Flowers'),
      p(3, 'Anniversary hamper', '<p>Chocolates and a rose</p>', 'Gifts'),
      p(4, 'Red  rose\tbox', '', 'Flowers'),
    ];
    const index = new SearchIndex<P>();
    index.update(catalogue);
    expect(index.search('ro').map((x) => x.productID)).toEqual(
      search(catalogue, 'ro').map((x) => x.productID),
    );
    index.warm();
    for (const q of ['ros', 'rose', 'rose b', 'rose  ', 'red  rose', 'red  rose\tb', 'e a', 'egg']) {
      expect(
        index.search(q).map((x) => x.productID),
        q,
      ).toEqual(search(catalogue, q).map((x) => x.productID));
    }
    const page = index.searchPage('e', 2);
    expect(page.total).toBe(search(catalogue, 'e').length);
    expect(page.items.map((x) => x.productID)).toEqual(
      search(catalogue, 'e')
        .slice(0, 2)
        .map((x) => x.productID),
    );
  });

  it('warming a step at a time between keystrokes changes no answer', () => {
    const catalogue = [
      p(1, 'Eggless chocolate cake', '<p>Rich and dark</p>', 'Cakes'),
      p(2, 'Rose bouquet', '<p>Twelve red roses, eggless card</p>', 'Flowers'),
      p(3, 'Anniversary hamper', '<p>Chocolates and a rose</p>', 'Gifts'),
    ];
    const index = new SearchIndex<P>();
    index.update(catalogue);
    const warming = index.warming();
    // A shopper typing while the index warms up (web/hooks/useSearch.ts runs a step per task).
    for (const q of ['r', 'ro', 'ros', 'rose', 'rose b', 'e', 'ea', 'e a', 'c', 'ch', 'choc']) {
      warming.next();
      expect(
        index.search(q).map((x) => x.productID),
        q,
      ).toEqual(search(catalogue, q).map((x) => x.productID));
    }
    while (!warming.next().done) {
      // the rest of it
    }
    expect(index.search('rose b').map((x) => x.productID)).toEqual([2]);
  });

  it('finds queries with a space in every product of a big catalogue, across the steps its texts are laid out in', () => {
    const catalogue = Array.from({ length: 4_500 }, (_, i) =>
      p(
        i + 1,
        `${i % 3 ? 'Rose' : 'Lily'} ${i % 7 ? 'bouquet' : 'box'} ${i}`,
        `<p>For ${i % 2 ? 'a birthday' : 'an anniversary'}</p>`,
        i % 5 ? 'Flowers' : 'Gifts',
      ),
    );
    const index = new SearchIndex<P>();
    index.update(catalogue);
    // Typed one character at a time, so each narrows the last; then from scratch.
    for (const q of ['rose box 1999', 'lily bouquet 2000', 'a birthday', 'gifts', 'y b', 'x 4']) {
      for (let k = 1; k <= q.length; k++) {
        const typed = q.slice(0, k);
        expect(
          index.search(typed).map((x) => x.productID),
          typed,
        ).toEqual(search(catalogue, typed).map((x) => x.productID));
      }
    }
    for (const q of ['x 2000', 'rose box 1999', 'or an']) {
      expect(
        index.search(q).map((x) => x.productID),
        q,
      ).toEqual(search(catalogue, q).map((x) => x.productID));
    }
  });

  it('updating in steps answers from the old index until its last step, and an abandoned update changes nothing', () => {
    const before = [p(1, 'Rose', '', 'Flowers')];
    const after = Array.from({ length: 4_500 }, (_, i) =>
      p(i + 1, i % 2 ? 'Rose' : 'Tulip', '', 'Flowers', 2),
    );
    const index = new SearchIndex<P>();
    index.update(before);
    const abandoned = index.updating(after);
    abandoned.next();
    expect(index.search('tulip')).toEqual([]);
    const steps = index.updating(after);
    let taken = 0;
    while (!steps.next().done) {
      taken += 1;
      expect(index.search('rose').map((x) => x.productID)).toEqual([1]);
    }
    expect(taken).toBeGreaterThan(2);
    expect(index.searchPage('tulip', 3).total).toBe(search(after, 'tulip').length);
    expect(index.search('rose').map((x) => x.productID)).toEqual(
      search(after, 'rose').map((x) => x.productID),
    );
  });

  it('a keystroke that adds a character finds each product where search() does: the same place, a later one, or none', () => {
    // The index keeps a few characters after each match with a space in it, so that adding one of them
    // needs no read of the text (SearchIndex's ahead()); every other case must still search the text.
    const catalogue = [
      p(1, 'Rose bed of rose bouquets', '<p>rose bouquet</p>', 'Flowers'),
      p(2, 'Red rose box', '<p>a rose bouquet, boxed</p>', 'Rose b'),
      p(3, 'Rose bऊquet', '<p>rose bouquet</p>', 'Flowers'),
      p(4, 'Tea rose bouquet', '', 'Flowers'),
      p(5, 'White rose', '<p>Rose\u00a0bouquet and rose buds</p>', 'Flowers'),
      p(6, 'xrose bouquet', '', 'Rose bouquets'),
    ];
    // Dense words (held by more than one product in 32) and sparse ones, in both of the marks' forms.
    const filler = Array.from({ length: 200 }, (_, i) =>
      p(100 + i, `Lily ${i}`, i % 3 ? '<p>rose bunch</p>' : '', i % 2 ? 'Flowers' : 'Gifts'),
    );
    const all = [...catalogue, ...filler];
    const index = new SearchIndex<P>();
    index.update(all);
    index.warm();
    for (const typed of [
      'rose bouquets',
      'rose b\u00a0',
      'rose bऊquet',
      'e rose box',
      'rose bu',
      'rose bouquet',
    ]) {
      for (let k = 1; k <= typed.length; k++) {
        const q = typed.slice(0, k);
        const want = search(all, q).map((x) => x.productID);
        expect(
          index.search(q).map((x) => x.productID),
          q,
        ).toEqual(want);
      }
    }
  });

  it('never lets a query span two fields', () => {
    const index = new SearchIndex<P>();
    index.update([p(1, 'Rose', '', 'Gifts')]);
    expect(index.search('rose\u0000gifts')).toEqual([]);
    // Two letters past "rose": not a typo of it (one letter away), nor held across the fields.
    expect(index.search('rosegi')).toEqual([]);
  });
});
