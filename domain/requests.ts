/**
 * The request queue's rules, pure: how each answer to what a shopper asks about a placed order (a
 * cancel, `POST /my-orders/{id}/cancel`) is handled. The device's sender (`sw/requests.ts`) applies
 * them in the outbox's own pass; the tests drive them answer by answer.
 * - a 2xx is done (a cancel sent twice finds the order cancelled: the same answer);
 * - a network failure, a 5xx or a 429 is sent again later with the same key, with the outbox's
 *   back-off (Retry-After when the server gives one);
 * - a 401 waits for a sign-in of the same account, then continues;
 * - any other 4xx waits for the shopper with the server's reason (the shop confirmed the order
 *   meanwhile, so it can no longer be cancelled): said plainly, never retried.
 */
import { retryAfterMs } from './outbox.js';

/** What a shopper asks of a placed order while offline. */
export type RequestKind = 'cancel';

export interface RequestProblem {
  kind: 'signin' | 'refused';
  status: number;
  message: string;
  data: unknown;
}

export type RequestOutcome =
  | { kind: 'done'; data: unknown }
  | { kind: 'retry'; afterMs: number | null; transport: boolean }
  | { kind: 'attention'; problem: RequestProblem };

export function classifyRequestAnswer(
  answer: { status: number; body: unknown; retryAfter: string | null },
  now: number,
): RequestOutcome {
  const { status } = answer;
  const envelope = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    isSuccess?: unknown;
    data?: unknown;
    sys_message?: unknown;
  };
  if (status === 0) return { kind: 'retry', afterMs: null, transport: true };
  if (status >= 200 && status < 300) {
    // A 2xx that is not our envelope (a captive portal's page) did nothing we know of: ask again.
    if (envelope.isSuccess === true) return { kind: 'done', data: envelope.data ?? null };
    return { kind: 'retry', afterMs: null, transport: true };
  }
  if (status === 429 || status >= 500)
    return { kind: 'retry', afterMs: retryAfterMs(answer.retryAfter, now), transport: status === 429 };
  const message = typeof envelope.sys_message === 'string' ? envelope.sys_message : '';
  return {
    kind: 'attention',
    problem: { kind: status === 401 ? 'signin' : 'refused', status, message, data: envelope.data ?? null },
  };
}
