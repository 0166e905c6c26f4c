/** Conditional reads: an answer's ETag checked against the request's If-None-Match, and the 304. */
import type { FastifyReply } from 'fastify';

/** Whether `If-None-Match` names this ETag (weak or strong, or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * Ends the request with 304 and no body. Fastify's documented way for an async handler that has
 * sent its own reply is to return the reply object; the handler's envelope type does not
 * describe that, hence the cast.
 */
export function notModified(reply: FastifyReply): never {
  reply.code(304).send();
  return reply as never;
}
