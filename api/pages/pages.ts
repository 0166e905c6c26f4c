/**
 * Which head a page address gets, and its status: the public pages (home,
 * products, a product, a category, categories, about, contact) are described
 * for search engines and link previews; a product or category that does not
 * exist is a 404 (still with the app shell, whose own not-found page shows);
 * every other address (search, cart, checkout, account, admin, and paths the
 * app may add) is served as a page that asks not to be indexed: never a 404
 * for a screen the app has, never listed either.
 */
import { type Category, LIMITS, type Product } from '../../domain/catalogue.js';
import { cardImage } from '../../domain/catalogue-media.js';
import { type DeliveryArea, deliveryAreasText } from '../../domain/delivery-areas.js';
import { messages, storefrontMessages } from '../../domain/messages.js';
import { categoryPath, HEAD_CITIES, productPath, STATIC_PAGES, summary } from '../../domain/page-head.js';
import { mediaOf, PRODUCT_IMAGE_SIZES } from '../../domain/product-media.js';
import type { ShopProfile } from '../../domain/shop-profile.js';
import { categoryListName } from '../../domain/visit-order.js';
import { logoIcons } from '../../domain/web-manifest.js';
import type { PageHead } from './head.js';
import type { PageCache } from './page-cache.js';
import { breadcrumbJsonLd, homeJsonLd, productJsonLd, productTrail } from './structured-data.js';

export interface Page {
  status: 200 | 404;
  head: PageHead;
}

/** The shop's icon, for pages without a picture of their own: its logo's, else the built one. */
export const SITE_IMAGE = { path: '/icons/icon-512.png', width: 512, height: 512 } as const;
/** The build's home-screen icon for iOS (`web/public`). */
const SITE_TOUCH_ICON = '/apple-touch-icon.png';
function siteImagePath(shop: ShopProfile): string {
  return shop.logo ? (logoIcons(shop.logo)[1]?.src ?? SITE_IMAGE.path) : SITE_IMAGE.path;
}

export interface PageContext {
  /** The absolute URL of a path on this shop. */
  abs(path: string): string;
  cache: PageCache;
  /** The shop's profile as saved (its name, tagline, stores, customer care, social links). */
  shop: ShopProfile;
}

/** What every page says when it has nothing of its own: the tagline, else the site's description. */
function siteDescription(ctx: PageContext): string {
  return STATIC_PAGES['/home']?.description(ctx.shop) ?? ctx.shop.name;
}

/** The fields of a head every page fills the same way: the shop's names. */
function site(ctx: PageContext): Pick<PageHead, 'site'> {
  const { name, shortName, logo } = ctx.shop;
  // iOS draws the touch icon on an opaque square: the maskable one, the logo on the shop's colour.
  const touchIcon = logo ? (logoIcons(logo)[2]?.src ?? SITE_TOUCH_ICON) : SITE_TOUCH_ICON;
  return { site: { name, shortName, touchIcon } };
}

export async function resolvePage(pathname: string, query: URLSearchParams, ctx: PageContext): Promise<Page> {
  // The app's routes are case-insensitive and ignore a trailing slash; so are these.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const lower = path.toLowerCase();
  const [, first = '', param, extra] = path.split('/');
  const section = `/${first.toLowerCase()}`;

  if (lower === '/' || lower === '/home') return home(await ctx.cache.areas(), ctx);
  if (lower === '/products') {
    const categoryId = query.get('categoryId');
    if (categoryId === null) return fixed('/products', ctx);
    const id = /^\d{1,15}$/.test(categoryId) ? Number(categoryId) : Number.NaN;
    const category = (await ctx.cache.categories()).find((c) => c.categoryID === id);
    return category ? categoryPage(category, ctx) : missing(path, ctx);
  }
  if (STATIC_PAGES[lower]) return fixed(lower, ctx);
  if (section === '/products-details' && param !== undefined && extra === undefined) {
    if (!/^\d{1,15}$/.test(param)) return missing(path, ctx);
    const [product, areas] = await Promise.all([ctx.cache.product(Number(param)), ctx.cache.areas()]);
    return product ? productPage(product, areas, ctx) : missing(path, ctx, messages.productNotFound);
  }
  if ((section === '/products-by-category' || section === '/category') && param && extra === undefined) {
    const category = await findCategory(param, ctx);
    return category ? categoryPage(category, ctx, decodeURIComponent(param)) : missing(path, ctx);
  }
  if (lower === '/search') {
    const q = query.get('q')?.trim() ?? '';
    return searchPage(path, q, ctx);
  }
  if (lower === '/cart') return private_(path, 'Your Cart', ctx);
  return private_(path, null, ctx);
}

async function findCategory(param: string, ctx: PageContext): Promise<Category | null> {
  let name: string;
  try {
    name = decodeURIComponent(param);
  } catch {
    return null;
  }
  const wanted = name.trim().normalize('NFC').toLowerCase();
  if (!wanted) return null;
  const all = await ctx.cache.categories();
  return all.find((c) => c.categoryName.trim().normalize('NFC').toLowerCase() === wanted) ?? null;
}

function siteImage(ctx: PageContext): PageHead['image'] {
  return {
    url: ctx.abs(siteImagePath(ctx.shop)),
    width: SITE_IMAGE.width,
    height: SITE_IMAGE.height,
    alt: ctx.shop.name,
  };
}

function productImage(product: Product | null, ctx: PageContext): PageHead['image'] {
  const image = product?.images[0];
  if (!product || !image) return siteImage(ctx);
  return { url: ctx.abs(image.src), width: image.width, height: image.height, alt: product.title };
}

/**
 * A description followed by where the shop delivers, the sentence its pages say, from the
 * delivery areas in the database (nothing added while it has none), naming at most `HEAD_CITIES`.
 */
function withDelivery(text: string, areas: readonly DeliveryArea[]): string {
  return areas.length ? `${text} ${deliveryAreasText(areas, HEAD_CITIES)}.` : text;
}

function home(areas: readonly DeliveryArea[], ctx: PageContext): Page {
  const description = withDelivery(siteDescription(ctx), areas);
  return {
    status: 200,
    head: {
      ...site(ctx),
      title: null,
      description,
      canonical: ctx.abs('/home'),
      type: 'website',
      image: siteImage(ctx),
      price: null,
      noindex: false,
      jsonLd: homeJsonLd(ctx.abs, ctx.shop, ctx.abs(siteImagePath(ctx.shop)), areas, description),
    },
  };
}

function fixed(path: string, ctx: PageContext): Page {
  const page = STATIC_PAGES[path];
  return {
    status: 200,
    head: {
      ...site(ctx),
      title: page?.title ?? null,
      description: page?.description(ctx.shop) ?? siteDescription(ctx),
      canonical: ctx.abs(path),
      type: 'website',
      image: siteImage(ctx),
      price: null,
      noindex: false,
      jsonLd: [],
    },
  };
}

/** A page's first-visit order seed: one of a few, so each category page is encoded a few times, not per visit. */
const VISIT_SEEDS = 8;
/** The cards a phone's first screen shows of a category (two rows of two). */
const FIRST_SCREEN_CARDS = 4;

function productPage(product: Product, areas: readonly DeliveryArea[], ctx: PageContext): Page {
  const url = ctx.abs(productPath(product.productID));
  const shown = mediaOf(product)[0];
  return {
    status: 200,
    head: {
      ...site(ctx),
      title: product.title,
      description: summary(product.description) || `${product.title} from ${ctx.shop.name}.`,
      canonical: url,
      type: 'product',
      image: productImage(product, ctx),
      preloadImages:
        shown && !shown.video
          ? [
              {
                href: shown.path,
                srcset: shown.srcSet,
                sizes: shown.srcSet ? PRODUCT_IMAGE_SIZES : undefined,
              },
            ]
          : [],
      shellPicture: 'gallery',
      price: product.price,
      noindex: false,
      jsonLd: [
        productJsonLd(product, url, ctx.abs, areas, ctx.shop.name),
        breadcrumbJsonLd(productTrail(product, url, ctx.abs)),
      ],
    },
  };
}

/**
 * A category; `routeName` is the category as the address names it (decoded), which names the app's
 * list. `/products?categoryId=` (All Products, another list) preloads nothing.
 */
async function categoryPage(category: Category, ctx: PageContext, routeName?: string): Promise<Page> {
  const url = ctx.abs(categoryPath(category.categoryName));
  const seed = 1 + Math.floor(Math.random() * VISIT_SEEDS);
  const [pictured, areas, first] = await Promise.all([
    ctx.cache.categoryProduct(category.categoryID),
    ctx.cache.areas(),
    routeName === undefined
      ? []
      : ctx.cache.firstCards(category.categoryID, categoryListName(routeName), seed, FIRST_SCREEN_CARDS),
  ]);
  return {
    status: 200,
    head: {
      ...site(ctx),
      title: category.categoryName,
      description: withDelivery(
        `${category.categoryName} at ${ctx.shop.name}: eggless and made fresh, with prices.`,
        areas,
      ),
      canonical: url,
      type: 'website',
      image: productImage(pictured, ctx),
      preloadImages: first.map((p) => ({ href: cardImage(p) })),
      // The cards' pictures in the HTML too, in the order the app then shows them (the visit seed).
      shellPicture: 'cards',
      visitSeed: first.length ? seed : null,
      price: null,
      noindex: false,
      jsonLd: [
        breadcrumbJsonLd([
          { name: 'Home', url: ctx.abs('/home') },
          { name: category.categoryName, url },
        ]),
      ],
    },
  };
}

/**
 * Search results: a private page (never indexed) whose HTML names its first cards' pictures, the
 * results the device will rank first over the same catalogue (`firstResults`): on a first visit
 * they are the screen's largest pictures, and the device has them only after its sync and index.
 */
async function searchPage(path: string, q: string, ctx: PageContext): Promise<Page> {
  const page = private_(path, q ? messages.searchResultsFor(q) : 'Search', ctx);
  // The search endpoint refuses a longer query; a page that ran one would be a cheap way to load the server.
  if (!q || q.length > LIMITS.searchQuery) return page;
  const first = await ctx.cache.firstResults(q, FIRST_SCREEN_CARDS);
  return {
    ...page,
    head: {
      ...page.head,
      preloadImages: first.map((p) => ({ href: cardImage(p) })),
      shellPicture: 'cards',
    },
  };
}

/** A product or category that does not exist: 404, the app shell, and nothing for an index to keep. */
function missing(path: string, ctx: PageContext, title: string = storefrontMessages.pageNotFound): Page {
  return { status: 404, head: private_(path, title, ctx).head };
}

function private_(path: string, title: string | null, ctx: PageContext): Page {
  return {
    status: 200,
    head: {
      ...site(ctx),
      title,
      description: siteDescription(ctx),
      canonical: ctx.abs(path),
      type: 'website',
      image: siteImage(ctx),
      price: null,
      noindex: true,
      jsonLd: [],
    },
  };
}
