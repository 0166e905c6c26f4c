/**
 * schema.org data for search engines (JSON-LD), typed with schema-dts so a
 * misspelt property or a wrong type fails the typecheck instead of being
 * silently ignored by Google. `abs` turns a path into an absolute URL.
 */
import type {
  AggregateOffer,
  Bakery,
  BreadcrumbList,
  City,
  Offer,
  Product as SchemaProduct,
  SearchAction,
  WebSite,
  WithActionConstraints,
  WithContext,
} from 'schema-dts';
import type { Category, Product } from '../../domain/catalogue.js';
import { areaCities, type DeliveryArea } from '../../domain/delivery-areas.js';
import { categoryPath, HEAD_CITIES, summary } from '../../domain/page-head.js';
import { type ShopProfile, socialLinks, storeCoordinates } from '../../domain/shop-profile.js';

type Abs = (path: string) => string;

/** The shop sells everything it lists: a product that is gone is deleted, not shown out of stock. */
const IN_STOCK = 'https://schema.org/InStock';

/**
 * Where the shop delivers (`areaServed`), from its delivery areas: each city as a schema.org
 * `City` inside its state or union territory, in India. schema.org expects places here rather
 * than text, and a city is what a reader recognises; the pincodes themselves are the checkout's
 * business (39 of them would say less than five names). The first `HEAD_CITIES` of them, in the
 * order the descriptions name them (the shop's home first): every one named is served, and a head
 * stays small however many towns the shop reaches. Nothing when the shop has no areas: no area is
 * claimed.
 */
export function areaServedJsonLd(areas: readonly DeliveryArea[]): { areaServed?: City[] } {
  const cities = areaCities(areas)
    .slice(0, HEAD_CITIES)
    .map(
      (c): City => ({
        '@type': 'City',
        name: c.city,
        containedInPlace: {
          '@type': 'AdministrativeArea',
          name: c.state,
          containedInPlace: { '@type': 'Country', name: 'India' },
        },
      }),
    );
  return cities.length ? { areaServed: cities } : {};
}

/**
 * A product with its price: one `Offer` at its price, or, when it has
 * variations (weights, sizes), an `AggregateOffer` from the lowest to the highest
 * of the base price and every variation's; either names where it is delivered.
 */
export function productJsonLd(
  product: Product,
  url: string,
  abs: Abs,
  areas: readonly DeliveryArea[],
  shopName: string,
): WithContext<SchemaProduct> {
  const served = areaServedJsonLd(areas);
  const prices = [product.price, ...product.variations.map((v) => v.price)];
  const offers: Offer | AggregateOffer =
    product.variations.length > 0
      ? {
          '@type': 'AggregateOffer',
          priceCurrency: 'INR',
          lowPrice: Math.min(...prices),
          highPrice: Math.max(...prices),
          offerCount: prices.length,
          availability: IN_STOCK,
          url,
          ...served,
        }
      : {
          '@type': 'Offer',
          priceCurrency: 'INR',
          price: product.price,
          availability: IN_STOCK,
          url,
          ...served,
        };
  const category = product.categories[0]?.categoryName;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: summary(product.description, 5000),
    image: product.images.map((i) => abs(i.src)),
    sku: String(product.productID),
    brand: { '@type': 'Brand', name: shopName },
    ...(category ? { category } : {}),
    ...(product.sizeOrWeight ? { weight: product.sizeOrWeight } : {}),
    url,
    offers,
  };
}

/** Home › the product's first category › the product (Home › product when it has none). */
export function breadcrumbJsonLd(trail: { name: string; url: string }[]): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((step, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: step.url,
    })),
  };
}

export function productTrail(product: Product, url: string, abs: Abs): { name: string; url: string }[] {
  const first: Category | undefined = product.categories[0];
  return [
    { name: 'Home', url: abs('/home') },
    ...(first ? [{ name: first.categoryName, url: abs(categoryPath(first.categoryName)) }] : []),
    { name: product.title, url },
  ];
}

/**
 * The home page: the shop as a `Bakery` at each store of its profile (its address with the PIN as
 * `postalCode`, where its map link puts it), or one `Bakery` without an address while the profile
 * lists no store; each with the legal name, customer care's phone and email, the cities it
 * delivers to and its social profiles as `sameAs`; and the site with a `SearchAction`, so a search
 * engine may offer the shop's own search. `description` is the home page's own. A store's hours
 * are the owner's free text, which schema.org's `openingHours` syntax cannot take: not claimed.
 */
export function homeJsonLd(
  abs: Abs,
  shop: ShopProfile,
  logo: string,
  areas: readonly DeliveryArea[],
  description: string,
): WithContext<Bakery | WebSite>[] {
  const sameAs = socialLinks(shop).map((l) => l.url);
  const common: WithContext<Bakery> = {
    '@context': 'https://schema.org',
    '@type': 'Bakery',
    name: shop.name,
    ...(shop.legalName ? { legalName: shop.legalName } : {}),
    description,
    url: abs('/home'),
    logo,
    image: logo,
    ...(shop.care.phone ? { telephone: shop.care.phone } : {}),
    ...(shop.care.email ? { email: shop.care.email } : {}),
    priceRange: '₹₹',
    currenciesAccepted: 'INR',
    ...areaServedJsonLd(areas),
    ...(sameAs.length ? { sameAs } : {}),
  };
  const stores = shop.stores.length
    ? shop.stores.map((store, i): WithContext<Bakery> => {
        const at = storeCoordinates(store.mapUrl);
        return {
          ...common,
          '@id': abs(`/contact#store-${i + 1}`),
          name: `${shop.name}, ${store.name}`,
          address: {
            '@type': 'PostalAddress',
            streetAddress: store.address,
            ...(store.pin ? { postalCode: store.pin } : {}),
            addressCountry: 'IN',
          },
          ...(at ? { geo: { '@type': 'GeoCoordinates', latitude: at.lat, longitude: at.lon } } : {}),
          ...(store.mapUrl ? { hasMap: store.mapUrl } : {}),
        };
      })
    : [{ ...common, '@id': abs('/home#shop') }];
  const search: WithActionConstraints<SearchAction> = {
    '@type': 'SearchAction',
    target: { '@type': 'EntryPoint', urlTemplate: `${abs('/search')}?q={search_term_string}` },
    'query-input': 'required name=search_term_string',
  };
  const site: WithContext<WebSite> = {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: shop.name,
    url: abs('/home'),
    inLanguage: 'en-IN',
    potentialAction: search,
  };
  return [...stores, site];
}
