import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { currentVersion } from '../catalogue/catalogue.repository.js';
import { EncodedLargeTexts, pickEncoding } from './encoded.js';
import { shopManifestRoutes } from './manifest.js';
import { requestOrigin } from './origin.js';
import { PageCache } from './page-cache.js';
import { type Page, resolvePage } from './pages.js';
import { sitemapCategories, sitemapProducts } from './pages.repository.js';
import { robotsTxt, type Sitemaps, SitemapTemplate } from './sitemap.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The head and status of a page of the app at this request's address (`web.ts` writes it into the shell). */
    describePage(request: FastifyRequest): Promise<Page>;
  }
}

/**
 * What search engines and link previews read: each page's head (through
 * `describePage`, which the shell's handler in `plugins/web.ts` calls),
 * /robots.txt, /sitemap.xml, and the web manifest with the icons made from
 * the shop's logo (`manifest.ts`). Rules in `api/pages/README.md`.
 */
export default fp(
  async (app: FastifyInstance) => {
    const cache = new PageCache(app.db, app.productLists);
    const originOf = (request: FastifyRequest) => requestOrigin(app.config, request);

    app.decorate('describePage', async (request: FastifyRequest) => {
      const origin = originOf(request);
      const [pathname = '/', search = ''] = request.url.split('?', 2);
      await cache.refresh();
      return resolvePage(pathname, new URLSearchParams(search), {
        abs: (path) => `${origin}${path}`,
        cache,
        shop: await cache.profile(),
      });
    });

    shopManifestRoutes(app, cache);

    app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(robotsTxt(`${originOf(request)}/sitemap.xml`)),
    );

    /*
     * The sitemap is made from the database once per catalogue version, with a stand-in origin,
     * and given each origin it is asked with by splicing (cheap: no query, no XML writing). The
     * origins are the few `requestOrigin` allows, so whatever Host a request names, one version
     * costs one build. Any process's write is seen on the next request: the version is read each
     * time. The ETag names version and origin, so an unchanged catalogue costs a crawler one
     * one-row query and a 304.
     */
    let made: {
      version: number;
      template: Promise<SitemapTemplate>;
      byOrigin: Map<string, Sitemaps>;
    } | null = null;
    const build = async (version: number) => {
      const started = Date.now();
      const [products, categories] = await Promise.all([sitemapProducts(app.db), sitemapCategories(app.db)]);
      const template = await SitemapTemplate.build(products, categories);
      app.log.info({ version, urls: template.urls, ms: Date.now() - started }, 'sitemap built');
      return template;
    };
    const sitemapsFor = async (request: FastifyRequest, reply: FastifyReply) => {
      const origin = originOf(request);
      const read = await currentVersion(app.db);
      if (!made || read > made.version) {
        const current = { version: read, template: build(read), byOrigin: new Map<string, Sitemaps>() };
        current.template.catch(() => {
          if (made === current) made = null;
        });
        made = current;
      }
      // A read older than one already seen (another process wrote meanwhile) gets the newer sitemap.
      const { version, template, byOrigin } = made;
      const etag = `"sitemap-v${version}-${createHash('sha256').update(origin).digest('base64url').slice(0, 12)}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return null;
      let sitemaps = byOrigin.get(origin);
      if (!sitemaps) {
        sitemaps = (await template).withOrigin(origin);
        // Bounded all the same (PUBLIC_URL, ALLOWED_HOSTS and the addresses listened on are few).
        if (byOrigin.size >= 8) byOrigin.clear();
        byOrigin.set(origin, sitemaps);
      }
      return sitemaps;
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
