/**
 * Product descriptions are HTML written by admins and shown to every shopper,
 * so they are cleaned when saved: an allow-list of formatting tags and
 * attributes, links only to http(s) and mail, no scripts, styles, frames,
 * forms or event handlers (no attribute outside the list survives, so no
 * `on*`). The browser cleans again before it shows them (defence in depth).
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'small',
    'mark',
    'sub',
    'sup',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Dropped with their content: what they contain is code or chrome, never description text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
  transformTags: {
    // A link that opens a new tab must not hand the shop's window to the other site.
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }),
  },
};

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

const NO_MARKUP: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: OPTIONS.nonTextTags ?? [],
};
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * Plain text the owner writes (the policies) with every tag taken out, and the rest left as
 * typed ("a < b", "Tom & Jerry"): the sanitizer escapes what it keeps, so that is undone, and
 * cleaned again until nothing changes (an escaped tag typed as `&lt;script&gt;` is a tag once
 * unescaped, and goes too).
 */
export function sanitizePlainText(text: string): string {
  let current = text;
  for (let i = 0; i < 5; i++) {
    const next = sanitizeHtml(current, NO_MARKUP).replace(
      /&(?:amp|lt|gt|quot|#39);/g,
      (e) => ENTITIES[e] ?? e,
    );
    if (next === current) return next;
    current = next;
  }
  return current.replace(/[<>]/g, '');
}
