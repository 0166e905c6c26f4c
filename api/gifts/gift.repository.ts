/** SQL of gifts: cake photos and saved recipients. Every read is filtered by its owner. */
import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import { RECIPIENTS_MAX, type SavedRecipient, type SavedRecipientInput } from '../../domain/gifts.js';
import type { Database } from '../db/schema.js';
import { KEY_RETENTION_MS } from '../orders/idempotency.js';

type Db = Kysely<Database> | Transaction<Database>;

const num = (x: unknown) => Number(x ?? 0);

export interface PhotoRow {
  id: string;
  userId: number;
  width: number;
  height: number;
}

export async function photoByKey(db: Db, userId: number, key: string): Promise<PhotoRow | null> {
  const row = await db
    .selectFrom('cake_photos')
    .select(['id', 'user_id', 'width', 'height'])
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id, width: num(row.width), height: num(row.height) } : null;
}

/**
 * Runs `fn` in a transaction that holds the account's lock of this kind, so two requests of one
 * account at once cannot both pass a count and both write (a cap of 50 stays 50). PostgreSQL: a
 * transaction-scoped advisory lock; the kind is negative, so it never meets the idempotency
 * lock's (user id, key) pairs. SQLite has one writer, and its transactions already run one at a time.
 * Inside a caller's transaction (an order's) it takes the lock there.
 */
const LOCK_PHOTOS = -26_001;
const LOCK_RECIPIENTS = -26_002;
async function underAccountLock<T>(
  db: Db,
  kind: number,
  userId: number,
  fn: (trx: Db) => Promise<T>,
): Promise<T> {
  const run = async (trx: Db) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(${kind}::int, ${userId}::int)`.execute(trx);
    }
    return fn(trx);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** The bytes the account's photos take, full sizes and previews together. */
export async function photoBytesUsed(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('cake_photos')
    .select((eb) => eb.fn.sum<number | string | null>('bytes').as('used'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return num(row?.used);
}

/**
 * Keeps a new photo unless it would take the account's photos past `quotaBytes`: false then, and
 * nothing is written. The sum and the insert run under the account's lock.
 */
export async function insertPhoto(
  db: Db,
  p: {
    id: string;
    userId: number;
    key: string | null;
    full: Buffer;
    preview: Buffer;
    width: number;
    height: number;
  },
  quotaBytes: number,
): Promise<boolean> {
  const bytes = p.full.length + p.preview.length;
  return underAccountLock(db, LOCK_PHOTOS, p.userId, async (trx) => {
    if ((await photoBytesUsed(trx, p.userId)) + bytes > quotaBytes) return false;
    await trx
      .insertInto('cake_photos')
      .values({
        id: p.id,
        user_id: p.userId,
        idempotency_key: p.key,
        full_webp: p.full,
        preview_webp: p.preview,
        width: p.width,
        height: p.height,
        created_at: Date.now(),
        bytes,
      })
      .execute();
    return true;
  });
}

/** The photo's bytes, or null when it does not exist or (unless `anyOwner`) is another account's. */
export async function photoBytes(
  db: Db,
  id: string,
  size: 'preview' | 'full',
  owner: { userId: number; anyOwner: boolean },
): Promise<Buffer | null> {
  let q = db
    .selectFrom('cake_photos')
    .select(size === 'full' ? 'full_webp as bytes' : 'preview_webp as bytes')
    .where('id', '=', id);
  if (!owner.anyOwner) q = q.where('user_id', '=', owner.userId);
  const row = await q.executeTakeFirst();
  return row ? Buffer.from(row.bytes) : null;
}

/** Which of these photo ids exist and belong to the user. */
export async function ownPhotoIds(db: Db, userId: number, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('cake_photos')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

// ------------------------------------------------------------ saved recipients

function sameKey(r: SavedRecipientInput): string {
  return createHash('sha256')
    .update(JSON.stringify([r.name, r.phone, r.address, r.city, r.state, r.pincode]))
    .digest('hex');
}

const RECIPIENT_COLUMNS = ['id', 'name', 'phone', 'address', 'city', 'state', 'pincode'] as const;

export async function listRecipients(db: Db, userId: number): Promise<SavedRecipient[]> {
  return db
    .selectFrom('saved_recipients')
    .select([...RECIPIENT_COLUMNS])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Saves a recipient once: the same name, phone and address again answers the row already kept.
 * A new one is refused (null) when the account keeps `RECIPIENTS_MAX` already; saving one it keeps
 * is never refused. The count and the insert run under the account's lock.
 */
export async function saveRecipient(
  db: Db,
  userId: number,
  r: SavedRecipientInput,
): Promise<SavedRecipient | null> {
  const key = sameKey(r);
  return underAccountLock(db, LOCK_RECIPIENTS, userId, async (trx) => {
    const kept = () =>
      trx
        .selectFrom('saved_recipients')
        .select([...RECIPIENT_COLUMNS])
        .where('user_id', '=', userId)
        .where('same_key', '=', key)
        .executeTakeFirst();
    const known = await kept();
    if (known) return known;
    const { count } = await trx
      .selectFrom('saved_recipients')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (num(count) >= RECIPIENTS_MAX) return null;
    await trx
      .insertInto('saved_recipients')
      .values({ user_id: userId, ...r, same_key: key, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['user_id', 'same_key']).doNothing())
      .execute();
    return (await kept()) ?? null;
  });
}

/** True when the recipient was the user's and is gone. */
export async function deleteRecipient(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db
    .deleteFrom('saved_recipients')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/**
 * How long a photo no order uses is kept. A photo is uploaded before its order is sent, and an
 * order waits in a device's outbox at most as long as its idempotency key is kept, so after that
 * no order can still come for it.
 */
export const PHOTO_UNUSED_AFTER_MS = KEY_RETENTION_MS;

/**
 * The one definition of an unused photo: no order references it (`order_items.photo_id`), and it
 * was uploaded more than `PHOTO_UNUSED_AFTER_MS` before `now`. A new kind of reference (a saved
 * design, a draft order kept on the server) is one more `not exists` here (README.md).
 */
export function unusedPhotos(db: Db, now: number, unusedAfterMs = PHOTO_UNUSED_AFTER_MS) {
  return db
    .selectFrom('cake_photos as p')
    .select('p.id')
    .where('p.created_at', '<', now - unusedAfterMs)
    .where(({ exists, not, selectFrom }) =>
      not(exists(selectFrom('order_items as oi').select('oi.id').whereRef('oi.photo_id', '=', 'p.id'))),
    );
}

/**
 * Removes the unused photos (`unusedPhotos`), bytes and all: the bytes are the row. Run by the
 * orders' periodic sweep, which passes the idempotency keys' life: the same value as the default.
 */
export async function deleteOrphanPhotos(
  db: Db,
  now: number,
  unusedAfterMs = PHOTO_UNUSED_AFTER_MS,
): Promise<number> {
  const res = await db
    .deleteFrom('cake_photos')
    .where('id', 'in', unusedPhotos(db, now, unusedAfterMs))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
