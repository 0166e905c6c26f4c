import type { CartLine } from '../../domain/cart.js';
import type { OrderRequestInput, OrderTotals } from '../../domain/orders.js';
import type { SlotOffer } from '../../domain/slots.js';
import { defaultEnv, OUTBOX_LOCK, type OutboxEnv, queueOrder, sendNow } from '../../sw/outbox.js';
import type { OutboxRow, QueuedLine } from '../../sw/outbox-row.js';
import type { Session } from '../../sw/session.js';
import { newKey } from '../hooks/new-key.js';
import { registerBackgroundSync, startPageSender } from './page-sender.js';

/**
 * Placing an order from the page: the order goes into the outbox with a new
 * idempotency key and out of the cart in one transaction, then (online) it
 * is sent at once while the shopper waits. A send that does not answer within
 * `WAIT_MS` (a very slow link) leaves the order to the senders; it is never
 * placed twice, however many of them try.
 */
const WAIT_MS = 15_000;

/** The order's Idempotency-Key, made once when it is first stored. */
export const newOrderKey = newKey;

export interface PlaceInput {
  key: string;
  session: Session;
  request: OrderRequestInput;
  totals: OrderTotals;
  couponAmount: number;
  lines: readonly CartLine[];
  /** The delivery slot as the shopper saw it (null: Standard or no slots on the device). */
  slot: SlotOffer | null;
}

export type Placed = { row: OutboxRow; waited: boolean };

export async function placeOrder(input: PlaceInput): Promise<Placed> {
  const env = defaultEnv();
  let row = await queueOrder(
    {
      key: input.key,
      userId: input.session.userId,
      email: input.session.email,
      request: input.request,
      figures: { ...input.totals, couponAmount: input.couponAmount },
      slot: input.slot,
      cartKeys: input.lines.map((l) => l.key),
      // Line i of the request is cart line i (orderItems keeps the order).
      photos: input.lines.flatMap((l, item) =>
        l.photo ? [{ item, key: l.photo.key, blob: l.photo.blob, photoID: null }] : [],
      ),
    },
    env,
  );
  row = await keepChoices(env, row, input.lines);
  startPageSender();
  let waited = false;
  if (navigator.onLine) {
    const answered = await Promise.race([
      sendNow(input.key, env),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WAIT_MS)),
    ]);
    waited = true;
    if (answered) row = answered;
  }
  if (row.state !== 'sent') void afterQueued();
  return { row, waited };
}

/**
 * The row keeps what each line chose, so the queued order reads as chosen while the catalogue
 * changes. Written under the outbox's lock: a sender that read the row before this would write it
 * back without them, and every sender holds the lock from its read to its write.
 */
async function keepChoices(env: OutboxEnv, row: OutboxRow, lines: readonly CartLine[]): Promise<OutboxRow> {
  const kept: QueuedLine[] = lines.map((l) => ({
    productID: l.productID,
    variationID: l.variationID,
    variationName: l.variationName,
    variationValue: l.variationValue ?? null,
    baseSize: l.baseSize ?? null,
  }));
  const write = () => env.db.outbox.update(row.key, { lines: kept });
  await (env.locks ? env.locks.request(OUTBOX_LOCK, write) : write());
  return { ...row, lines: kept };
}

let asked = false;
/**
 * The first time an order waits on this phone: ask to keep the site's data
 * (storage pressure must not evict a queued order) and ask the worker to send
 * when the network is back (where Background Sync exists).
 */
async function afterQueued(): Promise<void> {
  void registerBackgroundSync();
  if (asked) return;
  asked = true;
  try {
    if (navigator.storage?.persist && !(await navigator.storage.persisted()))
      await navigator.storage.persist();
  } catch {
    // Refused or not offered: the order is still stored; only eviction under pressure is not ruled out.
  }
  // Notifications are asked by the shopper's tap on the order updates offer that order success
  // shows (web/push/OrderUpdatesOffer.tsx): one prompt for "Order #N placed" and the order's moves.
}
