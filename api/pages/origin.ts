/**
 * The origin every absolute URL the server writes starts with: page heads (canonical, og:url,
 * og:image, JSON-LD), robots.txt, the sitemap, the mailing list's links. One rule:
 * - `PUBLIC_URL` when set (production sets it; `npm start` warns when it is not);
 * - else the request's Host (as Fastify reads it: `X-Forwarded-Host`/`-Proto` count only from a
 *   `TRUST_PROXY` proxy) when `ALLOWED_HOSTS` lists it, by default `localhost` and the listening
 *   address, each with the port listened on;
 * - else the listening address.
 * So a stranger's Host is never written into a page, a mail or a shared cache, and the origins a
 * process writes are a short list it knows, which is what lets the sitemap be made once.
 */
import type { FastifyRequest } from 'fastify';

/**
 * The settings the rule reads, as `Config` has them. Written out rather than picked from
 * `Config`: `config.ts` checks ALLOWED_HOSTS with `isHost` from here, and this module importing
 * it back would make a cycle.
 */
export interface OriginSettings {
  publicUrl: string | null;
  allowedHosts: string[] | null;
  host: string;
  port: number;
}

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Binding to every interface: the address a connection reached is then the socket's own. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]', '::0']);

/** A Host value as a URL has it (lower case, no default port), or null when it is not a host. */
function normalHost(protocol: string, value: string): string | null {
  if (!HOST.test(value)) return null;
  try {
    return new URL(`${protocol}://${value}`).host;
  } catch {
    return null;
  }
}

/** A host name, IPv4 address or bracketed IPv6 address, with an optional port (ALLOWED_HOSTS' entries). */
export function isHost(value: string): boolean {
  return normalHost('http', value) !== null;
}

/**
 * The address this request reached the server on: HOST when the server is bound to one address,
 * else the connection's local address (`localhost` when there is no socket, under `inject`), and
 * the port really listened on (PORT may be 0).
 */
function listening(settings: OriginSettings, request: FastifyRequest): { name: string; port: number } {
  const socket = request.raw.socket as { localAddress?: string; localPort?: number } | undefined;
  const bound = request.server.server.address();
  const port = socket?.localPort ?? (bound && typeof bound === 'object' ? bound.port : settings.port);
  let name = settings.host;
  if (EVERY_INTERFACE.has(name)) name = socket?.localAddress?.replace(/^::ffff:/, '') ?? 'localhost';
  if (name.includes(':') && !name.startsWith('[')) name = `[${name}]`;
  // A name a URL cannot hold (an IPv6 zone, say) is not worth a broken address.
  return { name: normalHost('http', `${name}:${port}`) ? name : 'localhost', port };
}

export function requestOrigin(settings: OriginSettings, request: FastifyRequest): string {
  if (settings.publicUrl) return settings.publicUrl;
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  const { name, port } = listening(settings, request);
  const own = `${name}:${port}`;
  const asked = normalHost(protocol, request.host);
  const allowed = settings.allowedHosts ?? [`localhost:${port}`, own];
  const host =
    asked !== null && allowed.some((h) => normalHost(protocol, h) === asked)
      ? asked
      : (normalHost(protocol, own) ?? `localhost:${port}`);
  return `${protocol}://${host}`;
}
