import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS } from '../../api/accounts/codes.js';
import { KEY_RETENTION_MS } from '../../api/orders/idempotency.js';
import { areaServedJsonLd, homeJsonLd, productJsonLd } from '../../api/pages/structured-data.js';
import { demoProducts } from '../../api/seed/demo.js';
import type { Category, Product } from '../../domain/catalogue.js';
import { type DeliveryArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { DELIVERY_BY_PINCODE } from '../../domain/delivery-words.js';
import { giftMessages } from '../../domain/gifts.js';
import { CODE_MINUTES, UNORDERED_PHOTO_DAYS } from '../../domain/privacy.js';
import {
  chosenSize,
  defaultSizeKey,
  productBenefits,
  productKind,
  shippingDetails,
  sizeOptions,
} from '../../domain/product-page.js';
import { CATEGORIES } from '../../domain/shop.js';
import { DEFAULT_PROFILE, DEMO_PROFILE } from '../../domain/shop-profile.js';

/**
 * The product page's rules and the shop's facts as a shopper meets them: the option picker's
 * words, texts that fit the product, no invented figures, the 2 stores, and the privacy page's
 * times held against the server's own.
 */

const C = CATEGORIES;
const SEED_LINE = 'Same-day delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300';
const area = (
  pincode: string,
  city: string,
  state: string,
  charge: number,
  sameDay = true,
): DeliveryArea => ({
  pincode,
  city,
  state,
  charge,
  slotIDs: null,
  sameDay,
});
const weight = (variationID: number, variationValue: string, price: number) => ({
  variationID,
  variationName: 'Weight',
  variationValue,
  price,
});
const truffle = {
  price: 649,
  sizeOrWeight: '0.5 kg',
  variations: [weight(1, '0.5 kg', 649), weight(2, '1 kg', 1009), weight(3, '2 kg', 2269)],
};

/** The demo catalogue as the page sees it: categories by name, as the feed carries them. */
const byId = new Map<number, Category>(Object.values(C).map((c) => [c.categoryID, c]));
const demo = demoProducts().map((p, n) => ({
  ...p,
  productID: n + 1,
  categories: p.categoryIDs.map((id) => byId.get(id) as Category),
  variations: p.variations.map((v, i) => ({ ...v, variationID: (n + 1) * 10 + i })),
}));

describe('the option picker names each size and its price', () => {
  it('reads "0.5 kg: ₹649" for the product\'s own size and "1 kg: ₹1,009" for a variation, each once', () => {
    expect(sizeOptions(truffle).map((o) => o.label)).toEqual([
      '0.5 kg: ₹649',
      '1 kg: ₹1,009',
      '2 kg: ₹2,269',
    ]);
    // The variation that is the product's own size at its own price stands for it, and is the first choice.
    expect(defaultSizeKey(truffle)).toBe('1');
    expect(sizeOptions(truffle).some((o) => /base price/i.test(o.label))).toBe(false);
  });

  it("puts the product's own size first when no variation is it", () => {
    const cake = { ...truffle, sizeOrWeight: '1 kg', price: 900, variations: [weight(3, '2 kg', 1600)] };
    expect(sizeOptions(cake)).toEqual([
      { key: '', variation: null, label: '1 kg: ₹900' },
      { key: '3', variation: cake.variations[0], label: '2 kg: ₹1,600' },
    ]);
    expect(defaultSizeKey(cake)).toBe('');
    // A product without a size of its own still names its price; a variation its name when it has no value.
    expect(sizeOptions({ ...cake, sizeOrWeight: '' })[0]?.label).toBe('Standard: ₹900');
    expect(sizeOptions({ ...cake, variations: [] })).toEqual([]);
  });

  it('names the chosen size as its options are named, so the page shows what was picked', () => {
    expect(chosenSize(truffle, truffle.variations[2] ?? null)).toEqual({ name: 'Weight', value: '2 kg' });
    expect(chosenSize({ ...truffle, sizeOrWeight: '1 kg' }, null)).toEqual({ name: 'Weight', value: '1 kg' });
    expect(chosenSize({ sizeOrWeight: '1 set', variations: [] }, null)).toEqual({
      name: 'Size',
      value: '1 set',
    });
  });

  it('offers every demo product its sizes once, its own size first chosen, at the price its card shows', () => {
    for (const p of demo) {
      const options = sizeOptions(p);
      if (!p.variations.length) continue;
      const labels = options.map((o) => o.label.split(':')[0]);
      expect(new Set(labels).size, p.title).toBe(labels.length);
      const first = options.find((o) => o.key === defaultSizeKey(p));
      expect(first?.label, p.title).toMatch(new RegExp(`^${p.sizeOrWeight.replace(/[+.]/g, '\\$&')}: `));
      expect(first?.variation?.price ?? p.price, p.title).toBe(p.price);
    }
  });

  it('never names one size in a demo description that another choice would contradict', () => {
    for (const p of demo) {
      const text = p.description.replace(/<[^>]+>/g, ' ');
      const named = p.variations.map((v) => v.variationValue).filter((value) => text.includes(value));
      expect(named.length === 0 || named.length === p.variations.length, `${p.title}: ${named}`).toBe(true);
    }
  });
});

describe('texts fit the product', () => {
  it('tells kinds apart by their categories, the most specific first', () => {
    const kind = (...names: string[]) =>
      productKind({
        categories: names.map((categoryName, i) => ({ categoryID: i, categoryName })),
        photoCake: false,
      });
    expect(kind('Chocolate Cakes', 'All Cakes')).toBe('cake');
    expect(kind('All Flowers')).toBe('flowers');
    expect(kind('All Chocolate')).toBe('chocolates');
    expect(kind('Plants')).toBe('plants');
    expect(kind('Gifts')).toBe('gifts');
    expect(kind('All Combo')).toBe('combo');
    expect(kind('Birthday Cakes')).toBe('cake');
    expect(kind('Something new')).toBe('other');
  });

  it('promises a bouquet no eggs or baking, and a photo cake no same-day delivery', () => {
    const facts = { areas: SEED_AREAS, noticeDays: 1 };
    const benefits = (p: Pick<Product, 'categories' | 'photoCake'>) => productBenefits(p, facts).join(' | ');
    const bouquet = { categories: [C.allFlowers], photoCake: false };
    const photoCake = { categories: [C.vanilla, C.allCakes], photoCake: true };
    const cake = { categories: [C.vanilla, C.allCakes], photoCake: false };
    expect(benefits(bouquet)).not.toMatch(/egg|bak/i);
    expect(benefits({ categories: [C.plants], photoCake: false })).not.toMatch(/egg|bak|fresh/i);
    expect(benefits({ categories: [C.gifts], photoCake: false })).not.toMatch(/egg|bak/i);
    expect(benefits({ categories: [C.allChocolate], photoCake: false })).not.toMatch(/egg|bak/i);
    expect(benefits(cake)).not.toMatch(/egg/i);
    // Only a shop that says it is eggless says so of its cakes (its profile's claim).
    expect(productBenefits(cake, facts, { eggless: true })).toContain('100% eggless');
    expect(productBenefits(bouquet, facts, { eggless: true }).join(' ')).not.toMatch(/egg/i);
    expect(benefits(cake)).toContain(SEED_LINE);
    expect(benefits(photoCake)).not.toMatch(/same-day/i);
    expect(benefits(photoCake)).toContain(giftMessages.photoCakeNotice(1));
    expect(benefits(photoCake)).toContain(
      'Delivery in Chandigarh, Mohali, Kharar, Zirakpur and Panchkula, ₹150-₹300',
    );
    expect(shippingDetails(photoCake, facts)).not.toMatch(/same-day/i);
    expect(shippingDetails(photoCake, facts)).toContain(giftMessages.photoCakeNotice(1));
    expect(shippingDetails(cake, facts)).toContain(SEED_LINE);
  });

  it("says the shop's notice for a photo cake, and the same day only when it needs none", () => {
    const photoCake = { categories: [C.allCakes], photoCake: true };
    const twoDays = productBenefits(photoCake, { areas: SEED_AREAS, noticeDays: 2 });
    expect(twoDays).toContain("A photo cake needs 2 days' notice.");
    expect(twoDays.join(' ')).not.toMatch(/same-day/i);
    const none = { areas: SEED_AREAS, noticeDays: 0 };
    expect(productBenefits(photoCake, none)).toContain(SEED_LINE);
    expect(shippingDetails(photoCake, none)).toContain(SEED_LINE);
  });

  it('says where, what it costs and what decides the day, from the areas; nothing fixed', () => {
    const cake = { categories: [C.allCakes], photoCake: false };
    const text = shippingDetails(cake, { areas: SEED_AREAS, noticeDays: 1 });
    expect(text).toBe(
      `${SEED_LINE}. The charge is your pincode's. Orders placed before their delivery slot's cut-off come the same day.`,
    );
    // An admin's free, next-day-only shop: neither a charge nor the same day is claimed.
    const free = [area('160062', 'Mohali', 'Punjab', 0, false)];
    expect(shippingDetails(cake, { areas: free, noticeDays: 1 })).toBe(
      'Delivery in Mohali, no delivery charge.',
    );
  });

  it('promises nothing while the device has no areas yet, and never the old fixed text', () => {
    const cake = { categories: [C.allCakes], photoCake: false };
    const photoCake = { categories: [C.allCakes], photoCake: true };
    for (const areas of [undefined, []]) {
      const facts = { areas, noticeDays: 1 };
      expect(productBenefits(cake, facts)).toContain(DELIVERY_BY_PINCODE);
      expect(shippingDetails(cake, facts)).toBe(`${DELIVERY_BY_PINCODE}.`);
      expect(shippingDetails(photoCake, facts)).toBe(
        `${giftMessages.photoCakeNotice(1)} ${DELIVERY_BY_PINCODE}.`,
      );
      const all = [...productBenefits(cake, facts), shippingDetails(cake, facts)].join(' ');
      expect(all).not.toMatch(/same-day|chandigarh|india|free/i);
    }
  });

  it('writes the demo texts to fit: no eggs or baking outside cakes, no same day for a photo cake', () => {
    for (const p of demo) {
      const text = `${p.description} ${p.labelHeading} ${p.labelDescription}`;
      if (productKind(p) !== 'cake') expect(text, p.title).not.toMatch(/eggless|baked/i);
      if (p.photoCake) {
        expect(text, p.title).not.toMatch(/same-day/i);
        expect(text, p.title).toContain(giftMessages.photoCakeNotice());
      }
      // A combo names only what it holds.
      if (p.kind === 'combo' && !/cake/i.test(p.title)) expect(text, p.title).not.toMatch(/\bcake\b/i);
      if (p.kind === 'combo' && !/roses|gerbera|carnation|lil/i.test(p.title))
        expect(text, p.title).not.toMatch(/bouquet|stems|flowers/i);
    }
    expect(demo.filter((p) => p.photoCake).length).toBeGreaterThan(0);
  });
});

describe('no invented figures, and the facts the spec gives', () => {
  const abs = (path: string) => `https://shop.example${path}`;

  it('gives search engines no rating: none exists until buyers review', () => {
    const p = demo[0] as (typeof demo)[number];
    const product: Product = {
      productID: p.productID,
      title: p.title,
      description: p.description,
      price: p.price,
      imagePath: '',
      categories: p.categories,
      categoryName: p.categories.map((c) => c.categoryName).join(', '),
      labelHeading: p.labelHeading,
      labelDescription: p.labelDescription,
      sizeOrWeight: p.sizeOrWeight,
      variations: p.variations,
      images: [],
      updatedAt: '2026-11-27T00:00:00.000Z',
      version: 1,
      takesMessage: p.takesMessage,
      photoCake: p.photoCake,
    };
    const json = JSON.stringify(
      productJsonLd(product, abs('/products-details/1'), abs, SEED_AREAS, 'Bakery & Blooms'),
    );
    expect(json).not.toMatch(/aggregateRating|ratingValue|reviewCount|"review"/);
  });

  it('names the cities of the delivery areas as the area served, and none when there are no areas', () => {
    expect(areaServedJsonLd(SEED_AREAS).areaServed?.map((c) => typeof c === 'object' && c.name)).toEqual([
      'Chandigarh',
      'Mohali',
      'Kharar',
      'Zirakpur',
      'Panchkula',
    ]);
    expect(areaServedJsonLd([area('134101', 'Panchkula', 'Haryana', 300)])).toEqual({
      areaServed: [
        {
          '@type': 'City',
          name: 'Panchkula',
          containedInPlace: {
            '@type': 'AdministrativeArea',
            name: 'Haryana',
            containedInPlace: { '@type': 'Country', name: 'India' },
          },
        },
      ],
    });
    expect(areaServedJsonLd([])).toEqual({});
  });

  it('names each store of the profile in the structured data, one Bakery without an address when none', () => {
    const data = homeJsonLd(
      abs,
      DEMO_PROFILE,
      abs('/icons/icon-512.png'),
      SEED_AREAS,
      'About the shop.',
    ) as unknown as Record<string, unknown>[];
    const bakeries = data.filter((d) => d['@type'] === 'Bakery');
    expect(bakeries.map((b) => JSON.stringify(b.address))).toEqual([
      expect.stringContaining('Sector 17'),
      expect.stringContaining('Phase 7'),
    ]);
    const none = homeJsonLd(abs, DEFAULT_PROFILE, abs('/icons/icon-512.png'), [], 'x') as unknown as Record<
      string,
      unknown
    >[];
    const alone = none.filter((d) => d['@type'] === 'Bakery');
    expect(alone).toHaveLength(1);
    expect(alone[0]).not.toHaveProperty('address');
    expect(alone[0]).not.toHaveProperty('telephone');
  });

  it('promises on the privacy page only the times the server keeps', () => {
    expect(UNORDERED_PHOTO_DAYS * 24 * 60 * 60 * 1000).toBe(KEY_RETENTION_MS);
    expect(CODE_MINUTES * 60 * 1000).toBe(CODE_TTL_MS);
  });
});
