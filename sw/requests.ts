/**
 * The request queue: what a shopper asks about a placed order (a cancel, for now; complaints and
 * reviews later), kept on the device under its own Idempotency-Key until the server answers. It
 * is sent by the outbox's own pass (`sendDue` in `outbox.ts`: under its Web Lock, after the
 * orders, with the same back-off, sign-in wait and Background Sync tag), by the worker and by the
 * page's sender alike. The answers' rules are `domain/requests.ts`.
 *
 * Each row belongs to its account (`isOwnedBy`): only that account's session sends it, and only
 * that account's screens see it. Logout keeps a waiting row, hidden, as it keeps a queued order.
 * A done request leaves the queue; a cancel's answer (the order as it is now) becomes the order
 * page's copy in the same transaction, so the page shows it cancelled, with its refund.
 */
import type { ShopperOrder } from '../domain/order-tracking.js';
import { backoffMs } from '../domain/outbox.js';
import { isOwnedBy } from '../domain/ownership.js';
import { classifyRequestAnswer, type RequestKind } from '../domain/requests.js';
import type { ShopDatabase } from './db.js';
import type { RequestRow, SessionRow } from './db-rows.js';
import { postWithKey, type SendEnv } from './send.js';

export interface RequestEnv extends SendEnv {
  db: ShopDatabase;
  now(): number;
  random(): number;
}

/**
 * Asks to cancel an order: one waiting request per order and account (pressing again while one
 * waits changes nothing). Returns the waiting row.
 */
export async function queueCancel(
  db: ShopDatabase,
  userId: number,
  orderID: number,
  key: string,
  now: number,
): Promise<RequestRow> {
  return db.transaction('rw', db.requests, async () => {
    const waiting = await waitingRequest(db, userId, orderID);
    if (waiting) return waiting;
    const row: RequestRow = {
      key,
      userId,
      kind: 'cancel',
      orderID,
      state: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      problem: null,
      refusedToken: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.requests.add(row);
    return row;
  });
}

/** The account's request about an order that still waits (to be sent, or for the shopper), if any. */
export async function waitingRequest(
  db: ShopDatabase,
  userId: number | null | undefined,
  orderID: number,
): Promise<RequestRow | null> {
  return (await accountRequests(db, userId)).find((r) => r.orderID === orderID) ?? null;
}

/** The account's waiting requests (its My Orders shows them by order); another account's: none. */
export async function accountRequests(
  db: ShopDatabase,
  userId: number | null | undefined,
): Promise<RequestRow[]> {
  const rows = await db.requests
    .where('userId')
    .equals(userId ?? 0)
    .toArray();
  return rows.filter((r) => isOwnedBy(r, userId));
}

/** The shopper has read a refusal: the request leaves the queue. Only the account's own. */
export async function dismissRequest(db: ShopDatabase, userId: number, key: string): Promise<void> {
  await db.transaction('rw', db.requests, async () => {
    const row = await db.requests.get(key);
    if (row?.state === 'attention' && row.problem?.kind === 'refused' && isOwnedBy(row, userId))
      await db.requests.delete(key);
  });
}

const PATHS: Record<RequestKind, (orderID: number) => string> = {
  cancel: (id) => `/my-orders/${id}/cancel`,
};

/**
 * Sends the due requests of the signed-in account, oldest first (part of the outbox's pass, under
 * its lock). `force`: whatever the back-off says (the network just came back). A network failure
 * ends the pass: the rest wait with their back-off.
 */
export async function sendRequests(
  env: RequestEnv,
  session: SessionRow | null,
  options: { force?: boolean } = {},
): Promise<void> {
  const rows = (await env.db.requests.toArray()).sort((a, b) => a.createdAt - b.createdAt);
  for (const stored of rows) {
    const now = env.now();
    let row = stored;
    if (!session || !isOwnedBy(row, session.userId)) continue;
    // A 401 waited for a sign-in: another token of the same account takes it on.
    if (row.state === 'attention' && row.problem?.kind === 'signin' && row.refusedToken !== session.token)
      row = await patch(env, row, { state: 'queued', problem: null, refusedToken: null, attempts: 0 });
    if (row.state !== 'queued' || (!options.force && row.nextAttemptAt > now)) continue;
    const answer = await postWithKey(env, PATHS[row.kind](row.orderID), row.key, session.token, {});
    const outcome = classifyRequestAnswer(answer, env.now());
    if (outcome.kind === 'done') {
      await settle(env, row, outcome.data);
    } else if (outcome.kind === 'retry') {
      const attempts = row.attempts + 1;
      await patch(env, row, {
        attempts,
        nextAttemptAt: env.now() + (outcome.afterMs ?? backoffMs(attempts, env.random())),
        lastError: answer.status ? String(answer.status) : 'network',
      });
      if (outcome.transport) return;
    } else {
      await patch(env, row, {
        state: 'attention',
        problem: outcome.problem,
        refusedToken: outcome.problem.kind === 'signin' ? session.token : null,
      });
    }
  }
}

/** When the earliest queued request is due, or null when none is queued. */
export async function nextRequestAt(db: ShopDatabase): Promise<number | null> {
  const queued = await db.requests.where('state').equals('queued').toArray();
  return queued.length ? Math.min(...queued.map((r) => r.nextAttemptAt)) : null;
}

async function patch(env: RequestEnv, row: RequestRow, change: Partial<RequestRow>): Promise<RequestRow> {
  const next = { ...row, ...change, updatedAt: env.now() };
  await env.db.requests.put(next);
  return next;
}

/** Done: out of the queue, and the order as the server answered it becomes the page's copy. */
async function settle(env: RequestEnv, row: RequestRow, data: unknown): Promise<void> {
  await env.db.transaction('rw', env.db.requests, env.db.orderDetails, async () => {
    await env.db.requests.delete(row.key);
    const order = data as ShopperOrder | null;
    if (order && typeof order === 'object' && order.orderID === row.orderID)
      await keepOrderCopy(env.db, row.userId, order, env.now());
  });
}

/** An order as the server answered a request about it becomes its order page's copy (as a fetch would). */
export async function keepOrderCopy(
  db: ShopDatabase,
  userId: number,
  order: ShopperOrder,
  now: number,
): Promise<void> {
  await db.orderDetails.put({ orderID: order.orderID, userId, order, fetchedAt: now, etag: null });
}

export type { RequestRow };
