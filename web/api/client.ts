import ky, { type KyInstance } from 'ky';
import { API_BASE, type Endpoint, type InputOf, type ResponseOf } from '../../domain/contract.js';
import type { Envelope } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { storedToken } from '../../sw/session.js';
import { sessionLapsed } from '../../sw/session-writes.js';

/**
 * The browser's one HTTP client, built from the same `domain/*.contract.ts`
 * entries as the server's routes (method, path, parameters), so the two
 * cannot drift. The storefront screens never call it: they read the device.
 * Screens that need the network (accounts, checkout, admin) use `call()`.
 *
 * Failures keep the spec's envelope: a non-2xx answer throws `ApiError`
 * carrying the server's `sys_message` (a text meant for the shopper) and the
 * truthful status; a network failure throws `ApiError` with status 0.
 *
 * A 401 to a call that carried the session's token ends the session here, in
 * one place (`sessionLapsed`: the app then says so and goes to /login, coming
 * back afterwards); the error is still thrown, marked `sessionEnded`, so the
 * screen stops and says nothing more. A 401 to a call without a token (a
 * wrong password at login) is only that call's answer.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly envelope: Envelope<unknown> | null,
    readonly sessionEnded = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get offline(): boolean {
    return this.status === 0;
  }
}

/** What to tell the user of a failed call: the server's own words when it answered, else `fallback` (no answer). */
export function serverMessageOr(err: unknown, fallback: string): string {
  return err instanceof ApiError && !err.offline ? err.message : fallback;
}

export interface CallInput<E extends Endpoint> {
  params?: InputOf<E['params']>;
  query?: InputOf<E['query']>;
  body?: InputOf<E['body']> | FormData;
  /** Bearer token; by default the spec's stored `token`. `null` sends none. */
  token?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `false`: a 401 is this call's own answer (logout handles an already ended session itself). */
  endSessionOn401?: boolean;
}

/** A client for an API base: the shop's own `/api` in the browser, an absolute URL in tests and tools. */
export function createClient(base: string = API_BASE): KyInstance {
  return ky.create({
    prefixUrl: base,
    timeout: 15_000,
    throwHttpErrors: false,
    // Only reads are retried: repeating a POST could do it twice (orders carry their own idempotency key).
    retry: { limit: 1, methods: ['get'] },
  });
}

let shared: KyInstance | null = null;
function sharedClient(): KyInstance {
  if (!shared) shared = createClient();
  return shared;
}

/** `/ABCGetProducts/{id}` with `{ id: 5 }` gives `ABCGetProducts/5` (ky's prefixUrl wants no leading slash). */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new TypeError(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  return filled.replace(/^\//, '');
}

function searchParams(query: unknown): URLSearchParams | undefined {
  if (!query || typeof query !== 'object') return undefined;
  const out = new URLSearchParams();
  for (const [k, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) out.append(k, String(item));
    else out.set(k, String(value));
  }
  return out;
}

function isEnvelope(x: unknown): x is Envelope<unknown> {
  return typeof x === 'object' && x !== null && 'isSuccess' in x;
}

export async function call<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E> = {},
  http: KyInstance = sharedClient(),
): Promise<Envelope<ResponseOf<E>>> {
  return (await exchange(endpoint, input, http, null)).envelope;
}

/**
 * A read that the server may answer "not modified": sends `If-None-Match: etag` and gives null
 * on a 304, else the envelope with the answer's ETag for the next time. Open screens poll
 * with it (the order page, My Orders), so an unchanged answer costs no body.
 */
export async function callRevalidated<E extends Endpoint>(
  endpoint: E,
  etag: string | null,
  input: CallInput<E> = {},
  http: KyInstance = sharedClient(),
): Promise<{ envelope: Envelope<ResponseOf<E>>; etag: string | null } | null> {
  const answer = await exchange(endpoint, input, http, etag);
  return answer.notModified ? null : { envelope: answer.envelope, etag: answer.etag };
}

type Exchanged<E extends Endpoint> =
  | { notModified: true; envelope: never; etag: null }
  | { notModified: false; envelope: Envelope<ResponseOf<E>>; etag: string | null };

async function exchange<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  http: KyInstance,
  etag: string | null,
): Promise<Exchanged<E>> {
  const token = input.token === undefined ? storedToken() : input.token;
  const headers: Record<string, string> = { ...input.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (etag) headers['if-none-match'] = etag;
  const body = input.body;
  let res: Response;
  try {
    res = await http(fillPath(endpoint.path, input.params as Record<string, unknown> | undefined), {
      method: endpoint.method,
      headers,
      searchParams: searchParams(input.query),
      ...(body instanceof FormData ? { body } : body !== undefined ? { json: body } : {}),
      signal: input.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(messages.somethingWentWrongTryAgain, 0, null);
  }
  if (etag && res.status === 304) return { notModified: true, envelope: undefined as never, etag: null };
  let payload: unknown = null;
  try {
    payload = await res.json();
  } catch {
    // A proxy's HTML error page or an empty body: keep the status, say it plainly.
  }
  if (res.ok && isEnvelope(payload))
    return {
      notModified: false,
      envelope: payload as Envelope<ResponseOf<E>>,
      etag: res.headers.get('etag'),
    };
  const envelope = isEnvelope(payload) ? payload : null;
  // Only the session still stored ends: a token refused after a new login (another tab) is old news.
  const lapsed =
    res.status === 401 && Boolean(token) && token === storedToken() && input.endSessionOn401 !== false;
  if (lapsed) {
    const here = globalThis.location
      ? `${globalThis.location.pathname}${globalThis.location.search}`
      : undefined;
    await sessionLapsed(here);
  }
  throw new ApiError(
    envelope?.sys_message || messages.somethingWentWrongTryAgain,
    res.status,
    envelope,
    lapsed,
  );
}
