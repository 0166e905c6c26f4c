/**
 * The shopper's decisions on an order waiting in the outbox: confirm new figures, remove a gone
 * line, pick a new date, an offered slot or a new address (each queues the order again, due now,
 * with the SAME key: a refused order stored nothing under it), pay online for one the Cash on
 * Delivery rules refused, cancel a refusal (its lines back in the cart) or dismiss a defect, and
 * mark a placed order announced. Only the signed-in account's own rows; what each changes is
 * `outbox-decisions.ts`.
 */
import type { OrderRequestInput } from '../domain/orders.js';
import { isOwnedBy } from '../domain/ownership.js';
import type { SlotOffer } from '../domain/slots.js';
import { writeMirror } from './cart.js';
import { defaultEnv, type OutboxEnv, updateRow } from './outbox.js';
import {
  canCancel,
  cartLinesBack,
  type NewAddress,
  type RowPatch,
  withDeliveryDate,
  withNewAddress,
  withNewFigures,
  withOfferedSlot,
  withoutGoneLine,
} from './outbox-decisions.js';
import { type OutboxRow, upgradeRow } from './outbox-row.js';
import { loadSession } from './session-writes.js';

/**
 * The signed-in account's user id, for the shopper's decisions: on a shared phone a page (an old tab,
 * a link kept from another session) may offer another account's order, and only its own account
 * may confirm, fix or cancel it.
 */
async function decider(env: OutboxEnv): Promise<number | null> {
  return (await loadSession(env.db, env.now()))?.userId ?? null;
}

/**
 * Changes a row waiting for the shopper and queues it again, due now; false when it no longer waits.
 * Its payment in progress (one paid from the row, `requeuePaid`) ends in the same transaction.
 */
async function fixAndRequeue(
  key: string,
  env: OutboxEnv,
  change: (row: OutboxRow) => RowPatch | null,
): Promise<boolean> {
  const userId = await decider(env);
  return env.db.transaction('rw', env.db.outbox, env.db.payments, async () => {
    const stored = await env.db.outbox.get(key);
    if (stored?.state !== 'attention' || !isOwnedBy(stored, userId)) return false;
    const row = upgradeRow(stored);
    const patch = change(row);
    if (!patch) return false;
    await updateRow(env, row, {
      state: 'queued',
      problem: null,
      attempts: 0,
      nextAttemptAt: env.now(),
      lastError: null,
      ...patch,
    });
    await env.db.payments.delete(key);
    return true;
  });
}

/**
 * A queued Cash on Delivery order the owner's rules refused, paid online from its row
 * (`web/checkout/pay-queued.ts`): queued again with the payment's proof under the SAME key (the
 * refusal stored nothing under it), due now. False when it no longer waits for that; its payment
 * in progress then stays, and the resume finds the order the server placed from the payment.
 */
export function requeuePaid(key: string, request: OrderRequestInput, env: OutboxEnv = defaultEnv()) {
  return fixAndRequeue(key, env, (row) => (row.problem?.kind === 'cod' ? { request } : null));
}

/**
 * The shopper accepts the server's new figures: each line's new price and the
 * new total, sent again with the SAME key (a refused order stored nothing under
 * it). A coupon that no longer applies is dropped from the request.
 */
export function confirmNewFigures(key: string, env: OutboxEnv = defaultEnv()): Promise<boolean> {
  return fixAndRequeue(key, env, withNewFigures);
}

/**
 * Removes the line the server said is gone and re-totals with the same rules
 * as checkout; the server re-prices anyway, and any other difference comes
 * back as new figures to confirm.
 */
export function removeGoneLine(key: string, env: OutboxEnv = defaultEnv()): Promise<boolean> {
  return fixAndRequeue(key, env, withoutGoneLine);
}

/** A new delivery date for an order whose date the server no longer accepts. */
export function changeDeliveryDate(
  key: string,
  date: string,
  env: OutboxEnv = defaultEnv(),
): Promise<boolean> {
  return fixAndRequeue(key, env, (row) => withDeliveryDate(row, date));
}

/**
 * A new address for an order the delivery areas refused (`withNewAddress`): sent again with the
 * SAME key; a pincode the server still refuses comes back to the shopper the same way.
 */
export function changeAddress(key: string, to: NewAddress, env: OutboxEnv = defaultEnv()): Promise<boolean> {
  return fixAndRequeue(key, env, (row) => withNewAddress(row, to));
}

/**
 * The shopper picks one of the slots the server offered instead of one that
 * filled or passed its cut-off (`withOfferedSlot`), and the order goes again
 * with the SAME key; if that slot fills too, the server says so and the
 * shopper picks again. Nothing moves without this call.
 */
export function chooseOfferedSlot(
  key: string,
  offer: SlotOffer,
  env: OutboxEnv = defaultEnv(),
): Promise<boolean> {
  return fixAndRequeue(key, env, (row) => withOfferedSlot(row, offer));
}

/**
 * The shopper gives up an order the server refused (so it was never placed):
 * it is marked cancelled and its lines go back to the cart. Only a refusal can
 * be cancelled: an order that may be in flight, or that waits for a sign-in
 * after a lost answer, might already exist at the shop.
 */
export async function cancelOrder(key: string, env: OutboxEnv = defaultEnv()): Promise<boolean> {
  const userId = await decider(env);
  const done = await env.db.transaction('rw', env.db.outbox, env.db.cart, async () => {
    const stored = await env.db.outbox.get(key);
    if (stored?.state !== 'attention' || !isOwnedBy(stored, userId)) return false;
    const row = upgradeRow(stored);
    if (!canCancel(row)) return false;
    await updateRow(env, row, { state: 'cancelled' });
    for (const line of cartLinesBack(row, env.now())) {
      if (await env.db.cart.get(line.key)) continue;
      await env.db.cart.put(line);
    }
    return true;
  });
  if (done) await writeMirror(env.db);
  return done;
}

/**
 * A row the server refused as a defect (422) stays visible until the shopper
 * dismisses it; it is never resent. Its cart lines are not restored: an order
 * under its key exists with other details.
 */
export async function dismissOrder(key: string, env: OutboxEnv = defaultEnv()): Promise<boolean> {
  const userId = await decider(env);
  return env.db.transaction('rw', env.db.outbox, async () => {
    const stored = await env.db.outbox.get(key);
    if (stored?.state !== 'attention' || stored.problem?.kind !== 'defect' || !isOwnedBy(stored, userId))
      return false;
    await updateRow(env, upgradeRow(stored), { state: 'cancelled' });
    return true;
  });
}

/** A sent row was seen by the shopper or announced by the worker: never announced again. */
export async function markAnnounced(key: string, env: OutboxEnv = defaultEnv()): Promise<void> {
  const stored = await env.db.outbox.get(key);
  if (stored && !stored.announced) await updateRow(env, upgradeRow(stored), { announced: true });
}
