/**
 * /sitemap.xml and /robots.txt. The sitemap protocol allows 50,000 URLs in one
 * file: from that many on, /sitemap.xml is a sitemap index naming the parts
 * (/sitemap-1.xml, ...). A part holds 45,000, below the protocol's limits of
 * 50,000 URLs and 50 MB with room for long names and image entries.
 */
import {
  ErrorLevel,
  SitemapIndexStream,
  type SitemapItemLoose,
  SitemapStream,
  streamToPromise,
} from 'sitemap';
import { categoryPath, PRIVATE_PATHS, productPath, STATIC_PAGES } from '../../domain/page-head.js';
import type { SitemapCategory, SitemapProduct } from './pages.repository.js';

export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_PART_SIZE = 45_000;

export interface Sitemaps {
  /** /sitemap.xml: the one sitemap, or the index of the parts. */
  root: string;
  /** The parts, /sitemap-1.xml first; empty when the root is the sitemap itself. */
  parts: string[];
}

/** Every URL the shop wants found: the fixed pages, each category, each product with its picture. */
export function sitemapItems(
  products: SitemapProduct[],
  categories: SitemapCategory[],
  abs: (path: string) => string,
): SitemapItemLoose[] {
  const items: SitemapItemLoose[] = Object.keys(STATIC_PAGES).map((path) => ({ url: abs(path) }));
  for (const c of categories) {
    items.push({ url: abs(categoryPath(c.categoryName)), lastmod: new Date(c.updatedAt).toISOString() });
  }
  for (const p of products) {
    items.push({
      url: abs(productPath(p.productID)),
      lastmod: new Date(p.updatedAt).toISOString(),
      ...(p.image ? { img: [{ url: abs(p.image), title: p.title }] } : {}),
    });
  }
  return items;
}

async function urlset(items: SitemapItemLoose[]): Promise<string> {
  // Our URLs are absolute already (PUBLIC_URL may have a path, which a hostname option would drop).
  const stream = new SitemapStream({
    level: ErrorLevel.THROW,
    xmlns: { news: false, video: false, xhtml: false, image: true },
  });
  const done = streamToPromise(stream);
  for (const item of items) stream.write(item);
  stream.end();
  return (await done).toString('utf8');
}

async function index(entries: { url: string; lastmod: string | undefined }[]): Promise<string> {
  const stream = new SitemapIndexStream({ level: ErrorLevel.THROW });
  const done = streamToPromise(stream);
  for (const { url, lastmod } of entries) stream.write(lastmod ? { url, lastmod } : { url });
  stream.end();
  return (await done).toString('utf8');
}

/** The latest change among the items (ISO strings compare in time order), for a part's entry in the index. */
function latest(items: SitemapItemLoose[]): string | undefined {
  let max: string | undefined;
  for (const i of items) if (i.lastmod && (!max || i.lastmod > max)) max = i.lastmod;
  return max;
}

export async function buildSitemaps(
  items: SitemapItemLoose[],
  abs: (path: string) => string,
  options: { maxUrls?: number; partSize?: number } = {},
): Promise<Sitemaps> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const partSize = options.partSize ?? SITEMAP_PART_SIZE;
  if (items.length < maxUrls) return { root: await urlset(items), parts: [] };
  const parts: string[] = [];
  const entries: { url: string; lastmod: string | undefined }[] = [];
  for (let at = 0; at < items.length; at += partSize) {
    const slice = items.slice(at, at + partSize);
    parts.push(await urlset(slice));
    entries.push({ url: abs(`/sitemap-${parts.length}.xml`), lastmod: latest(slice) });
  }
  return { root: await index(entries), parts };
}

/**
 * The origin the sitemaps are made with once per catalogue version, then replaced by the origin a
 * request is answered with (`SitemapTemplate.withOrigin`). `.invalid` never resolves, so it is
 * never anyone's real address.
 */
const STAND_IN = 'http://sitemap-origin.invalid';

/**
 * A sitemap made once and given each origin by splicing: every absolute URL in it is an element's
 * text starting with the stand-in, right after the tag's `>`. Titles cannot hold a bare `>` (the
 * `sitemap` package writes `&gt;`), so no other text is touched.
 */
export class SitemapTemplate {
  private constructor(
    private readonly root: string[],
    private readonly parts: string[][],
    /** How many URLs the sitemap lists (for the log). */
    readonly urls: number,
  ) {}

  static async build(
    products: SitemapProduct[],
    categories: SitemapCategory[],
    options: { maxUrls?: number; partSize?: number } = {},
  ): Promise<SitemapTemplate> {
    const abs = (path: string) => `${STAND_IN}${path}`;
    const items = sitemapItems(products, categories, abs);
    const built = await buildSitemaps(items, abs, options);
    const cut = (xml: string) => xml.split(`>${STAND_IN}`);
    return new SitemapTemplate(cut(built.root), built.parts.map(cut), items.length);
  }

  /** The sitemaps with `origin` (PUBLIC_URL, which may have a path, or a request's origin) in every URL. */
  withOrigin(origin: string): Sitemaps {
    // As the package writes a URL: through `new URL`, then escaped as XML text.
    const href = new URL(`${origin}/`).href.slice(0, -1);
    const glue = `>${href.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}`;
    return { root: this.root.join(glue), parts: this.parts.map((p) => p.join(glue)) };
  }
}

/** robots.txt: a shopper's own pages, the login pages and the admin area are not for crawlers. */
export function robotsTxt(sitemapUrl: string): string {
  return [
    'User-agent: *',
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    'Allow: /',
    '',
    `Sitemap: ${sitemapUrl}`,
    '',
  ].join('\n');
}
