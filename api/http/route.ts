import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type * as v from 'valibot';
import { API_BASE, type Endpoint, type OutputOf, type ResponseOf } from '../../domain/contract.js';
import type { Envelope } from '../../domain/envelope.js';
import { parseWith } from '../../domain/validation.js';
import { badRequest } from './errors.js';

/**
 * Registers a Fastify route from a `domain/` contract entry: the same path,
 * method, access rule and valibot schemas the browser's client uses. Input is
 * validated with valibot (so messages are the spec's own, not ajv's); the
 * schemas are also turned into JSON Schema for the OpenAPI description at
 * `/api/docs`. Handlers receive typed input and return the envelope.
 */
export interface RouteContext<E extends Endpoint> {
  query: OutputOf<E['query']>;
  body: OutputOf<E['body']>;
  params: OutputOf<E['params']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<E extends Endpoint> = (ctx: RouteContext<E>) => Promise<Envelope<ResponseOf<E>>>;

/**
 * `route()` types a declared schema's output as possibly undefined (the
 * contract's fields are optional); when the endpoint declares the schema the
 * value is always there. This narrows it, loudly if that ever breaks.
 */
export function given<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('route() gave no value for a declared schema');
  return value;
}

export function fastifyPath(specPath: string): string {
  return API_BASE + specPath.replace(/\{(\w+)\}/g, ':$1');
}

// biome-ignore lint/suspicious/noExplicitAny: any valibot schema can be described for the docs.
function jsonSchema(schema: v.GenericSchema<any, any> | undefined) {
  return schema ? toJsonSchema(schema, { errorMode: 'ignore' }) : undefined;
}

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/**
 * PostgreSQL refuses a NUL inside text (a 500 if it reached the query) while SQLite stores it, so
 * no endpoint accepts one: the same input gets the same 400 on both databases.
 */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || hasNul(item, depth + 1)) return true;
  }
  return false;
}

function validate<S>(schema: S, input: unknown): OutputOf<S> {
  if (!schema) return undefined as OutputOf<S>;
  // valibot's object schemas take an array as an object (typeof 'object'), so `[]` would pass
  // a form whose fields are all optional: an array where an object belongs fails the object check.
  const root = (schema as unknown as { type?: string }).type ?? '';
  // No body at all is an empty form; a JSON `null` is a value, and not an object.
  const given = Array.isArray(input) && OBJECT_TYPES.has(root) ? '' : input === undefined ? {} : input;
  const result = parseWith(schema as unknown as v.GenericSchema, given);
  if (!result.ok) throw badRequest(result.message, result.field ? { field: result.field } : null);
  // After the schema, so a field's own message (which names it) wins where a schema checks text.
  if (hasNul(given)) throw badRequest('Text may not contain NUL characters.');
  return result.value as OutputOf<S>;
}

export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: Handler<E>,
  options: Pick<RouteShorthandOptions, 'bodyLimit' | 'config'> & { bodyDescription?: string } = {},
): void {
  const preHandler =
    endpoint.access === 'admin' ? [app.requireAdmin] : endpoint.access === 'user' ? [app.authenticate] : [];
  app.route({
    method: endpoint.method,
    url: fastifyPath(endpoint.path),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.config ? { config: options.config } : {}),
    schema: {
      summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.access !== 'public' ? { security: [{ bearer: [] }] } : {}),
      ...(endpoint.query ? { querystring: jsonSchema(endpoint.query) } : {}),
      ...(endpoint.params ? { params: jsonSchema(endpoint.params) } : {}),
      ...(endpoint.body ? { body: jsonSchema(endpoint.body) } : {}),
      ...(options.bodyDescription ? { description: options.bodyDescription } : {}),
    },
    preHandler,
    handler: async (request, reply) => {
      const ctx: RouteContext<E> = {
        params: validate(endpoint.params, request.params),
        query: validate(endpoint.query, request.query),
        body: validate(endpoint.body, request.body),
        request,
        reply,
      };
      return handler(ctx);
    },
  });
}
