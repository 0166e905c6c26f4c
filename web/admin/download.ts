import type { Endpoint, InputOf } from '../../domain/contract.js';
import type { Envelope } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { storedToken } from '../../sw/session.js';
import { ApiError, createClient, fillPath } from '../api/client.js';

/**
 * A contract's `download` endpoint (a backup archive, a cake's photo) as a Blob: the same path and token as
 * `call()`, the file in place of the envelope, refusals as `ApiError` with the server's words.
 * An `<a href>` cannot carry the bearer token, so the screen saves the Blob itself. Here, not in
 * the shared client, so no byte of it reaches a shopper's bundle.
 */
export async function download<E extends Endpoint>(
  endpoint: E,
  params: InputOf<E['params']>,
  signal?: AbortSignal,
  query?: Record<string, string>,
  /** A JSON body (a backup's download carries the admin's password). */
  body?: InputOf<E['body']>,
): Promise<Blob> {
  const token = storedToken();
  let res: Response;
  try {
    // No timeout: a large archive on a slow line takes longer than a JSON answer.
    res = await createClient()(fillPath(endpoint.path, params as Record<string, unknown> | undefined), {
      method: endpoint.method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      timeout: false,
      signal,
      ...(query ? { searchParams: query } : {}),
      ...(body !== undefined ? { json: body } : {}),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(messages.somethingWentWrongTryAgain, 0, null);
  }
  if (res.ok) return res.blob();
  let envelope: Envelope<unknown> | null = null;
  try {
    const payload = (await res.json()) as Partial<Envelope<unknown>>;
    if (typeof payload === 'object' && payload !== null && 'isSuccess' in payload)
      envelope = payload as Envelope<unknown>;
  } catch {
    // Not an envelope (a proxy's page): the status says enough.
  }
  throw new ApiError(envelope?.sys_message || messages.somethingWentWrongTryAgain, res.status, envelope);
}
