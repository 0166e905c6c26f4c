/**
 * Placing an order from the page: the order goes into the outbox with a new
 * idempotency key and out of the cart in one transaction, then (online) it
 * is sent at once while the shopper waits. A send that does not answer within
 * `WAIT_MS` (a very slow link) leaves the order to the senders; it is never
 * placed twice, however many of them try.
 */
import type { CartLine } from '../../domain/cart.js';
import type { CouponOff } from '../../domain/coupon-terms.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput, OrderTotals } from '../../domain/orders.js';
import type { Answer } from '../../domain/outbox.js';
import type { SlotOffer } from '../../domain/slots.js';
import { checkoutDrafts } from '../../sw/checkout-drafts.js';
import { defaultEnv, type NewOrder, queueOrder, sendNow, uploadOrderPhotos } from '../../sw/outbox.js';
import type { OutboxPhoto, OutboxRow } from '../../sw/outbox-row.js';
import type { Session } from '../../sw/session.js';
import { newKey } from '../hooks/new-key.js';
import { registerBackgroundSync, startPageSender } from './page-sender.js';

const WAIT_MS = 15_000;

/** The order's Idempotency-Key, made once when it is first stored. */
export const newOrderKey = newKey;

export interface PlaceInput {
  key: string;
  session: Session;
  request: OrderRequestInput;
  totals: OrderTotals;
  /** What the applied coupon takes off (null: none, or under its minimum). */
  couponOff: CouponOff | null;
  lines: readonly CartLine[];
  /** The delivery slot as the shopper saw it (null: Standard or no slots on the device). */
  slot: SlotOffer | null;
}

export type Placed = { row: OutboxRow; waited: boolean };

export async function placeOrder(input: PlaceInput): Promise<Placed> {
  return placeNew(newOrderOf(input));
}

/** The outbox row's making from the checkout's input (the payment in progress keeps it too). */
export function newOrderOf(input: PlaceInput): NewOrder {
  return {
    key: input.key,
    userId: input.session.userId,
    email: input.session.email,
    request: input.request,
    figures: { ...input.totals, couponAmount: input.totals.discount, couponOff: input.couponOff },
    slot: input.slot,
    cartKeys: input.lines.map((l) => l.key),
    photos: photosOf(input.lines, input.request),
    // What each line chose, so the queued order reads as chosen while the catalogue changes.
    lines: input.lines.map((l) => ({
      productID: l.productID,
      variationID: l.variationID,
      variationName: l.variationName,
      variationValue: l.variationValue ?? null,
      baseSize: l.baseSize ?? null,
    })),
  };
}

/** Queues the order (ending its payment in progress, if any) and sends it while the shopper waits. */
export async function placeNew(order: NewOrder): Promise<Placed> {
  const env = defaultEnv();
  const row = await queueOrder(order, env);
  // What was typed became this order: the checkout's draft has done its work.
  await checkoutDrafts(env.db).delete(order.userId);
  const sent = await sendWhileWaiting(row);
  return { row: sent ?? row, waited: sent !== undefined };
}

/**
 * Sends a queued row now while the shopper waits (online), at most `WAIT_MS`; the senders take
 * it from there. What it became, or undefined when nothing was tried (offline).
 */
export async function sendWhileWaiting(queued: OutboxRow): Promise<OutboxRow | undefined> {
  startPageSender();
  let row: OutboxRow | undefined;
  if (navigator.onLine) {
    const answered = await Promise.race([
      sendNow(queued.key, defaultEnv()),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WAIT_MS)),
    ]);
    row = answered ?? queued;
  }
  if ((row ?? queued).state !== 'sent') void afterQueued();
  return row;
}

/**
 * The order's photo cake photos. Line i of the request is cart line i (orderItems keeps the
 * order); a photo uploaded already (an online payment's) keeps the id its line carries, so the
 * sender does not upload it again and sends the order with it.
 */
function photosOf(lines: readonly CartLine[], request: OrderRequestInput): OutboxPhoto[] {
  return lines.flatMap((l, item) =>
    l.photo
      ? [{ item, key: l.photo.key, blob: l.photo.blob, photoID: request.OrderItems[item]?.PhotoID ?? null }]
      : [],
  );
}

/** A photo the shop did not take before a payment: the server's reason, or that it could not be reached. */
export class PhotoUploadError extends Error {}

/**
 * An order paid online is priced and paid before it is placed, so its photo cakes' photos go
 * first: each is uploaded under its own key (the one the outbox would use, so nothing is stored
 * twice, whoever asks again) and the request carries their ids to the provider order and to the
 * order placed after the payment. `known` keeps the ids answered during this checkout, so a second
 * attempt to pay asks for none of them again.
 */
export async function withUploadedPhotos(
  session: Session,
  request: OrderRequestInput,
  lines: readonly CartLine[],
  known: Map<string, string>,
): Promise<OrderRequestInput> {
  const ready = {
    ...request,
    OrderItems: request.OrderItems.map((item, i) => {
      const id = lines[i]?.photo ? known.get(lines[i].photo.key) : undefined;
      return id ? { ...item, PhotoID: id } : item;
    }),
  };
  const photos = photosOf(lines, ready);
  const done = await uploadOrderPhotos(
    defaultEnv(),
    { request: ready, photos },
    session.token,
    async (next) => {
      for (const p of next.photos) if (p.photoID) known.set(p.key, p.photoID);
    },
  );
  if (done.stopped) throw photoUploadError(done.stopped.answer);
  return done.request;
}

/** What the shopper reads of a photo the shop did not take: its reason, or that it could not be reached. */
export function photoUploadError(answer: Answer): PhotoUploadError {
  const said = (answer.body as { sys_message?: unknown } | null)?.sys_message;
  return new PhotoUploadError(
    answer.status > 0 && typeof said === 'string' && said ? said : messages.orderFailed,
  );
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
