/**
 * An order in the device's outbox (Dexie table `outbox`, keyed by its
 * idempotency key). The row format carries `v`: a new app version that
 * changes it upgrades old rows on read (`upgradeRow`), because an update can
 * land while orders wait, and an old tab may still write the old format. The
 * state machine that moves rows is `outbox.ts` (the sender) and `outbox-shopper.ts` (the
 * shopper's decisions), both through the pure `outbox-decisions.ts`.
 */
import type { CartLine } from '../domain/cart.js';
import type { CouponOff } from '../domain/coupon-terms.js';
import type { OrderRequestInput, OrderTotals, PlacedOrder } from '../domain/orders.js';
import type { OutboxProblem } from '../domain/outbox.js';
import type { PaymentOnPhone } from '../domain/payment-resume.js';
import type { ProviderOrder } from '../domain/payments.contract.js';
import type { SlotOffer } from '../domain/slots.js';

export const OUTBOX_ROW_VERSION = 1;

/**
 * queued: waits for its next attempt; sending: a sender holds it now (a row
 * found `sending` by the lock's holder was left by a sender that died mid-request,
 * and is sent again with the same key); attention: waits for the shopper;
 * sent: the server placed it (kept to show the order until the history lists it);
 * cancelled: the shopper gave it up before it was placed.
 */
export type OutboxState = 'queued' | 'sending' | 'attention' | 'sent' | 'cancelled';

/** What the shopper saw at checkout, to show beside the server's figures and to re-total after a fix. */
export interface QueuedFigures extends OrderTotals {
  /** What the coupon took off at checkout (0 without one). */
  couponAmount: number;
  /** What the coupon takes off, so a fixed order is re-totalled by it (rows queued before percentages have none). */
  couponOff?: CouponOff | null;
}

export interface OutboxRow {
  v: number;
  /** The Idempotency-Key: a UUID made when the order is first stored, resent unchanged until a definite answer. */
  key: string;
  /** The account that made it; only that account's session sends it. */
  userId: number;
  email: string;
  state: OutboxState;
  request: OrderRequestInput;
  /** The totals the shopper agreed to (updated when they confirm new ones). */
  figures: QueuedFigures;
  /**
   * The delivery slot as the shopper saw it (name, window, surcharge), to show the queued order;
   * the request carries only its id. Null: Standard, or a row from before slots.
   */
  slot: SlotOffer | null;
  createdAt: number;
  /** Failed attempts in a row (drives the back-off); a definite answer resets it. */
  attempts: number;
  /** Not before this time (ms since epoch). */
  nextAttemptAt: number;
  /** Why the last attempt failed, for the shopper and for support ("network", "503"). */
  lastError: string | null;
  /** The server's order once placed. */
  placed: PlacedOrder | null;
  /** What the shopper must decide, with the server's envelope, while state is 'attention'. */
  problem: OutboxProblem | null;
  /** The token a 401 came with: the order continues once the account has another one. */
  refusedToken: string | null;
  /** The worker showed "Order #N placed" (or a page saw it): never twice. */
  announced: boolean;
  updatedAt: number;
  /**
   * The photos of its photo cakes, uploaded before the order is sent; absent: none.
   * Added without a new row version: an older row simply has none.
   */
  photos?: OutboxPhoto[];
  /**
   * What each cart line it took had chosen (the option's name and value, or the base size), to
   * show the order as chosen before the server answers: the request carries only the ids. Added
   * without a new row version: an older row has none and names options from the catalogue.
   */
  lines?: QueuedLine[];
}

/** A queued order's line as its cart line chose it; found by product and option (a removed line moves the items). */
export type QueuedLine = Pick<
  CartLine,
  'productID' | 'variationID' | 'variationName' | 'variationValue' | 'baseSize'
>;

/** A photo cake's photo waiting in the outbox, for the order's line `item`. */
export interface OutboxPhoto {
  item: number;
  /** The upload's Idempotency-Key, made when the photo was chosen. */
  key: string;
  /** Dropped once the order is placed: the shop has it. */
  blob?: Blob;
  /** What the upload answered; null until then. */
  photoID: string | null;
}

/** A stored row as this version reads it; rows from an older or newer format are brought to this one. */
export function upgradeRow(raw: Partial<OutboxRow> & Pick<OutboxRow, 'key'>): OutboxRow {
  const request = raw.request as OrderRequestInput;
  const total = typeof request?.TotalAmount === 'number' ? request.TotalAmount : 0;
  return {
    v: OUTBOX_ROW_VERSION,
    key: raw.key,
    userId: raw.userId ?? 0,
    email: raw.email ?? '',
    state: raw.state ?? 'queued',
    request,
    // Rows queued before delivery slots have no slot charge: theirs was Standard, free.
    figures: raw.figures
      ? { ...raw.figures, slotCharge: raw.figures.slotCharge ?? 0 }
      : {
          subtotal: total,
          deliveryCharge: 0,
          slotCharge: 0,
          discount: 0,
          total,
          couponAmount: 0,
        },
    slot: raw.slot ?? null,
    createdAt: raw.createdAt ?? Date.now(),
    attempts: raw.attempts ?? 0,
    nextAttemptAt: raw.nextAttemptAt ?? 0,
    lastError: raw.lastError ?? null,
    placed: raw.placed ?? null,
    problem: raw.problem ?? null,
    refusedToken: raw.refusedToken ?? null,
    announced: raw.announced ?? false,
    updatedAt: raw.updatedAt ?? Date.now(),
    photos: raw.photos,
    lines: raw.lines,
  };
}

/**
 * A payment in progress (Dexie table `payments`, keyed by the order's Idempotency-Key): stored
 * when the provider order is answered, before Checkout opens, and deleted in the transaction that
 * puts its order into the outbox. A row still here when the shop opens again is a payment whose
 * page died (in the UPI app, most often): `web/checkout/payment-resume.ts` asks the server what
 * became of it. Everything the outbox row would need is kept, so a placed order shows as the
 * checkout would have shown it, and a second try pays with the same provider order.
 */
export interface PaymentRow {
  /** The Idempotency-Key of the provider order and of the order placed after it. */
  key: string;
  userId: number;
  email: string;
  providerOrder: ProviderOrder;
  /** The outbox row's making (`queueOrder`'s `NewOrder` without the key and account). */
  order: PaymentOrder;
  createdAt: number;
  /**
   * When its lines were ordered another way (queued, placed, or paid under another key): never
   * offered again; the resume asks the server to close its provider order, then drops it.
   */
  endedAt?: number;
}

export interface PaymentOrder {
  /** As priced for the provider order: no payment proof yet. */
  request: OrderRequestInput;
  figures: QueuedFigures;
  slot?: SlotOffer | null;
  /** The cart lines it pays for: they leave the cart with the order, never before. */
  cartKeys: readonly string[];
  /** Uploaded before the provider order, so kept by id (the Blobs stay in the cart lines). */
  photos?: Omit<OutboxPhoto, 'blob'>[];
  lines?: QueuedLine[];
}

/** A payment in progress as the phone shows it, once asked about (or not: offline). */
export interface PaymentFound {
  row: PaymentRow;
  on: Exclude<PaymentOnPhone, { kind: 'gone' }>;
}
