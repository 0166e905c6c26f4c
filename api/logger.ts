/**
 * The server's logger options by mode (api/server.ts passes them to buildApp).
 *
 * - production and test: pino's JSON lines on stdout, one object per line, for a
 *   log collector to parse.
 * - development (`npm run dev`): the same records through `pino-pretty` (a
 *   devDependency, run as a pino transport in a worker thread), one readable,
 *   coloured line each, so a contributor can read the log.
 *
 * Both keep the rule of api/accounts/README.md: no secret (code, token,
 * password) is logged. Fastify's request serializer logs method, URL and
 * addresses, never headers or bodies; the redaction below is a second guard in
 * case a log call ever passes a request's headers.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

export function loggerOptions(
  mode: Config['mode'],
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const base = {
    level: 'info',
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
      censor: '[redacted]',
    },
  };
  if (mode !== 'development') return base;
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
    },
  };
}
