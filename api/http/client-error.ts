/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an over-long
 * URL or header: 431; bytes that are not HTTP: 400; a request that took too long
 * to arrive: 408) are answered here, on the socket, in the spec's envelope like
 * every other answer: Fastify's default writes its own `{"error":…}` body.
 * The answer carries nosniff and no-store like the rest of the API, and closes
 * the connection (the parser's state is lost).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../domain/envelope.js';

const REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The address or the headers of the request are too long.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};
const NOT_READABLE: [number, string] = [400, 'The request could not be read.'];

export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer (Node's documentation says as much).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = (err.code && REFUSALS[err.code]) || NOT_READABLE;
  this.log.debug({ code: err.code, status }, 'request refused by the HTTP parser');
  const body = JSON.stringify(fail(message));
  if (socket.writable) {
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  // end() flushes the answer and then closes; destroy only what could not be written to.
  else socket.destroy(err);
}
