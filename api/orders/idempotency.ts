/**
 * The outbox protocol's server half (DESIGN.md, "Offline and local-first").
 * A key belongs to one user: (user_id, key) is the primary key, so another
 * user's identical key is simply another key. Only a successful answer is
 * stored, in the order's own transaction: a refusal (price changed, product
 * gone) leaves the key free, so the device can resend the corrected order
 * under the same key once the shopper agreed.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import { messages } from '../../domain/messages.js';
import { isIdempotencyKey } from '../../domain/orders.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { badRequest, HttpError } from '../http/errors.js';

type Db = Kysely<Database> | Transaction<Database>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Longer than any phone stays offline with an order in its outbox. */
export const KEY_RETENTION_MS = 30 * DAY_MS;

export interface StoredAnswer {
  requestHash: string;
  statusCode: number;
  response: string;
}

/** The header, or null when the client sent none (the spec's client: accepted, without replay protection). */
export function readIdempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isIdempotencyKey(raw.trim()))
    throw badRequest(messages.idempotencyKeyInvalid);
  return raw.trim().toLowerCase();
}

/** JSON with object keys sorted at every level, so the same order always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Checkout's proof of payment: not part of what an order asks for. The server places a paid order
 * from the request kept with its provider order (no proof in it), and the page's own `place-order`
 * for it, with the proof, is the same order. The proof is hashed as null, what a request without
 * it validates to, so the hash of every request without proof is what it always was.
 */
const PAYMENT_PROOF = ['RazorpayPaymentId', 'RazorpayOrderId', 'RazorpaySignature'] as const;

function withoutProof(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const rest: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of PAYMENT_PROOF) if (field in rest) rest[field] = null;
  return rest;
}

const hashOf = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** The order a request asks for, hashed: the payment proof counts as absent (`PAYMENT_PROOF`). */
export function requestHash(body: unknown): string {
  return hashOf(withoutProof(body));
}

/** The hash a paid order's answer stored before the proof was left out has: the whole body's. */
const wholeBodyHash = hashOf;

export async function findAnswer(db: Db, userId: number, key: string): Promise<StoredAnswer | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? { requestHash: row.request_hash, statusCode: row.status_code, response: row.response } : null;
}

/**
 * The stored answer when the body is the same; 422 when the key is reused for another order.
 * `body`, when given, also matches an answer stored under the whole body's hash (kept 30 days
 * from before the proof was left out of it).
 */
export function replay(stored: StoredAnswer, hash: string, body?: unknown): StoredAnswer {
  const same =
    stored.requestHash === hash || (body !== undefined && stored.requestHash === wholeBodyHash(body));
  if (!same) throw new HttpError(422, messages.idempotencyKeyReused, { reason: 'key-reused' });
  return stored;
}

export async function storeAnswer(
  db: Db,
  a: {
    userId: number;
    key: string;
    hash: string;
    orderId: number;
    statusCode: number;
    response: string;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({
      user_id: a.userId,
      key: a.key,
      request_hash: a.hash,
      order_id: a.orderId,
      status_code: a.statusCode,
      response: a.response,
      created_at: a.now,
    })
    .execute();
}

export async function deleteExpiredKeys(db: Db, now: number): Promise<number> {
  const res = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - KEY_RETENTION_MS)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * The one 409 a device should simply retry (after `Retry-After`): every other
 * 409 (prices changed, coupon used) waits for the shopper. `data.reason` tells them apart.
 */
export function inProgress(): HttpError {
  return new HttpError(409, messages.orderInProgress, { reason: 'in-progress' }, { 'retry-after': '1' });
}

/**
 * A request still running under this key, in this process: the in-memory set
 * answers at once, without waiting on the database. Across processes (only
 * PostgreSQL has several), `lockKeyInTransaction` does the same job.
 */
export class InFlight {
  private readonly running = new Set<string>();
  enter(userId: number, key: string): () => void {
    const slot = `${userId}:${key}`;
    if (this.running.has(slot)) throw inProgress();
    this.running.add(slot);
    return () => this.running.delete(slot);
  }
}

/** The advisory lock's two ints for (user, key). */
function keyLockIds(userId: number, key: string): [number, number] {
  return [userId, createHash('sha256').update(key).digest().readInt32BE(0)];
}

/** The advisory lock of (user, key), waited for as long as the transaction's `lock_timeout` allows. */
async function takeKeyLock(trx: Transaction<Database>, userId: number, key: string): Promise<void> {
  const [k1, k2] = keyLockIds(userId, key);
  await sql`select pg_advisory_xact_lock(${k1}::int, ${k2}::int)`.execute(trx);
}

/** How long the page's request waits for another holder of its key (another process placing it). */
export const KEY_WAIT_MS = 2_000;

/**
 * PostgreSQL: a transaction-scoped advisory lock on (user, key), waited for a
 * moment (`KEY_WAIT_MS`): the holder is another process placing this very
 * order (the page's repeat, or the server placing the paid order from a
 * webhook), and once it commits, its stored answer is the answer. Still held
 * after that: 409 in progress. SQLite has one writer in one process, where
 * `InFlight` already decided.
 */
export async function lockKeyInTransaction(
  trx: Transaction<Database>,
  dialect: Dialect,
  userId: number,
  key: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const [k1, k2] = keyLockIds(userId, key);
  if (!Number.isInteger(k1) || !Number.isInteger(k2)) throw new Error('advisory lock ids must be integers');
  try {
    // One round trip (three statements, no parameters, so the simple protocol runs them in turn):
    // the wait bounded, the lock, and the default back for the rest of the order's transaction.
    await sql
      .raw(
        `set local lock_timeout = ${KEY_WAIT_MS}; select pg_advisory_xact_lock(${k1}::int, ${k2}::int); set local lock_timeout to default`,
      )
      .execute(trx);
  } catch (err) {
    // 55P03 lock_not_available: the wait ran out (the transaction is aborted and rolls back).
    if ((err as { code?: unknown }).code === '55P03') throw inProgress();
    throw err;
  }
}

/**
 * The same lock, waited for: the server placing a paid order itself (a provider event) must not
 * give up because the page is placing it right now; once the page's transaction ends, the answer
 * it stored is there to see. SQLite's transactions already run one at a time.
 */
export async function waitForKeyInTransaction(
  trx: Transaction<Database>,
  dialect: Dialect,
  userId: number,
  key: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await takeKeyLock(trx, userId, key);
}
