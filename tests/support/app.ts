import type { IncomingMessage } from 'node:http';
import type {
  FastifyInstance,
  FastifyServerOptions,
  LightMyRequestResponse as InjectResponse,
} from 'fastify';
import * as v from 'valibot';
import { type AppOptions, buildApp } from '../../api/app.js';
import { type Config, loadConfig } from '../../api/config.js';
import type { Db, Dialect } from '../../api/db/database.js';
import { fastifyPath, refusalsOf } from '../../api/http/route.js';
import { allEndpoints } from '../../domain/api.contract.js';
import type { Endpoint } from '../../domain/contract.js';
import { openTestDb } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

/** Settings for tests: nothing from the developer's environment leaks in. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/storefront-test-data',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    SEED_DEMO: 'false',
    WEB_DIR: '/nonexistent-web-dir',
  });
  return { ...base, ...overrides };
}

/** The whole app on a fresh database of the given dialect (with a logger when a test reads the log). */
export async function makeTestApp(
  dialect: Dialect,
  overrides: Partial<Config> = {},
  options: { logger?: FastifyServerOptions['logger']; push?: AppOptions['push'] } = {},
): Promise<TestApp> {
  const db = await openTestDb(dialect);
  // The server's defaults: images in the folder on SQLite, in the database on PostgreSQL.
  const config = testConfig({ mediaStore: dialect === 'postgres' ? 'database' : 'folder', ...overrides });
  const app = await buildTestApp({
    config,
    db,
    logger: options.logger,
    ...(options.push ? { push: options.push } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

/**
 * `buildApp` for tests: the same app, with every answer it gives to `inject` checked against its
 * endpoint's contract (`checkAnswers`). Not yet ready, so a test may add its own routes.
 */
export async function buildTestApp(options: AppOptions): Promise<FastifyInstance> {
  const app = await buildApp(options);
  checkAnswers(app);
  return app;
}

const byRoute = new Map<string, { endpoint: Endpoint; operationId: string }>(
  allEndpoints().map((e) => [`${e.endpoint.method} ${fastifyPath(e.endpoint.path)}`, e]),
);

/** Which endpoint answered a request (by Fastify's route, so `/posts/:id` is one), if any. */
const answeredBy = new WeakMap<IncomingMessage, { endpoint: Endpoint; operationId: string }>();
/** What the handler returned that its schema does not allow, before serialization hid it. */
const beforeSerialization = new WeakMap<IncomingMessage, string>();

/**
 * Every API test checks every answer it gets, here and nowhere else: an answer of a contract's
 * endpoint must be the envelope (`isSuccess`, `data`, `sys_message`, and the extra fields its
 * contract names, nothing more), a success must have the contract's status and its `data` must
 * be valid under the contract's response schema with no field the schema does not name, and a
 * refusal must be one of the 4xx statuses `/api/docs` lists for it. What the handler returned is
 * checked too, before fast-json-stringify writes it: serializing through a schema would turn a
 * `null` in a text field into `""` and in a number into 0, and the written answer would pass.
 * A failed check throws from `inject`, so the test whose request drifted fails, naming it.
 */
export function checkAnswers(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const found = byRoute.get(`${request.method} ${request.routeOptions.url}`);
    if (found) answeredBy.set(request.raw, found);
  });
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const found = answeredBy.get(request.raw);
    const data = (payload as { isSuccess?: unknown; data?: unknown } | null)?.data;
    if (found && (payload as { isSuccess?: unknown } | null)?.isSuccess === true) {
      const problem = schemaProblem(found.endpoint.response, data);
      if (problem) beforeSerialization.set(request.raw, problem);
    }
    return payload;
  });
  const inject = app.inject.bind(app);
  const checked = async (...args: unknown[]) => {
    // Only the promise form is used by the tests; the chain and callback forms pass through.
    if (args.length !== 1 || args[0] === undefined) return (inject as (...a: unknown[]) => unknown)(...args);
    const res = await (inject as (o: unknown) => Promise<InjectResponse>)(args[0]);
    const problem = answerProblem(res);
    if (problem) {
      const req = res.raw.req as IncomingMessage;
      throw new Error(`${req.method} ${req.url} answered ${res.statusCode} outside its contract: ${problem}`);
    }
    return res;
  };
  (app as unknown as { inject: typeof checked }).inject = checked;
}

function answerProblem(res: InjectResponse): string | null {
  const req = res.raw.req as IncomingMessage;
  const found = answeredBy.get(req);
  if (!found) return null; // not a contract's endpoint (health, docs, media, pages)
  const early = beforeSerialization.get(req);
  if (early) return `the handler's data, before serialization: ${early}`;
  const { endpoint } = found;
  if (res.statusCode === 304 || res.statusCode >= 500) return null; // no body; a failure of ours is its test's business
  // A download's success is the file itself, of the type its contract names; its refusals are envelopes.
  if (endpoint.download && res.statusCode < 400) {
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode !== (endpoint.status ?? 200)) return `a success answers ${endpoint.status ?? 200}`;
    return type.startsWith(endpoint.download)
      ? null
      : `a download answered ${type}, not ${endpoint.download}`;
  }
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `not JSON: ${res.body.slice(0, 200)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an envelope';
  const envelope = body as Record<string, unknown>;
  const allowed = new Set(['isSuccess', 'data', 'sys_message', ...Object.keys(endpoint.envelopeExtra ?? {})]);
  const missing = ['isSuccess', 'data', 'sys_message'].filter((k) => !(k in envelope));
  const unknown = Object.keys(envelope).filter((k) => !allowed.has(k));
  if (missing.length || unknown.length)
    return `envelope fields missing: [${missing.join(', ')}], unknown: [${unknown.join(', ')}]`;
  if (typeof envelope.sys_message !== 'string') return 'sys_message is not text';
  for (const [k, schema] of Object.entries(endpoint.envelopeExtra ?? {})) {
    if (k in envelope && !v.is(schema, envelope[k])) return `envelope field ${k} does not match its schema`;
  }
  if (res.statusCode < 400) {
    const status = endpoint.status ?? 200;
    if (res.statusCode !== status) return `a success answers ${status}`;
    if (envelope.isSuccess !== true) return 'isSuccess is not true on a success';
    return schemaProblem(endpoint.response, envelope.data);
  }
  if (envelope.isSuccess !== false) return 'isSuccess is not false on a refusal';
  const listed = refusalsOf(endpoint);
  return listed.includes(res.statusCode)
    ? null
    : `a refusal it does not document (it lists ${listed.join(', ')})`;
}

// biome-ignore lint/suspicious/noExplicitAny: any response schema.
type AnySchema = v.GenericSchema<any, any>;

/** Why `value` is not what `schema` describes (valibot's issues, and any field it does not name), or null. */
function schemaProblem(schema: AnySchema, value: unknown): string | null {
  const result = v.safeParse(schema, value);
  if (!result.success) {
    return result.issues
      .slice(0, 5)
      .map((i) => `${v.getDotPath(i) ?? '(data)'}: ${i.message}`)
      .join('; ');
  }
  const extra = unnamedFields(schema, value, 'data');
  return extra.length ? `fields the schema does not name: ${extra.slice(0, 10).join(', ')}` : null;
}

/** Paths of object fields in `value` that `schema` has no entry for (valibot's objects drop them silently). */
function unnamedFields(schema: AnySchema, value: unknown, at: string): string[] {
  const s = schema as unknown as {
    type: string;
    entries?: Record<string, AnySchema>;
    item?: AnySchema;
    wrapped?: AnySchema;
  };
  if (value === null || value === undefined) return [];
  if (s.wrapped) return unnamedFields(s.wrapped, value, at);
  if (s.type === 'array' && s.item && Array.isArray(value))
    return value.flatMap((item, i) => unnamedFields(s.item as AnySchema, item, `${at}[${i}]`));
  if (s.type === 'object' && s.entries && typeof value === 'object') {
    const entries = s.entries;
    return Object.entries(value).flatMap(([k, item]) =>
      entries[k] ? unnamedFields(entries[k], item, `${at}.${k}`) : [`${at}.${k}`],
    );
  }
  return [];
}

let userCounter = 0;

/**
 * A user row and a real session token for it, for tests of routes that need
 * one. The password hash is not a usable hash: these users never log in with
 * a password (the accounts tests create theirs through the endpoints).
 */
export async function createUserWithToken(
  app: FastifyInstance,
  fields: { email?: string; role?: string; name?: string; phone?: string } = {},
): Promise<{ id: number; email: string; token: string; auth: { authorization: string } }> {
  userCounter += 1;
  const now = Date.now();
  const email = fields.email ?? `user${userCounter}-${now}@example.test`;
  const row = await app.db
    .insertInto('users')
    .values({
      name: fields.name ?? 'Test User',
      email,
      phone: fields.phone ?? '9876543210',
      password_hash: '!test-only',
      address: '',
      role: fields.role ?? '0',
      verified: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await app.sessions.issue({ id: row.id, email, role: fields.role ?? '0' });
  return { id: row.id, email, token, auth: { authorization: `Bearer ${token}` } };
}
