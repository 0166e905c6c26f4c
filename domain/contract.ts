import type * as v from 'valibot';

/**
 * One typed contract between client and server. Each endpoint's method, path,
 * access and valibot schemas are declared once here (in `<feature>.contract.ts`
 * files); the Fastify route (`api/http/route.ts`) and the browser's ky call
 * (`web/api/client.ts`) are both built from the same entry, so they cannot drift.
 *
 * Paths are relative to the API base `/api`, written as the spec writes them
 * (`/ABCGetProducts/{id}`).
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Access = 'public' | 'user' | 'admin';

// biome-ignore lint/suspicious/noExplicitAny: a schema of any input; the output type is what matters.
type AnySchema = v.GenericSchema<any, any>;

export interface Endpoint<
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  P extends AnySchema | undefined = AnySchema | undefined,
  R = unknown,
> {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: Q;
  body?: B;
  params?: P;
  /** Phantom: the type of `data` in a successful envelope. Never set at run time. */
  readonly response?: R;
}

export type OutputOf<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
export type InputOf<S> = S extends AnySchema ? v.InferInput<S> : undefined;
export type ResponseOf<E> =
  E extends Endpoint<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, infer R>
    ? R
    : never;

/** Declares an endpoint with its response type: `endpoint<Product[]>()({...})`. */
export function endpoint<R>() {
  return <
    Q extends AnySchema | undefined = undefined,
    B extends AnySchema | undefined = undefined,
    P extends AnySchema | undefined = undefined,
  >(
    e: Omit<Endpoint<Q, B, P, R>, 'response'>,
  ): Endpoint<Q, B, P, R> => e;
}

/** The API base: every endpoint lives under it on the shop's own origin. */
export const API_BASE = '/api';
