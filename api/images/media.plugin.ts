import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MEDIA_PREFIX, mediaDirOf } from './images.js';

/**
 * Serves image variants at `/media/<stem>-<width>.webp`. A file's name never
 * changes its content (a new upload gets a new generated name), so browsers and
 * CDNs may keep it for a year without asking again.
 */
export default async function media(app: FastifyInstance): Promise<void> {
  const root = mediaDirOf(app.config.dataDir);
  mkdirSync(root, { recursive: true });
  await app.register(fastifyStatic, {
    root,
    prefix: MEDIA_PREFIX,
    // The web plugin registers @fastify/static too; only one may decorate the reply.
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    // "public, max-age=31536000, immutable"
    maxAge: 365 * 24 * 60 * 60 * 1000,
    immutable: true,
  });
}
