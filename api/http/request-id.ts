import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that names a request, accepted from a proxy or client and returned on every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A request's id: the `X-Request-Id` it came with, so one request can be followed from the load
 * balancer through the logs of whichever process served it, or a new UUID. A header value that is
 * not a short plain token (letters, digits, `.`, `_`, `-`, `:`, at most 128) is not taken: it goes
 * into every log line of the request, and a crafted one must not forge lines or fill them.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}
