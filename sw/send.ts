/**
 * One POST of the senders (the outbox's orders and photos, the request queue's asks): with the
 * account's token and the Idempotency-Key, never from an HTTP cache, within the env's timeout. Any
 * failure to get an answer is status 0: nothing definite happened, and the same key goes again.
 */
import type { Answer } from '../domain/outbox.js';

export interface SendEnv {
  fetch: typeof fetch;
  /** The API base: `/api` on the shop's origin (absolute in tests). */
  base: string;
  timeoutMs: number;
}

export async function postWithKey(
  env: SendEnv,
  path: string,
  key: string,
  token: string,
  init: { headers?: Record<string, string>; body?: BodyInit },
): Promise<Answer> {
  try {
    const res = await env.fetch(`${env.base}${path}`, {
      method: 'POST',
      headers: { ...init.headers, authorization: `Bearer ${token}`, 'idempotency-key': key },
      body: init.body,
      signal: AbortSignal.timeout(env.timeoutMs),
      // Never an HTTP cache's answer; the order must reach the server.
      cache: 'no-store',
    });
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // A proxy's page or a cut body: the status alone decides (a 2xx without our envelope is retried).
    }
    return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
  } catch {
    // Network failure, reset, timeout: nothing definite happened; the same key goes again.
    return { status: 0, body: null, retryAfter: null };
  }
}
