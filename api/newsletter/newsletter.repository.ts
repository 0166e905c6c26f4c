import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CONFIRM_DAYS } from '../../domain/newsletter.js';
import type { Database } from '../db/schema.js';
import type { SubscriberStatus } from './newsletter.tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const CONFIRM_TTL_MS = CONFIRM_DAYS * DAY_MS;
/**
 * An unconfirmed address stays this long after its link expired, so the link still says
 * "expired" rather than "not valid"; after that the row is dropped: the list keeps no address
 * that never agreed to it.
 */
export const PENDING_KEPT_MS = 30 * DAY_MS;

/**
 * Records a request to subscribe with the hash of a new confirmation token, in one statement (two
 * requests for one address at once cannot make two rows): a new address is a pending row, a pending
 * one gets the new token and a new deadline, a confirmed one is left as it is. Says which it was.
 */
export async function requestSubscription(
  db: Kysely<Database>,
  email: string,
  confirmHash: string,
  now: number,
): Promise<{ id: number; status: SubscriberStatus }> {
  const expires = now + CONFIRM_TTL_MS;
  const pending = await db
    .insertInto('newsletter_subscribers')
    .values({
      email,
      status: 'pending',
      confirm_hash: confirmHash,
      confirm_expires_at: expires,
      created_at: now,
      confirmed_at: null,
    })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ confirm_hash: confirmHash, confirm_expires_at: expires })
        .where('newsletter_subscribers.status', '=', 'pending'),
    )
    .returning(['id', 'status'])
    .executeTakeFirst();
  if (pending) return pending;
  // No row inserted or updated: the address is confirmed already.
  return db
    .selectFrom('newsletter_subscribers')
    .select(['id', 'status'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
}

export type Confirmation =
  | { outcome: 'unknown' }
  | { outcome: 'expired' }
  | { outcome: 'confirmed' | 'already'; id: number; email: string };

/** Confirms the pending address whose newest link's token hashes to `confirmHash`. */
export async function confirmSubscription(
  db: Kysely<Database>,
  confirmHash: string,
  now: number,
): Promise<Confirmation> {
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select(['id', 'email', 'status', 'confirm_expires_at'])
    .where('confirm_hash', '=', confirmHash)
    .executeTakeFirst();
  if (!row) return { outcome: 'unknown' };
  // A confirmed address's link keeps saying so: a second click (or a mail scanner's) is no error.
  if (row.status === 'confirmed') return { outcome: 'already', id: row.id, email: row.email };
  if (row.confirm_expires_at <= now) return { outcome: 'expired' };
  const updated = await db
    .updateTable('newsletter_subscribers')
    .set({ status: 'confirmed', confirmed_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  // Another request confirmed it in between: it is confirmed either way, and only one says "welcome".
  const outcome = Number(updated.numUpdatedRows) === 1 ? 'confirmed' : 'already';
  return { outcome, id: row.id, email: row.email };
}

/** Takes a subscription off the list; says whether there was one. */
export async function removeSubscription(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('newsletter_subscribers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Drops unconfirmed addresses whose link expired more than PENDING_KEPT_MS ago. */
export async function prunePending(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('newsletter_subscribers')
    .where('status', '=', 'pending')
    .where('confirm_expires_at', '<', now - PENDING_KEPT_MS)
    .execute();
}

export async function subscriberCounts(
  db: Kysely<Database>,
  now: number,
): Promise<{ confirmed: number; pending: number }> {
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select((eb) => [
      eb.fn.count<number>('id').filterWhere('status', '=', 'confirmed').as('confirmed'),
      eb.fn
        .count<number>('id')
        .filterWhere((w) => w.and([w('status', '=', 'pending'), w('confirm_expires_at', '>', now)]))
        .as('pending'),
    ])
    .executeTakeFirstOrThrow();
  return { confirmed: Number(row.confirmed), pending: Number(row.pending) };
}

/** The list itself: confirmed addresses in the order they confirmed. */
export function confirmedSubscribers(
  db: Kysely<Database>,
): Promise<{ id: number; email: string; created_at: number; confirmed_at: number | null }[]> {
  return db
    .selectFrom('newsletter_subscribers')
    .select(['id', 'email', 'created_at', 'confirmed_at'])
    .where('status', '=', 'confirmed')
    .orderBy('confirmed_at')
    .orderBy('id')
    .execute();
}

/**
 * The key that signs unsubscribe links, kept in the database so every process signs alike and a
 * link in a mail years old still works (it does not change with JWT_SECRET). The first process to
 * ask inserts one; the name is the primary key, so processes starting together read back one.
 */
export async function unsubscribeKey(db: Kysely<Database>): Promise<string> {
  await db
    .insertInto('shop_secrets')
    .values({ name: 'newsletter', value: randomBytes(32).toString('base64url'), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('shop_secrets')
    .select('value')
    .where('name', '=', 'newsletter')
    .executeTakeFirstOrThrow();
  return row.value;
}
