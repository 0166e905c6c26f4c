/**
 * One typed contract between client and server. Each endpoint's method, path,
 * access and valibot schemas are declared once here (in `<feature>.contract.ts`
 * files); the Fastify route (`api/http/route.ts`) and the browser's ky call
 * (`web/api/client.ts`) are both built from the same entry, so they cannot drift.
 *
 * Paths are relative to the API base `/api`, written as the spec writes them
 * (`/ABCGetProducts/{id}`).
 */
import type * as v from 'valibot';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Access = 'public' | 'user' | 'admin';

// biome-ignore lint/suspicious/noExplicitAny: a schema of any input; the output type is what matters.
type AnySchema = v.GenericSchema<any, any>;

export interface Endpoint<
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  P extends AnySchema | undefined = AnySchema | undefined,
  R extends AnySchema = AnySchema,
> {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: Q;
  body?: B;
  params?: P;
  /**
   * The schema of `data` in a successful answer. The server serializes its answers through it
   * (a field it does not name never leaves), `/api/docs` describes it, and the client's type of
   * the answer is inferred from it.
   */
  response: R;
  /**
   * The media type of a successful answer that is a file streamed as it is (a backup archive),
   * not the envelope. Refusals still answer the envelope.
   */
  download?: string;
  /** The status of a successful answer, when it is not 200 (201 for a created thing, 202 for accepted). */
  status?: 200 | 201 | 202;
  /**
   * Fields the envelope carries beside `data` for the spec's old client (`discountAmount`,
   * `message`), on success and refusal alike.
   */
  envelopeExtra?: v.ObjectEntries;
  /**
   * The 4xx answers beyond those its shape implies (400 for input, 401 and 403 for access, 404
   * for an id in the path): a 401, 403 or 404 of its own (a public login's wrong password), 409 conflicts, 410 a link
   * that has expired, 413 too large, 422 a reused idempotency key, 429 rate limits.
   */
  refusals?: readonly (401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429)[];
}

export type OutputOf<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
export type InputOf<S> = S extends AnySchema ? v.InferInput<S> : undefined;
/** The type of `data` in an endpoint's successful answer, inferred from its response schema. */
export type ResponseOf<E> = E extends { response: infer R extends AnySchema } ? v.InferOutput<R> : never;

/** Declares an endpoint: `endpoint({ method, path, ..., response: v.array(ProductSchema) })`. */
export function endpoint<
  R extends AnySchema,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
  P extends AnySchema | undefined = undefined,
>(e: Endpoint<Q, B, P, R>): Endpoint<Q, B, P, R> {
  return e;
}

/** The API base: every endpoint lives under it on the shop's own origin. */
export const API_BASE = '/api';
