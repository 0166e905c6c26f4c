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

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export async function findAnswer(db: Db, userId: number, key: string): Promise<StoredAnswer | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? { requestHash: row.request_hash, statusCode: row.status_code, response: row.response } : null;
}

/** The stored answer when the body is the same; 422 when the key is reused for another order. */
export function replay(stored: StoredAnswer, hash: string): StoredAnswer {
  if (stored.requestHash !== hash)
    throw new HttpError(422, messages.idempotencyKeyReused, { reason: 'key-reused' });
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

/**
 * PostgreSQL: a transaction-scoped advisory lock on (user, key), tried without
 * waiting. Another process holding it is placing this very order: 409. SQLite
 * has one writer in one process, where `InFlight` already decided.
 */
export async function lockKeyInTransaction(
  trx: Transaction<Database>,
  dialect: Dialect,
  userId: number,
  key: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const k2 = createHash('sha256').update(key).digest().readInt32BE(0);
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${userId}::int, ${k2}::int) as locked`.execute(trx);
  if (!rows[0]?.locked) throw inProgress();
}
