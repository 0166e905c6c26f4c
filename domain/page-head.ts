/**
 * What a page says about itself before any script runs: its title, its one-line
 * description, its own address. The server writes them into the HTML it sends
 * (link-preview crawlers run no JavaScript) and the app keeps them current as
 * the shopper moves, so both read the same words here.
 */
import { plainText } from './plain-text.js';
import { POLICIES } from './policies.js';

/** The shop's name: the whole title of the home page, and every other page's suffix. */
export const SITE_NAME = 'Bakery & Blooms';

/**
 * The site's own description (home, and any page that has none of its own). Where the shop
 * delivers is not written here: the server adds the delivery areas' sentence (api/pages).
 */
export const SITE_DESCRIPTION = 'Eggless cakes, fresh flowers, chocolates and gifts.';

/** "Red Velvet Cakes | Bakery & Blooms"; the shop's name alone for an empty page title. */
export function pageTitle(title: string | null | undefined): string {
  const own = title?.trim();
  return own ? `${own} | ${SITE_NAME}` : SITE_NAME;
}

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

/** The public pages with fixed words: their title (null: the shop's name alone) and description. */
export const STATIC_PAGES: Readonly<Record<string, { title: string | null; description: string }>> = {
  '/home': { title: null, description: SITE_DESCRIPTION },
  '/products': {
    title: 'All Products',
    description:
      'Every eggless cake, bouquet, chocolate box, plant and gift of Bakery & Blooms, with prices.',
  },
  '/all-categories': {
    title: 'All Categories',
    description: 'Cakes by flavour, flowers, chocolates, plants, gifts and combos at Bakery & Blooms.',
  },
  '/about-us': {
    title: 'About us',
    description:
      'Bakery & Blooms: an eggless bakery and florist in Chandigarh and Mohali. Our story, our terms and how we deliver.',
  },
  '/contact': {
    title: 'Contact us',
    description: 'Visit our stores in Chandigarh and Mohali, call us or write to us.',
  },
  [POLICIES.privacy.path]: {
    title: POLICIES.privacy.title,
    description: 'What Bakery & Blooms keeps about you, why, for how long, and whom to write to.',
  },
  [POLICIES.shipping.path]: {
    title: POLICIES.shipping.title,
    description:
      'Where we deliver and what it costs, the delivery slots and their cut-offs, and photo cakes’ notice.',
  },
  [POLICIES.cancellation.path]: {
    title: POLICIES.cancellation.title,
    description: 'How to cancel an order, with no cancellation fee, and how and when refunds reach you.',
  },
  [POLICIES.terms.path]: {
    title: POLICIES.terms.title,
    description:
      'The terms of ordering from Bakery & Blooms: orders, prices, payment, delivery and who to write to.',
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
export function shareText(product: { title: string }, priceText: string): string {
  return `${product.title}: ${priceText} at ${SITE_NAME}`;
}
