import type { FastifyRequest } from 'fastify';

/**
 * The origin that absolute URLs (canonical, og:url, og:image, the sitemap) start
 * with: `PUBLIC_URL` when set, else the request's own (protocol and host as
 * Fastify reads them: `X-Forwarded-Proto`/`-Host` count only from a proxy that
 * `TRUST_PROXY` trusts). A Host header that is not a host name falls back to
 * localhost rather than being copied into the page: without PUBLIC_URL, what a
 * shared cache keeps is only as good as the Host it was asked with, which is
 * why production sets PUBLIC_URL.
 */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestOrigin(publicUrl: string | null, request: FastifyRequest): string {
  if (publicUrl) return publicUrl;
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  const host = HOST.test(request.host) ? request.host : 'localhost';
  // Through URL so that one page has one address: "http://shop:80" is "http://shop".
  return new URL(`${protocol}://${host}`).origin;
}
