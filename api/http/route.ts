/**
 * Registers a Fastify route from a `domain/` contract entry: the same path,
 * method, access rule and valibot schemas the browser's client uses. Input is
 * validated with valibot (so messages are the spec's own, not ajv's); the
 * schemas are also turned into JSON Schema for the OpenAPI description at
 * `/api/docs`. Handlers receive typed input and return the envelope, which
 * Fastify serializes from the JSON Schema of the envelope with the contract's
 * `response` (fast-json-stringify): faster than JSON.stringify, and a field the
 * schema does not name (a database column, a secret) never leaves the server.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type * as v from 'valibot';
import { operationIdOf } from '../../domain/api.contract.js';
import { API_BASE, type Endpoint, type OutputOf, type ResponseOf } from '../../domain/contract.js';
import type { Envelope } from '../../domain/envelope.js';
import { parseWith } from '../../domain/validation.js';
import { badRequest } from './errors.js';

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

type JsonSchema = Record<string, unknown>;

/**
 * A valibot schema as JSON Schema 2020-12 (what OpenAPI 3.1 speaks). An answer's schema is its
 * output side; a request's is described by to-json-schema's default, which reads through
 * transforms (a form that accepts either case of its keys shows its canonical fields).
 */
// biome-ignore lint/suspicious/noExplicitAny: any valibot schema can be described.
function jsonSchema(schema: v.GenericSchema<any, any>, side: 'request' | 'answer' = 'request'): JsonSchema {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    errorMode: 'ignore',
    target: 'draft-2020-12',
    ...(side === 'answer' ? { typeMode: 'output' as const } : {}),
  }) as JsonSchema;
  return simpleNullable(rest) as JsonSchema;
}

/**
 * valibot's `nullable(x)` becomes `anyOf: [x, {type: 'null'}]`; for a plain type this writes it
 * as `type: [x, 'null']`, which says the same: fast-json-stringify serializes an `anyOf` by
 * running a validator on every value to pick its branch, a type list by a `typeof` check.
 */
function simpleNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simpleNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, value] of Object.entries(node)) out[k] = simpleNullable(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2) {
    const other = anyOf.find((s) => s.type !== 'null');
    const hasNull = anyOf.some((s) => s.type === 'null' && Object.keys(s).length === 1);
    if (
      hasNull &&
      other &&
      typeof other.type === 'string' &&
      other.type !== 'object' &&
      other.type !== 'array'
    ) {
      const { anyOf: _, ...siblings } = out;
      const merged: JsonSchema = { ...siblings, ...other, type: [other.type, 'null'] };
      if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
      return merged;
    }
  }
  return out;
}

/** What a status means, as the OpenAPI description says it. */
const REFUSALS: Record<number, string> = {
  400: 'The request is not valid (sys_message says why; data may name the field)',
  401: 'No token, or the session has ended',
  403: 'The token is not allowed here',
  404: 'Not found',
  409: 'Conflicts with the current state (data says how)',
  410: 'Gone: it existed, and has expired',
  413: 'Too large',
  415: 'The content type is not accepted here',
  422: 'Understood but refused as asked (sys_message says why; data may name the rule): an idempotency key used for another request, a gift the order cannot carry, a photo that cannot be read',
  429: 'Too many attempts (Retry-After says when to try again)',
};

/**
 * The 4xx answers an endpoint can give, from what it declares: input (400), a token (401), the
 * admin role (403), an id in its path (404), and the refusals its contract names.
 */
export function refusalsOf(endpoint: Endpoint): number[] {
  const codes = new Set<number>([400, ...(endpoint.refusals ?? [])]);
  // Any request that may carry a body can send one too large or of a type the server does not
  // read, and Fastify refuses it before the handler, even where the route reads no body (a DELETE).
  if (endpoint.body || endpoint.method !== 'GET') for (const code of [413, 415]) codes.add(code);
  if (endpoint.access !== 'public') codes.add(401);
  if (endpoint.access === 'admin') codes.add(403);
  if (endpoint.path.includes('{')) codes.add(404);
  return [...codes].sort();
}

const cachedResponses = new WeakMap<Endpoint, Record<string, JsonSchema>>();

/**
 * The JSON Schema of every answer of an endpoint: the envelope with its success `data`, and the
 * envelope of its refusals (whose `data` is null or says what was refused, so it is left open).
 * Made once per endpoint: every app built in a test process shares it.
 */
export function responseSchemas(endpoint: Endpoint): Record<string, JsonSchema> {
  const cached = cachedResponses.get(endpoint);
  if (cached) return cached;
  const extra = Object.fromEntries(
    Object.entries(endpoint.envelopeExtra ?? {}).map(([k, s]) => [k, jsonSchema(s, 'answer')]),
  );
  const envelope = (data: JsonSchema, isSuccess: boolean, description: string, required: string[]) => ({
    description,
    type: 'object',
    required: ['isSuccess', 'data', 'sys_message', ...required],
    properties: {
      isSuccess: { type: 'boolean', const: isSuccess },
      data,
      sys_message: { type: 'string' },
      ...extra,
    },
  });
  const out: Record<string, JsonSchema> = {
    [endpoint.status ?? 200]: endpoint.download
      ? // A file, streamed as it is: Fastify serializes no stream, the description names its type.
        {
          description: 'The file',
          content: { [endpoint.download]: { schema: { type: 'string', format: 'binary' } } },
        }
      : envelope(jsonSchema(endpoint.response, 'answer'), true, 'Success', Object.keys(extra)),
  };
  // The refusal's data is whatever the refusal carries ({field}, a pricing conflict, null).
  const refusal = { description: 'null, or what the refusal is about' };
  for (const code of refusalsOf(endpoint))
    out[code] = envelope(refusal, false, REFUSALS[code] ?? 'Refused', []);
  cachedResponses.set(endpoint, out);
  return out;
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

type RouteOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'config'> & { bodyDescription?: string };

export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: Handler<E>,
  options: RouteOptions = {},
): void {
  register(app, endpoint, handler, options);
}

/** A file to stream as the answer of a `download` endpoint. */
export interface Download {
  stream: NodeJS.ReadableStream;
  size: number;
  /** The name the browser saves it under. */
  filename: string;
}

/**
 * Registers a contract's `download` endpoint: the same access rule and input validation as
 * `route()`, and a success that is the file itself (refusals keep the envelope).
 */
export function downloadRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (ctx: RouteContext<E>) => Promise<Download>,
  options: RouteOptions = {},
): void {
  const type = endpoint.download;
  if (!type) throw new Error(`${endpoint.method} ${endpoint.path} declares no download type`);
  register(
    app,
    endpoint,
    async (ctx) => {
      const file = await handler(ctx);
      return ctx.reply
        .type(type)
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`)
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
    options,
  );
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (ctx: RouteContext<E>) => Promise<unknown>,
  options: RouteOptions,
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
      operationId: operationIdOf(endpoint),
      // A public operation says so with no requirement at all (OpenAPI's `[]`).
      security: endpoint.access !== 'public' ? [{ bearer: [] }] : [],
      response: responseSchemas(endpoint),
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
