import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Page HTML in the encoding the browser accepts, compressed once per distinct
 * page. The plain shell is sent from the build's precompressed files; a page
 * with its own head is a string made per request, and compressing it on each
 * one would cost more than making it. Entries are keyed by the HTML itself, so
 * a changed product (a new head) is simply another entry: nothing to clear.
 * Bounded: cleared whole when full (a crawler walking every product must not
 * grow it without end).
 */
export type Encoding = 'br' | 'gzip';

/** Below this, compressing saves less than it costs (the same threshold as @fastify/compress here). */
const THRESHOLD = 1024;

export class EncodedPages {
  readonly #entries = new Map<string, Partial<Record<Encoding, Buffer>>>();
  readonly #max: number;

  constructor(max = 256) {
    this.#max = max;
  }

  encode(html: string, encoding: Encoding): Buffer {
    let entry = this.#entries.get(html);
    if (!entry) {
      if (this.#entries.size >= this.#max) this.#entries.clear();
      entry = {};
      this.#entries.set(html, entry);
    }
    let body = entry[encoding];
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(html, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 9,
                [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html),
              },
            })
          : gzipSync(html, { level: 9 });
      entry[encoding] = body;
    }
    return body;
  }
}

/**
 * The same for large texts (the sitemap: megabytes at 50,000 products), compressed on libuv's
 * thread pool so the event loop keeps serving shoppers meanwhile, at a faster level. Kept per text,
 * few of them.
 */
export class EncodedLargeTexts {
  readonly #entries = new Map<string, Partial<Record<Encoding, Promise<Buffer>>>>();
  readonly #max: number;

  constructor(max = 8) {
    this.#max = max;
  }

  encode(text: string, encoding: Encoding): Promise<Buffer> {
    let entry = this.#entries.get(text);
    if (!entry) {
      if (this.#entries.size >= this.#max) this.#entries.clear();
      entry = {};
      this.#entries.set(text, entry);
    }
    let body = entry[encoding];
    if (!body) {
      body =
        encoding === 'br'
          ? brotliAsync(text, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 6,
                [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
              },
            })
          : gzipAsync(text, { level: 6 });
      entry[encoding] = body;
      const stored = entry;
      body.catch(() => {
        delete stored[encoding];
      });
    }
    return body;
  }
}

/** The best encoding an Accept-Encoding header allows (brotli first), or null for the plain text. */
export function pickEncoding(header: string | undefined, length: number): Encoding | null {
  if (!header || length < THRESHOLD) return null;
  const allowed = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isFinite(weight) && weight > 0) allowed.add(name.trim());
  }
  if (allowed.has('br') || allowed.has('*')) return 'br';
  if (allowed.has('gzip')) return 'gzip';
  return null;
}
