import { useLiveQuery } from 'dexie-react-hooks';
import { giftsApi } from '../../domain/gifts.contract.js';
import type { SavedRecipient, SavedRecipientInput } from '../../domain/gifts.js';
import { db } from '../../sw/db.js';
import { call } from '../api/client.js';

/**
 * The account's saved recipients: `GET/POST/DELETE /api/my-recipients`, kept in Dexie
 * (`recipients`, one row per user id) so checkout offers them offline, two taps for a second gift
 * to Mum. Like the order history, they are the account's personal data: `keepOnlyAccount`
 * (sw/account-data.ts) takes them off the device at logout and at another account's sign-in.
 *
 * A recipient saved with an order placed offline ("Save this recipient") is kept on the device at
 * once with a negative id (the server stores it when the order arrives, `Recipient.Save`); the
 * next fetch replaces the list with the server's.
 *
 * The checkout and My Profile load this module by dynamic import (`SavedRecipients` is lazy): a
 * module two route screens import statically becomes a chunk of its own, and its name joins the
 * first screen's table of what each route preloads, which the first screen's budget cannot take.
 */
export function useSavedRecipients(userId: number | null | undefined): SavedRecipient[] | undefined {
  return useLiveQuery(async () => {
    if (!userId) return [];
    return (await db.recipients.get(userId))?.rows ?? [];
  }, [userId]);
}

/** Fetches the account's list and keeps it; a failure (offline) leaves the kept copy as it was. */
export async function refreshRecipients(userId: number): Promise<SavedRecipient[] | null> {
  try {
    const answer = await call(giftsApi.myRecipients);
    const rows = answer.data ?? [];
    await db.recipients.put({ userId, rows, fetchedAt: Date.now() });
    return rows;
  } catch {
    return null;
  }
}

export async function saveRecipient(userId: number, input: SavedRecipientInput): Promise<SavedRecipient> {
  const answer = await call(giftsApi.addRecipient, { body: input });
  const saved = answer.data as SavedRecipient;
  await keepOnDevice(userId, saved);
  return saved;
}

/** Keeps one on the device (an offline order's "Save this recipient": a negative id until the server's list comes). */
export async function keepOnDevice(userId: number, recipient: SavedRecipient): Promise<void> {
  await db.transaction('rw', db.recipients, async () => {
    const kept = (await db.recipients.get(userId))?.rows ?? [];
    const others = kept.filter((r) => r.id !== recipient.id && !sameRecipient(r, recipient));
    await db.recipients.put({ userId, rows: [recipient, ...others], fetchedAt: Date.now() });
  });
}

export async function deleteRecipient(userId: number, id: number): Promise<void> {
  // One kept only on the device (not yet on the server) has nothing to delete there.
  if (id > 0) await call(giftsApi.deleteRecipient, { params: { id } });
  await db.transaction('rw', db.recipients, async () => {
    const kept = await db.recipients.get(userId);
    if (kept) await db.recipients.put({ ...kept, rows: kept.rows.filter((r) => r.id !== id) });
  });
}

function sameRecipient(a: SavedRecipient, b: SavedRecipient): boolean {
  return (
    a.name === b.name &&
    a.phone === b.phone &&
    a.address === b.address &&
    a.city === b.city &&
    a.state === b.state &&
    a.pincode === b.pincode
  );
}
