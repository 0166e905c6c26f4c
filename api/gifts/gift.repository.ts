import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { SavedRecipient, SavedRecipientInput } from '../../domain/gifts.js';
import type { Database } from '../db/schema.js';

/** SQL of gifts (issue 26): cake photos and saved recipients. Every read is filtered by its owner. */
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
): Promise<void> {
  await db
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
    })
    .execute();
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

/** Saves a recipient once: the same name, phone and address again answers the row already kept. */
export async function saveRecipient(db: Db, userId: number, r: SavedRecipientInput): Promise<SavedRecipient> {
  const key = sameKey(r);
  await db
    .insertInto('saved_recipients')
    .values({ user_id: userId, ...r, same_key: key, created_at: Date.now() })
    .onConflict((oc) => oc.columns(['user_id', 'same_key']).doNothing())
    .execute();
  return db
    .selectFrom('saved_recipients')
    .select([...RECIPIENT_COLUMNS])
    .where('user_id', '=', userId)
    .where('same_key', '=', key)
    .executeTakeFirstOrThrow();
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
 * Removes the photos no order carries once they are older than `maxAgeMs`: a photo is uploaded
 * before its order is sent, and an order waits in a device's outbox at most as long as its
 * idempotency key is kept, so after that no order can still come for it.
 */
export async function deleteOrphanPhotos(db: Db, now: number, maxAgeMs: number): Promise<number> {
  const res = await db
    .deleteFrom('cake_photos')
    .where('created_at', '<', now - maxAgeMs)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('order_items')
        .select('photo_id')
        .where('photo_id', 'is not', null)
        .$narrowType<{ photo_id: string }>(),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
