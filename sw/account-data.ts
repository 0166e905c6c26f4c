/**
 * What of the device's data an account may see, and what leaves with it. A
 * phone is shared: screens, notices and badges read the outbox through these
 * functions only, so each shows the signed-in account's orders and, logged
 * out, none. The rule itself is `domain/ownership.ts`.
 *
 * At logout the account's personal data leaves the device (sent and
 * cancelled orders, with their names and addresses, the order history
 * copy, the order pages' copies and the saved recipients); the session's own keys go with `clearSession`. Orders still waiting
 * to be sent stay, hidden, because nothing queued is ever dropped: only their
 * own account's session sends them (`sw/outbox.ts`). The cart is the device's. The
 * removal itself (`keepOnlyAccount`, `endSessionOnDevice`) is in `session-writes.ts`, with the
 * session's other writes, off the first screen.
 */
import { isOwnedBy } from '../domain/ownership.js';
import { db, type ShopDatabase } from './db.js';
import { type OutboxRow, type OutboxState, upgradeRow } from './outbox-row.js';

export const WAITING_STATES: readonly OutboxState[] = ['queued', 'sending', 'attention'];
/** Queued, being sent, or waiting for the shopper: never removed with an account's data. */
export const isWaiting = (row: OutboxRow) => WAITING_STATES.includes(upgradeRow(row).state);

/** The account's outbox rows, in this version's format; none without an account. */
export async function ownOutboxRows(
  userId: number | null | undefined,
  store: ShopDatabase = db,
): Promise<OutboxRow[]> {
  if (!userId) return [];
  return (await store.outbox.where('userId').equals(userId).toArray())
    .filter((r) => isOwnedBy(r, userId))
    .map(upgradeRow);
}

/** One order, when it is the account's; another account's order reads as a missing one. */
export async function ownOutboxRow(
  key: string,
  userId: number | null | undefined,
  store: ShopDatabase = db,
): Promise<OutboxRow | null> {
  if (!key) return null;
  const row = await store.outbox.get(key);
  return row && isOwnedBy(row, userId) ? upgradeRow(row) : null;
}

/** The account's orders not yet placed or given up: queued, being sent, or waiting for the shopper. */
export async function ownWaitingOrders(
  userId: number | null | undefined,
  store: ShopDatabase = db,
): Promise<OutboxRow[]> {
  return (await ownOutboxRows(userId, store)).filter(isWaiting);
}
