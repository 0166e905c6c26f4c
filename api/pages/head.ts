import type { Thing, WithContext } from 'schema-dts';
import { pageTitle } from '../../domain/page-head.js';

/**
 * One page's head, as the server writes it into the shell. Every value is
 * text from the catalogue or the request; `renderHead` escapes each one for
 * where it goes, so a product named `</title><script>` stays a name.
 */
export interface PageHead {
  /**
   * The shop's names from its profile: `name` ends every title and is `og:site_name` and
   * `application-name` (the app's header reads it before its settings are on the device);
   * `shortName` is the home-screen title iOS gives the page (`apple-mobile-web-app-title`), and
   * `touchIcon` its icon there (iOS reads no manifest icons): the logo's, else the build's.
   */
  site: { name: string; shortName: string; touchIcon: string };
  /** The page's own title, before " | {shop}"; null for the shop's name alone. */
  title: string | null;
  description: string;
  /** Absolute URL of the page's own address. */
  canonical: string;
  /** og:type: `product` on product pages. */
  type: 'website' | 'product';
  image: { url: string; width: number; height: number; alt: string } | null;
  /** Whole rupees, for `product:price:amount`. */
  price: number | null;
  /** True on pages that no search engine should list (search results, a shopper's own pages). */
  noindex: boolean;
  jsonLd: WithContext<Thing>[];
  /**
   * The pictures the page's first screen shows (its LCP among them), fetched with the app's code
   * instead of after it has run: the product's main picture, a category's first four cards (a
   * phone's first screen; the largest-painted of equal cards can be any, by a subpixel). The first
   * is fetched at high priority.
   */
  preloadImages?: { href: string; srcset?: string | undefined; sizes?: string | undefined }[];
  /**
   * The preloaded pictures painted in the HTML itself too, laid out where the app will show them
   * (a product's gallery picture, or a category's first cards): they paint with the HTML, before
   * the app's code has arrived (`renderShellPicture`).
   */
  shellPicture?: 'gallery' | 'cards' | null;
  /** The order seed the page's lists start with on a first visit (`domain/visit-order.ts`). */
  visitSeed?: number | null;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON for a `<script type="application/ld+json">` element. The HTML parser
 * ends a script at `</script` whatever the JSON means, and `<!--` changes how
 * it reads the rest, so every `<` (and `>`, `&`) is written as its JSON escape;
 * U+2028/U+2029 are escaped for old JavaScript parsers that read such blocks.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const meta = (attr: 'name' | 'property', key: string, content: string) =>
  `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;

/** The head's elements, one per line, ready to go where the shell's title was. */
export function renderHead(head: PageHead): string {
  const title = pageTitle(head.title, head.site.name);
  const ogTitle = head.title?.trim() || head.site.name;
  const lines = [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'application-name', head.site.name),
    meta('name', 'apple-mobile-web-app-title', head.site.shortName),
    `<link rel="apple-touch-icon" href="${escapeHtml(head.site.touchIcon)}" />`,
  ];
  for (const [i, image] of (head.preloadImages ?? []).entries()) {
    const set = image.srcset
      ? ` imagesrcset="${escapeHtml(image.srcset)}" imagesizes="${escapeHtml(image.sizes ?? '100vw')}"`
      : '';
    const priority = i === 0 ? ' fetchpriority="high"' : '';
    lines.push(`<link rel="preload" as="image" href="${escapeHtml(image.href)}"${set}${priority} />`);
  }
  if (head.visitSeed) lines.push(meta('name', 'visit-seed', String(head.visitSeed)));
  lines.push(
    meta('name', 'description', head.description),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
  );
  if (head.noindex) lines.push(meta('name', 'robots', 'noindex'));
  lines.push(
    meta('property', 'og:site_name', head.site.name),
    meta('property', 'og:locale', 'en_IN'),
    meta('property', 'og:type', head.type),
    meta('property', 'og:url', head.canonical),
    meta('property', 'og:title', ogTitle),
    meta('property', 'og:description', head.description),
  );
  if (head.image) {
    lines.push(
      meta('property', 'og:image', head.image.url),
      meta('property', 'og:image:width', String(head.image.width)),
      meta('property', 'og:image:height', String(head.image.height)),
      meta('property', 'og:image:alt', head.image.alt),
    );
  }
  lines.push(
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', ogTitle),
    meta('name', 'twitter:description', head.description),
  );
  if (head.image) lines.push(meta('name', 'twitter:image', head.image.url));
  if (head.price !== null) {
    lines.push(
      meta('property', 'product:price:amount', String(head.price)),
      meta('property', 'product:price:currency', 'INR'),
    );
  }
  for (const data of head.jsonLd)
    lines.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  return lines.join('\n    ');
}

/**
 * The page's first pictures inside `#root` (`shellPicture`), as the app will place them on a
 * phone: a product's gallery picture (square, the screen's width), or a category's first cards
 * (square, two to a row). On a slow link the shopper sees them while the app's code downloads,
 * and the app's first render replaces them. Hidden from assistive technology, as the header's
 * outline is: the app's page names them.
 */
export function renderShellPicture(head: PageHead): string {
  const images = (head.preloadImages ?? []).filter((image) => image.href);
  if (!head.shellPicture || !images.length) return '';
  const img = (image: (typeof images)[number], size: number) => {
    const set = image.srcset
      ? ` srcset="${escapeHtml(image.srcset)}" sizes="${escapeHtml(image.sizes ?? '100vw')}"`
      : '';
    return `<img class="shell-media" src="${escapeHtml(image.href)}"${set} width="${size}" height="${size}" alt="" fetchpriority="high" decoding="async">`;
  };
  const inside =
    head.shellPicture === 'gallery'
      ? img(images[0] as (typeof images)[number], 640)
      : `<ul class="shell-cards">${images.map((image) => `<li>${img(image, 320)}</li>`).join('')}</ul>`;
  return `<div class="shell-main" aria-hidden="true">${inside}</div>`;
}
