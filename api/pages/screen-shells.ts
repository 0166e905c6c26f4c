/**
 * A screen that shows no data of its own (the login form) is in the page's HTML as the app will
 * render it: its markup, rendered by the build (`web/app/screen-shells.tsx`, into the build's
 * `.vite/screen-shells.json`), with the screen's stylesheet inline, goes inside `#root` after the
 * header's outline, where a product's picture goes on its page. It paints with the HTML on a first
 * visit, instead of after the app's code has downloaded and run; the app's first render replaces
 * it. Until then it is inert and hidden from assistive technology: its fields and links do nothing
 * yet, and the app's page names itself.
 * Visits the service worker answers get the plain shell: the code is on the device already.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBuildInfo } from './build-info.js';
import { ScreenPreloads } from './preload.js';

export class ScreenShells {
  /** Each shell whole, by its address: the screen's stylesheet inline, then its markup. */
  constructor(private readonly shells: Readonly<Record<string, string>>) {}

  /**
   * The build's shells in `webDir` (none for a build without them), each with the stylesheets its
   * screen's code brings (`ScreenPreloads`, from Vite's manifest): linked, they would arrive a round
   * trip after the HTML, and the form would paint unstyled and then move.
   */
  static read(webDir: string, preloads = ScreenPreloads.read(webDir)): ScreenShells {
    const markups = readBuildInfo<Record<string, string>>(webDir, 'screen-shells.json', {});
    const shells: Record<string, string> = {};
    for (const [address, markup] of Object.entries(markups)) {
      const css = preloads
        .stylesheetsFor(address)
        .map((file) => readFileSync(path.join(webDir, file), 'utf8'))
        .join('');
      // A relative url() would resolve against the page, and `</style` would end the element.
      if (css.includes('</style') || /url\(\s*(?!["']?data:)/.test(css))
        throw new Error(`the stylesheets of ${address}'s screen cannot be written inline in its shell`);
      shells[address] = `<style>${css}</style>${markup}`;
    }
    return new ScreenShells(shells);
  }

  /** Every shell's markup, one after the other (their inline stylesheets are hashed for the CSP). */
  markup(): string {
    return Object.values(this.shells).join('\n');
  }

  /** The shell for the screen at this path ('' for a path without one); paths match as the app's routes do. */
  forPath(pathname: string): string {
    const clean = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
    const markup = Object.hasOwn(this.shells, clean) ? this.shells[clean] : undefined;
    return markup ? `<div class="shell-screen" aria-hidden="true" inert>${markup}</div>` : '';
  }
}
