/**
 * A first visit to a screen other than home (a shared product link, a search, the login a guard
 * sent the shopper to) waits for that screen's lazy code, which the app could only ask for once
 * its own code had loaded and started: one more round trip on a slow link before anything shows.
 * The page's HTML names that code instead (`<link rel="modulepreload">`, its stylesheets as
 * `preload`, in a `<template id="screen-code">` the shell's start moves into the head as it starts
 * the app's code), so it downloads beside the app's. Visits the service worker answers are not
 * concerned: it serves the plain shell and has the code already.
 *
 * Which module renders an address is the app's route table (web/app/routes.tsx); these are its
 * lazy screens worth starting early, by the module's path in Vite's manifest. A browser test
 * checks that every link names code the page then loads (tests/e2e/link-previews.test.ts).
 */
import { readBuildInfo } from './build-info.js';
import { escapeHtml } from './head.js';

const SCREENS: readonly [RegExp, string][] = [
  [/^\/products-details(\/[^/]+)?$/i, 'storefront/ProductDetails.tsx'],
  [/^\/(products-by-category|category)\/[^/]+$/i, 'storefront/CategoryProducts.tsx'],
  [/^\/products$/i, 'storefront/AllProducts.tsx'],
  [/^\/all-categories$/i, 'storefront/AllCategories.tsx'],
  [/^\/search$/i, 'storefront/Search.tsx'],
  [/^\/cart$/i, 'storefront/Cart.tsx'],
  [/^\/about-us$/i, 'storefront/AboutUs.tsx'],
  [/^\/contact$/i, 'storefront/Contact.tsx'],
  [/^\/login$/i, 'account/Login.tsx'],
  [/^\/register$/i, 'account/Register.tsx'],
];

/** The lazy screen's module that renders this path, if it is one of `SCREENS`. */
function screenAt(pathname: string): string | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return SCREENS.find(([pattern]) => pattern.test(clean))?.[1];
}

/** One chunk of Vite's build manifest (`build.manifest`), keyed by source path. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The links each screen's address gets; read once at start from the build. */
export class ScreenPreloads {
  private readonly links = new Map<string, string>();
  private readonly stylesheets = new Map<string, string[]>();

  constructor(private readonly manifest: Manifest) {
    // What the entry loads already (its own chunk and the ones it imports) is never named again.
    const entry = Object.values(manifest).find((c) => c.isEntry);
    const loaded = new Set(entry ? this.closure(entry) : []);
    for (const [, module] of SCREENS) {
      const chunk = manifest[module];
      if (!chunk) continue;
      const chunks = this.closure(chunk).filter((c) => !loaded.has(c));
      const scripts = chunks.map((c) => `<link rel="modulepreload" href="/${escapeHtml(c.file)}" />`);
      const css = [...new Set(chunks.flatMap((c) => c.css ?? []))];
      this.stylesheets.set(module, css);
      const styles = css.map((file) => `<link rel="preload" as="style" href="/${escapeHtml(file)}" />`);
      // Inert in a <template> until the shell's start (vite.config.ts, startAfterFirstPaint) puts them
      // into the head after the first paint, with the app's own code: fetched from the head at once,
      // they finished before that paint on a fast link and Lighthouse counted them in it.
      this.links.set(module, `<template id="screen-code">${[...scripts, ...styles].join('')}</template>`);
    }
  }

  /** The build's manifest in `webDir`, or none (a build without one preloads nothing). */
  static read(webDir: string): ScreenPreloads {
    return new ScreenPreloads(readBuildInfo<Manifest>(webDir, 'manifest.json', {}));
  }

  /** The `<link>` elements for the screen at this path ('' for home, the admin and paths without one). */
  forPath(pathname: string): string {
    const module = screenAt(pathname);
    return (module && this.links.get(module)) || '';
  }

  /** The build's stylesheets (files under the build's folder) of the screen at this path, less the entry's. */
  stylesheetsFor(pathname: string): string[] {
    const module = screenAt(pathname);
    return (module && this.stylesheets.get(module)) || [];
  }

  /** A chunk and every chunk it imports statically, each once, the chunk first. */
  private closure(start: ManifestChunk): ManifestChunk[] {
    const seen = new Set<ManifestChunk>();
    const visit = (chunk: ManifestChunk) => {
      if (seen.has(chunk)) return;
      seen.add(chunk);
      for (const key of chunk.imports ?? []) {
        const next = this.manifest[key];
        if (next) visit(next);
      }
    };
    visit(start);
    return [...seen];
  }
}
