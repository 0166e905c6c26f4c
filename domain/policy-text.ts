/**
 * The policies' text format, and its one renderer to HTML. The owner writes plain text (a textarea
 * on Settings → Policies), so the format is what people already type in a mail:
 * - a blank line starts a new paragraph; a single line break stays a line break;
 * - lines starting "- " are a list;
 * - a line starting "## " is a heading;
 * - **bold**;
 * - links are written bare: an https:// address, or an email address.
 *
 * The renderer escapes every character of the text itself and makes only the tags above, so no
 * text can carry markup that runs; the server also cleans what it stores (api/settings). Only
 * https and mailto links are ever made: a `javascript:` address stays words.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

// An https address up to a space or an angle bracket; an email address. Trailing punctuation is the sentence's.
const LINK = /https:\/\/[^\s<>"]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** Where a link stands while bold is applied: a control character, dropped from any text first. */
const MARK = '\u0001';
const TRAILING = /[.,;:!?)\]'*]+$/;

function bold(escaped: string): string {
  return escaped.replace(/\*\*(?=\S)(.+?)\*\*/g, '<strong>$1</strong>');
}

/** One line's inline formatting: links first (so "**" inside an address stays in it), then bold around them. */
export function renderInline(text: string): string {
  const links: string[] = [];
  let marked = '';
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    const link = m[0].replace(TRAILING, '');
    if (link === 'https://' || !link) continue;
    const href = link.startsWith('https://') ? link : `mailto:${link}`;
    links.push(`<a href="${escapeHtml(href)}">${escapeHtml(link)}</a>`);
    // A placeholder keeps the link out of the bold pass; it cannot be in the text (policyBlocks drops it).
    marked += `${escapeHtml(text.slice(at, m.index))}${MARK}`;
    at = m.index + link.length;
  }
  marked += escapeHtml(text.slice(at));
  let i = 0;
  return bold(marked).replaceAll(MARK, () => links[i++] ?? '');
}

type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'para'; lines: string[] };

/** The text's blocks: headings, lists and paragraphs, in order. */
export function policyBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const rawLine of text.replace(/\r\n?/g, '\n').replaceAll(MARK, '').split('\n')) {
    const line = rawLine.trimEnd();
    if (!line.trim()) {
      close();
      continue;
    }
    const heading = /^\s*##+\s+(.*)$/.exec(line);
    if (heading) {
      close();
      blocks.push({ kind: 'heading', text: heading[1] ?? '' });
      continue;
    }
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item) {
      if (current?.kind !== 'list') {
        close();
        current = { kind: 'list', items: [] };
      }
      current.items.push(item[1] ?? '');
      continue;
    }
    if (current?.kind === 'list') {
      // A line under an item, not starting "- ", continues that item.
      const last = current.items.length - 1;
      current.items[last] = `${current.items[last]} ${line.trim()}`;
      continue;
    }
    if (current?.kind !== 'para') {
      close();
      current = { kind: 'para', lines: [] };
    }
    current.lines.push(line.trim());
  }
  close();
  return blocks;
}

/** The text as HTML: `<h2>`, `<ul><li>`, `<p>` (with `<br>`), `<strong>` and `<a href>` only, every character escaped. */
export function renderPolicy(text: string): string {
  return policyBlocks(text)
    .map((b) => {
      if (b.kind === 'heading') return `<h2>${renderInline(b.text)}</h2>`;
      if (b.kind === 'list') return `<ul>${b.items.map((i) => `<li>${renderInline(i)}</li>`).join('')}</ul>`;
      return `<p>${b.lines.map(renderInline).join('<br>')}</p>`;
    })
    .join('\n');
}

/** The text's first paragraph as one line (a page's description when the owner wrote the text). */
export function policySummary(text: string): string {
  const first = policyBlocks(text).find((b) => b.kind === 'para');
  return first?.kind === 'para' ? first.lines.join(' ').replace(/\*\*/g, '') : '';
}
