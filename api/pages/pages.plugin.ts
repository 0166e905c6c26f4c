import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { socialProfiles } from '../../domain/shop-contact.js';
import { currentVersion } from '../catalogue/catalogue.repository.js';
import { EncodedLargeTexts, pickEncoding } from './encoded.js';
import { requestOrigin } from './origin.js';
import { PageCache } from './page-cache.js';
import { type Page, resolvePage } from './pages.js';
import { sitemapCategories, sitemapProducts } from './pages.repository.js';
import { buildSitemaps, robotsTxt, type Sitemaps, sitemapItems } from './sitemap.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The head and status of a page of the app at this request's address (`web.ts` writes it into the shell). */
    describePage(request: FastifyRequest): Promise<Page>;
  }
}

/**
 * What search engines and link previews read: each page's head (through
 * `describePage`, which the shell's handler in `plugins/web.ts` calls),
 * /robots.txt and /sitemap.xml. Rules in `api/pages/README.md`.
 */
export default fp(
  async (app: FastifyInstance, opts: { env?: Record<string, string | undefined> } = {}) => {
    const cache = new PageCache(app.db);
    // The same settings the build bakes into the footer's links, read once at start.
    const sameAs = socialProfiles(opts.env ?? process.env).map((p) => p.url);
    const originOf = (request: FastifyRequest) => requestOrigin(app.config.publicUrl, request);

    app.decorate('describePage', async (request: FastifyRequest) => {
      const origin = originOf(request);
      const [pathname = '/', search = ''] = request.url.split('?', 2);
      await cache.refresh();
      return resolvePage(pathname, new URLSearchParams(search), {
        abs: (path) => `${origin}${path}`,
        cache,
        sameAs,
      });
    });

    app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(robotsTxt(`${originOf(request)}/sitemap.xml`)),
    );

    /*
     * Sitemaps are made from the database for one catalogue version and one
     * origin, and kept until the version changes (any process's write is seen
     * on the next request: the version is read each time). The ETag names both,
     * so an unchanged catalogue costs a crawler one one-row query and a 304.
     */
    let made = { version: -1, byOrigin: new Map<string, Promise<Sitemaps>>() };
    const sitemapsFor = async (request: FastifyRequest, reply: FastifyReply) => {
      const origin = originOf(request);
      const version = await currentVersion(app.db);
      const etag = `"sitemap-v${version}-${createHash('sha256').update(origin).digest('base64url').slice(0, 12)}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return null;
      if (version > made.version) made = { version, byOrigin: new Map() };
      let built = version === made.version ? made.byOrigin.get(origin) : undefined;
      if (!built) {
        const abs = (path: string) => `${origin}${path}`;
        built = Promise.all([sitemapProducts(app.db), sitemapCategories(app.db)]).then(
          ([products, categories]) => buildSitemaps(sitemapItems(products, categories, abs), abs),
        );
        if (version === made.version) {
          // Bounded: a request may name any Host when PUBLIC_URL is unset.
          if (made.byOrigin.size >= 8) made.byOrigin.clear();
          made.byOrigin.set(origin, built);
          built.catch(() => made.byOrigin.delete(origin));
        }
      }
      return built;
    };

    // A sitemap is the same bytes until the catalogue changes: compressed once, not per request.
    const encoded = new EncodedLargeTexts();
    const sendXml = async (request: FastifyRequest, reply: FastifyReply, xml: string) => {
      reply.type('application/xml; charset=utf-8').header('vary', 'accept-encoding');
      const encoding = pickEncoding(request.headers['accept-encoding'], xml.length);
      if (!encoding) return reply.send(xml);
      return reply.header('content-encoding', encoding).send(await encoded.encode(xml, encoding));
    };

    app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
      const sitemaps = await sitemapsFor(request, reply);
      if (!sitemaps) return reply.code(304).send();
      return sendXml(request, reply, sitemaps.root);
    });

    app.get<{ Params: { part: string } }>(
      '/sitemap-:part.xml',
      { schema: { hide: true } },
      async (request, reply) => {
        const n = /^\d{1,6}$/.test(request.params.part) ? Number(request.params.part) : 0;
        const sitemaps = await sitemapsFor(request, reply);
        if (!sitemaps) return reply.code(304).send();
        const part = sitemaps.parts[n - 1];
        if (!part) return reply.code(404).removeHeader('etag').type('text/plain').send('Not found');
        return sendXml(request, reply, part);
      },
    );
  },
  { name: 'pages', dependencies: ['database'] },
);

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
