import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../../domain/envelope.js';
import { MEDIA_PREFIX } from './images.js';
import { FolderMediaStore, type MediaStore, openMediaStore } from './media-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where product images are written and read (`MEDIA_STORE`: a folder or the database). */
    media: MediaStore;
  }
}

// "public, max-age=31536000, immutable": a name never changes its content (a new upload gets a
// new generated name), so browsers and CDNs may keep it for a year without asking again.
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const IMMUTABLE = `public, max-age=${YEAR_SECONDS}, immutable`;

/**
 * Decorates the app with its media store and serves the image variants at
 * `/media/<stem>-<width>.webp`, with the same URLs and cache headers from either store.
 */
export default fp(
  async (app: FastifyInstance) => {
    const store = openMediaStore(app.config.mediaStore, app.config.dataDir, app.db);
    app.decorate('media', store);

    if (store instanceof FolderMediaStore) {
      mkdirSync(store.dir, { recursive: true });
      await app.register(fastifyStatic, {
        root: store.dir,
        prefix: MEDIA_PREFIX,
        // The web plugin registers @fastify/static too; only one may decorate the reply.
        decorateReply: false,
        index: false,
        dotfiles: 'deny',
        maxAge: YEAR_SECONDS * 1000,
        immutable: true,
      });
      return;
    }

    // From the database: one row per variant, with the ETag stored beside it, so a revalidation
    // is answered without sending the picture again.
    app.get<{ Params: { name: string } }>(
      `${MEDIA_PREFIX}:name`,
      { schema: { hide: true } },
      async (request, reply) => {
        const item = await store.get(request.params.name);
        if (!item) return reply.code(404).send(fail('No such image.'));
        reply.header('cache-control', IMMUTABLE).header('etag', item.etag);
        if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(item.etag)) {
          return reply.code(304).send();
        }
        return reply.type(item.contentType).header('content-length', item.content.length).send(item.content);
      },
    );
  },
  { name: 'media', dependencies: ['database'] },
);
