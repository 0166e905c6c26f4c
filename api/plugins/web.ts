import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../../domain/envelope.js';
import { EncodedPages, pickEncoding } from '../pages/encoded.js';
import { renderHead, renderShellPicture } from '../pages/head.js';
import { ScreenPreloads } from '../pages/preload.js';
import { ScreenShells } from '../pages/screen-shells.js';
import { isApiPath, isPagePath, joinShell, splitShell } from '../pages/shell.js';

/**
 * Serves the built PWA beside the API. Hashed assets are cached for a year;
 * the shell, the manifest and the service worker are always revalidated so a
 * new build reaches the shopper. Unknown paths outside `/api` are page routes
 * of the app and get the shell; unknown paths under `/api` get the envelope.
 * The build writes `.br`/`.gz` beside each text asset (vite.config.ts), so the
 * best encoding the browser accepts is sent as is: smaller than compressing on
 * each request at a fast level, and no CPU spent per request.
 *
 * A page route gets the shell with a head made for its address (title,
 * description, canonical, Open Graph, JSON-LD: `api/pages/`), because link
 * previews and crawlers run no script; a missing product or category is a 404
 * with the same shell, whose app shows its own not-found page. The shell is
 * read and split once at start; `/index.html` itself (what the service worker
 * precaches) stays the plain file. A lazy screen's address also names that
 * screen's code for the browser to fetch at once (`api/pages/preload.ts`), and a screen with no
 * data of its own is in the HTML as the app will render it (`api/pages/screen-shells.ts`).
 */
export default fp(
  async (app: FastifyInstance, opts: { webDir: string }) => {
    const indexFile = path.join(opts.webDir, 'index.html');
    const hasWeb = existsSync(indexFile);
    const shell = hasWeb ? splitShell(readFileSync(indexFile, 'utf8')) : null;
    const preloads = ScreenPreloads.read(opts.webDir);
    const screens = ScreenShells.read(opts.webDir, preloads);
    const encoded = new EncodedPages();

    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.webDir,
        prefix: '/',
        wildcard: false,
        // The server writes the manifest from the shop's profile (api/pages/manifest.ts); a build's
        // own (an older build still in the folder) would be a second route for the same address.
        globIgnore: ['manifest.webmanifest*'],
        index: false,
        preCompressed: true,
        // `send` would write its own cache-control over the one set below.
        cacheControl: false,
        setHeaders(res, filePath) {
          // With preCompressed the path may be the `.br`/`.gz` sibling; the rules go by the asset.
          const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
          res.setHeader('vary', 'accept-encoding');
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.setHeader('cache-control', 'no-cache');
          }
          if (name === 'sw.js') res.setHeader('service-worker-allowed', '/');
        },
      });
    }

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (isApiPath(pathname)) {
        return reply.code(404).send(fail(`No endpoint ${request.method} ${pathname}.`));
      }
      // A path with a file extension is a missing asset, not a page route.
      if (shell && (request.method === 'GET' || request.method === 'HEAD') && isPagePath(pathname)) {
        let page: Awaited<ReturnType<typeof app.describePage>>;
        try {
          page = await app.describePage(request);
        } catch (err) {
          // The app runs from the device and its own API calls: without the database, the shopper
          // still gets the plain shell rather than an error page.
          request.log.error({ err }, 'page head: the catalogue could not be read; sending the plain shell');
          return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
        }
        const links = preloads.forPath(pathname);
        const html = joinShell(
          shell,
          links ? `${renderHead(page.head)}\n    ${links}` : renderHead(page.head),
          renderShellPicture(page.head) || (page.status === 200 ? screens.forPath(pathname) : ''),
        );
        reply
          .code(page.status)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('vary', 'accept-encoding');
        const encoding = pickEncoding(request.headers['accept-encoding'], html.length);
        if (!encoding) return reply.send(html);
        return reply.header('content-encoding', encoding).send(encoded.encode(html, encoding));
      }
      return reply.code(404).type('text/plain').send('Not found');
    });
  },
  { name: 'web', dependencies: ['errors', 'pages'] },
);
