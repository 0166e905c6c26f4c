/**
 * What a page says about itself before any script runs: its title, its one-line
 * description, its own address. The server writes them into the HTML it sends
 * (link-preview crawlers run no JavaScript) and the app keeps them current as
 * the shopper moves, so both read the same words here.
 */
import { plainText } from './plain-text.js';
import { POLICIES } from './policies.js';
import { DEFAULT_SHOP_NAME } from './shop-name.js';

/**
 * The name of a shop that never wrote its profile (`DEFAULT_PROFILE.name`, from domain/shop-name.ts):
 * the default of every function here that names the shop. The server passes the profile's name
 * (`api/pages`); the app its device's (web/shop-name.ts).
 */
export const SITE_NAME = DEFAULT_SHOP_NAME;

/**
 * The site's own description (home, and any page that has none of its own), when the profile has
 * no tagline. Where the shop delivers is not written here: the server adds the delivery areas'
 * sentence (api/pages).
 */
export const SITE_DESCRIPTION = 'Cakes, flowers, chocolates and gifts.';

// The title's rule lives with the shop's name: the app's every screen sets its title, and reaching
// it through this module would take the policies' texts and the shared shop chunk with it.
export { pageTitle } from './shop-name.js';

/** About the length search results and link previews show before cutting a description. */
export const DESCRIPTION_LENGTH = 160;

/**
 * The most cities a page head names where the shop delivers, in its descriptions ("… and 1,995
 * more") and in the JSON-LD's `areaServed`: the head is written on every page, three times over
 * (description, og, twitter) and again in each store's JSON-LD, so a shop of many towns would
 * otherwise send them all, megabytes, before the page's first byte of content. Five are the spec's
 * own cities; the full list is the checkout's and the areas' endpoint's.
 */
export const HEAD_CITIES = 5;

/**
 * A product's HTML description as one line of plain text of at most `max`
 * characters, cut at a word with an ellipsis when longer.
 */
export function summary(html: string, max = DESCRIPTION_LENGTH): string {
  const text = plainText(html);
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // A single very long word is cut where it is rather than dropped whole.
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/**
 * The public pages with fixed words: their title (null: the shop's name alone) and description,
 * which names the shop (`name`) and, on home, says its tagline when it has one.
 */
export const STATIC_PAGES: Readonly<
  Record<string, { title: string | null; description: (shop: { name: string; tagline: string }) => string }>
> = {
  '/home': {
    title: null,
    description: (shop) =>
      `${shop.name}: ${shop.tagline ? `${shop.tagline.replace(/[^.!?]$/, '$&.')} ` : ''}${SITE_DESCRIPTION}`,
  },
  '/products': {
    title: 'All Products',
    description: (shop) =>
      `Every eggless cake, bouquet, chocolate box, plant and gift of ${shop.name}, with prices.`,
  },
  '/all-categories': {
    title: 'All Categories',
    description: (shop) => `Cakes by flavour, flowers, chocolates, plants, gifts and combos at ${shop.name}.`,
  },
  '/about-us': {
    title: 'About us',
    description: (shop) => `${shop.name}: our story, our terms and how we deliver.`,
  },
  '/contact': {
    title: 'Contact us',
    description: (shop) => `Visit the stores of ${shop.name}, call us or write to us.`,
  },
  [POLICIES.privacy.path]: {
    title: POLICIES.privacy.title,
    description: (shop) => `What ${shop.name} keeps about you, why, for how long, and whom to write to.`,
  },
  [POLICIES.shipping.path]: {
    title: POLICIES.shipping.title,
    description: (shop) =>
      `Where ${shop.name} delivers and what it costs, the delivery slots and their cut-offs, and photo cakes’ notice.`,
  },
  [POLICIES.cancellation.path]: {
    title: POLICIES.cancellation.title,
    description: (shop) =>
      `How to cancel an order with ${shop.name}, with no cancellation fee, and how and when refunds reach you.`,
  },
  [POLICIES.terms.path]: {
    title: POLICIES.terms.title,
    description: (shop) =>
      `The terms of ordering from ${shop.name}: orders, prices, payment, delivery and who to write to.`,
  },
};

/** The address of a product's own page. */
export function productPath(productID: number): string {
  return `/products-details/${productID}`;
}

/** The address of a category's page (names are matched trimmed and case-insensitively). */
export function categoryPath(categoryName: string): string {
  return `/products-by-category/${encodeURIComponent(categoryName.trim())}`;
}

/**
 * Pages no search engine should crawl: a shopper's own (cart, checkout, account),
 * the login pages and the admin area. robots.txt disallows them; each also
 * carries `noindex` (as does every page that is not a public one).
 */
export const PRIVATE_PATHS = [
  '/cart',
  '/checkout',
  '/order-success',
  '/my-orders',
  '/my-profile',
  '/login',
  '/register',
  '/otp',
  '/forget-password',
  '/verify-reset-otp',
  '/admin',
  '/dashboard',
  '/all-admin-orders',
  '/admin-orders',
  '/add-new-category',
  '/category-list',
  '/add-product',
  '/product-list',
  '/edit-products',
  '/backups',
] as const;

/** What the share sheet (or a WhatsApp message) says about a product: its name and its price. */
export function shareText(product: { title: string }, priceText: string, shopName = SITE_NAME): string {
  return `${product.title}: ${priceText} at ${shopName}`;
}
