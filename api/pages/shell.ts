/**
 * The built `index.html`, split once at start around the place where each
 * page's head goes: the shell's own `<title>`, `<meta name="description">` and the build's
 * shop names (`application-name`, `apple-mobile-web-app-title`) and touch icon are taken out (a page gets
 * its own, from the shop's profile), and the made head is written where the
 * title was; a page's main picture may go inside `#root`, after the header's outline (the
 * shell's `<!--shell-main-->`). A page's HTML is then `before + head + middle + picture +
 * after`: string joins, no parsing per request.
 */
import path from 'node:path';
import { API_BASE } from '../../domain/contract.js';

export interface SplitShell {
  before: string;
  /** From the head's end to the place in `#root` where a page's own first picture may go. */
  middle: string;
  /** After that place; null for a shell without one (no picture is written then). */
  after: string | null;
}

/** An address under the API: never a page, whatever it names (an unknown one gets the envelope's 404). */
export function isApiPath(pathname: string): boolean {
  return pathname === API_BASE || pathname.startsWith(`${API_BASE}/`);
}

/** An address the server answers with a page's HTML when nothing else has it: no file extension, not the API. */
export function isPagePath(pathname: string): boolean {
  return !path.extname(pathname) && !isApiPath(pathname);
}

/** Where, inside `#root` after the header's outline, a page's picture goes (`web/index.html`). */
const MAIN = '<!--shell-main-->';

const TITLE = /<title>[\s\S]*?<\/title>\s*/i;
const DESCRIPTION = /<meta\s+name=["']description["'][^>]*>\s*/i;
const NAMES = /<meta\s+name=["'](?:application-name|apple-mobile-web-app-title)["'][^>]*>\s*/gi;
const TOUCH_ICON = /<link\s+rel=["']apple-touch-icon["'][^>]*>\s*/gi;

export function splitShell(html: string): SplitShell {
  const headEnd = html.search(/<\/head>/i);
  if (headEnd < 0) throw new Error('index.html has no </head>: the server cannot write page heads into it');
  let head = html.slice(0, headEnd);
  const rest = html.slice(headEnd);
  head = head.replace(DESCRIPTION, '').replace(NAMES, '').replace(TOUCH_ICON, '');
  const title = head.match(TITLE);
  const [before, tail] =
    title?.index !== undefined
      ? [head.slice(0, title.index), head.slice(title.index + title[0].length) + rest]
      : [`${head.trimEnd()}\n    `, `\n  ${rest}`];
  const at = tail.indexOf(MAIN);
  return at < 0
    ? { before, middle: tail, after: null }
    : { before, middle: tail.slice(0, at), after: tail.slice(at + MAIN.length) };
}

/** A page: the shell with its head, and `main` (a page's first picture, `shellPicture`) inside `#root`. */
export function joinShell(shell: SplitShell, head: string, main = ''): string {
  const rest = shell.after === null ? '' : `${main}${shell.after}`;
  return `${shell.before}${head}\n    ${shell.middle}${rest}`;
}
