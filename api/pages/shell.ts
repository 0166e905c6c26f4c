/**
 * The built `index.html`, split once at start around the place where each
 * page's head goes: the shell's own `<title>`, `<meta name="description">` and the build's
 * shop names (`application-name`, `apple-mobile-web-app-title`) and touch icon are taken out (a page gets
 * its own, from the shop's profile), and the made head is written where the
 * title was. A page's HTML is then `before + head + after`: two string joins,
 * no parsing per request.
 */
export interface SplitShell {
  before: string;
  after: string;
}

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
  if (title?.index !== undefined) {
    return { before: head.slice(0, title.index), after: head.slice(title.index + title[0].length) + rest };
  }
  return { before: `${head.trimEnd()}\n    `, after: `\n  ${rest}` };
}

export function joinShell(shell: SplitShell, head: string): string {
  return `${shell.before}${head}\n    ${shell.after}`;
}
