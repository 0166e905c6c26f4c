/**
 * The outbox's decisions, pure: when a row is due, what each outcome of a send writes into its row
 * (sent, retried with back-off, waiting for the shopper), and what each of the shopper's decisions
 * changes (new figures, a line removed, a new date, slot or address, the lines a cancel puts back
 * in the cart). The sender (`outbox.ts`) and the shopper's actions (`outbox-shopper.ts`) read and write
 * Dexie and apply these; how an HTTP answer is read is `domain/outbox.ts`.
 */
import type { CartLine } from '../domain/cart.js';
import { lineKey } from '../domain/cart.js';
import { couponDiscount } from '../domain/coupon-terms.js';
import type { DeliveryArea } from '../domain/delivery-areas.js';
import {
  asRepriced,
  asSlotRefusal,
  backoffMs,
  goneLine,
  type OutboxProblem,
  type Outcome,
} from '../domain/outbox.js';
import type { SlotOffer } from '../domain/slots.js';
import type { OutboxRow } from './outbox-row.js';

/** What a row's change writes: the fields it sets (the sender adds the row version and the time). */
export type RowPatch = Partial<OutboxRow>;

// ------------------------------------------------------------------ the sender's

/** `lastError` of a failure that says nothing about the order (the network): the rest of a pass waits too. */
const TRANSPORT = 'transport:';

export function isTransportError(lastError: string | null | undefined): boolean {
  return lastError?.startsWith(TRANSPORT) ?? false;
}

/** `lastError` of a row deferred with a pass that lost the network, when it has none of its own. */
export const NETWORK_DOWN = `${TRANSPORT}network`;

/**
 * Whether a queued (or abandoned `sending`) row goes in this pass: a forced pass sends all; a row
 * left `sending` by a dead sender goes again; a row goes when its back-off has passed, or, once
 * the pass has proven the network up, when only the network refused it.
 */
export function isDue(
  row: Pick<OutboxRow, 'state' | 'nextAttemptAt' | 'lastError'>,
  now: number,
  pass: { force: boolean; networkUp: boolean },
): boolean {
  return (
    pass.force ||
    row.state === 'sending' ||
    row.nextAttemptAt <= now ||
    (pass.networkUp && isTransportError(row.lastError))
  );
}

/** What a row waits for when its account has no live session on the device, or the server said 401. */
export function signInProblem(): OutboxProblem {
  return {
    kind: 'signin',
    status: 401,
    message: 'Please log in again to send this order.',
    data: null,
  };
}

/** A sent row: the placed order kept, the failures forgotten, and of its photos only their ids. */
export function sentPatch(row: OutboxRow, outcome: Extract<Outcome, { kind: 'sent' }>): RowPatch {
  return {
    state: 'sent',
    placed: outcome.order,
    problem: null,
    attempts: 0,
    lastError: null,
    refusedToken: null,
    // The shop has the photos now; a placed order keeps only their ids.
    ...(row.photos ? { photos: row.photos.map(({ blob: _sent, ...p }) => p) } : {}),
  };
}

/** A retried row: one more failure, due after Retry-After or else our back-off (only then is `random` drawn). */
export function retryPatch(
  row: OutboxRow,
  outcome: Extract<Outcome, { kind: 'retry' }>,
  now: number,
  random: () => number,
): RowPatch & { nextAttemptAt: number } {
  const attempts = row.attempts + 1;
  return {
    state: 'queued',
    attempts,
    nextAttemptAt: now + (outcome.afterMs ?? backoffMs(attempts, random())),
    lastError: outcome.transport ? `${TRANSPORT}${outcome.reason}` : outcome.reason,
  };
}

/** A row the server refused as it is: it waits for the shopper (a 401 remembers the token it came with). */
export function attentionPatch(problem: OutboxProblem, token: string): RowPatch {
  return {
    state: 'attention',
    problem,
    attempts: 0,
    lastError: null,
    refusedToken: problem.kind === 'signin' ? token : null,
  };
}

// ------------------------------------------------------------------ the shopper's

/**
 * The shopper accepts the server's new figures: each line's new price and the new total. A coupon
 * that no longer applies is dropped from the request. Null when the row's problem is not new figures.
 */
export function withNewFigures(row: OutboxRow): RowPatch | null {
  const repriced = asRepriced(row.problem?.data);
  if (!repriced) return null;
  const items = row.request.OrderItems.map((item, i) => ({
    ...item,
    Price: repriced.lines[i]?.new.price ?? item.Price,
  }));
  const couponKept = repriced.coupon ? repriced.coupon.applied : true;
  return {
    request: {
      ...row.request,
      OrderItems: items,
      TotalAmount: repriced.total.new,
      CouponCode: couponKept ? row.request.CouponCode : null,
    },
    figures: {
      subtotal: repriced.subtotal,
      deliveryCharge: repriced.deliveryCharge,
      slotCharge: repriced.slotCharge ?? row.figures.slotCharge,
      discount: repriced.discount,
      total: repriced.total.new,
      couponAmount: couponKept ? repriced.discount : 0,
      couponOff: couponKept ? row.figures.couponOff : null,
    },
  };
}

/**
 * The line the server said is gone, removed, and the order re-totalled with checkout's rules (the
 * server re-prices anyway). Null when no line goes, or when it would leave no line.
 */
export function withoutGoneLine(row: OutboxRow): RowPatch | null {
  const gone = goneLine(row.problem?.data);
  if (!gone) return null;
  const items = row.request.OrderItems.filter((item) => {
    const sameProduct =
      gone.productID !== null ? item.ProductID === gone.productID : item.ProductName === gone.productName;
    if (!sameProduct) return true;
    return gone.variationID !== undefined && (item.VariationID ?? null) !== gone.variationID;
  });
  if (items.length === row.request.OrderItems.length || items.length === 0) return null;
  const subtotal = items.reduce((s, i) => s + i.Price * i.Quantity, 0);
  const discount = couponDiscount(row.figures.couponOff ?? row.figures.couponAmount, subtotal);
  const total = subtotal + row.figures.deliveryCharge + row.figures.slotCharge - discount;
  return {
    request: { ...row.request, OrderItems: items, TotalAmount: total },
    figures: { ...row.figures, subtotal, discount, total },
  };
}

/** A new delivery date, for an order whose date the server no longer accepts (only then). */
export function withDeliveryDate(row: OutboxRow, date: string): RowPatch | null {
  return row.problem?.kind === 'delivery-date' ? { request: { ...row.request, DeliveryDate: date } } : null;
}

/** A new delivery address: its pincode's area (found on the device) and the street address. */
export interface NewAddress {
  area: Pick<DeliveryArea, 'pincode' | 'city' | 'state' | 'charge'>;
  address: string;
}

/**
 * A new address for an order the delivery areas refused (its pincode left the areas while the
 * phone was offline, or its city was not the pincode's): State and City are the new pincode's,
 * and the total moves by the difference of the two delivery charges (the server re-prices and
 * says so if anything else changed). Only for that refusal, and only to a pincode the device
 * knows the shop delivers to.
 */
export function withNewAddress(row: OutboxRow, to: NewAddress): RowPatch | null {
  if (row.problem?.kind !== 'undeliverable' || !to.address.trim()) return null;
  const total = row.figures.total - row.figures.deliveryCharge + to.area.charge;
  return {
    request: {
      ...row.request,
      CustomerPincode: to.area.pincode,
      State: to.area.state,
      City: to.area.city,
      CustomerAddress: to.address.trim(),
      TotalAmount: total,
    },
    figures: { ...row.figures, deliveryCharge: to.area.charge, total },
  };
}

/**
 * One of the slots the server offered instead of one that filled or passed its cut-off: only an
 * offered slot is taken (never one the device guessed), and the total moves by the difference of
 * the two surcharges.
 */
export function withOfferedSlot(row: OutboxRow, offer: SlotOffer): RowPatch | null {
  const refusal = asSlotRefusal(row.problem?.data);
  const offered = refusal?.next.find((o) => o.date === offer.date && o.slotID === offer.slotID);
  if (row.problem?.kind !== 'slot' || !offered) return null;
  const total = row.figures.total - row.figures.slotCharge + offered.surcharge;
  return {
    request: {
      ...row.request,
      DeliveryDate: offered.date,
      DeliverySlotID: offered.slotID,
      TotalAmount: total,
    },
    figures: { ...row.figures, slotCharge: offered.surcharge, total },
    slot: offered,
  };
}

/**
 * Whether the shopper may give the order up: only a refusal. An order that may be in flight, or
 * that waits for a sign-in after a lost answer, might already exist at the shop; a defect is
 * dismissed, not cancelled (its key holds an order with other details).
 */
export function canCancel(row: OutboxRow): boolean {
  return row.state === 'attention' && row.problem?.kind !== 'signin' && row.problem?.kind !== 'defect';
}

/**
 * The cart lines a cancelled order puts back, in its order (`now + i` keeps it): each with what it
 * chose, its cake message and photo, at the shop's new price when the order was repriced, so
 * checkout shows what will be charged. Lines of the spec's client (no product id) have no cart line.
 */
export function cartLinesBack(row: OutboxRow, now: number): CartLine[] {
  const repriced = asRepriced(row.problem?.data);
  const out: CartLine[] = [];
  for (const [i, item] of row.request.OrderItems.entries()) {
    if (item.ProductID == null) continue;
    const productID = Number(item.ProductID);
    const variationID = item.VariationID == null ? null : Number(item.VariationID);
    const cakeMessage = item.CakeMessage ?? null;
    // By its id once uploaded: a removed line before it has moved the items since it was queued.
    const stored = row.photos?.find((p) => (item.PhotoID ? p.photoID === item.PhotoID : p.item === i));
    const photo = stored?.blob ? { key: stored.key, blob: stored.blob } : null;
    const key = lineKey(productID, variationID, cakeMessage, photo?.key);
    // What the line chose goes back with it, so the cart still says "Weight: 1 kg".
    const chose = row.lines?.find((l) => l.productID === productID && l.variationID === variationID);
    out.push({
      ...(cakeMessage ? { cakeMessage } : {}),
      ...(photo ? { photo } : {}),
      key,
      productID,
      variationID,
      variationName: chose?.variationName ?? null,
      ...(chose ? { variationValue: chose.variationValue ?? null, baseSize: chose.baseSize ?? null } : {}),
      title: item.ProductName ?? '',
      image: item.ProductImage ?? '',
      price: repriced?.lines[i]?.new.price ?? item.Price,
      quantity: item.Quantity,
      addedAt: now + i,
    });
  }
  return out;
}
