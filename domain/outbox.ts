/**
 * The order outbox's rules, pure: how each answer of `POST /place-order` is
 * handled, and how long a retried order waits. The device's sender
 * (`sw/outbox.ts`) applies them; the tests drive them answer by answer.
 *
 * Three kinds of answer, each with one handling:
 * - `sent`: a 2xx with the placed order (a replay of a committed order is the
 *   same answer, so a lost answer is simply asked for again);
 * - `retry`: nothing definite happened (network failure, 5xx, 429, or the
 *   same key still running): the same key is sent again later, forever;
 * - `attention`: the server refused this order as it is; only the shopper can
 *   decide (confirm new figures, fix a line or a date, sign in, cancel). It
 *   waits alone and never blocks the orders behind it.
 */
import type { OrderRefusalData, PlacedOrder, RepricedRefusal } from './orders.js';
import type { SlotRefusal } from './slots.js';

export type ProblemKind =
  /** Figures changed (price, delivery charge, coupon): old and new side by side. */
  | 'repriced'
  /** A line's product or option left the shop: remove the line, or cancel. */
  | 'product-gone'
  /** The date is no longer offered (a same-day order that missed 6 PM): pick another. */
  | 'delivery-date'
  /**
   * The delivery slot filled up, passed its cut-off, or its date closed: the next free slots are
   * offered and the shopper picks one (the order is never moved without them).
   */
  | 'slot'
  /**
   * The address is not one the shop delivers to (its pincode left the delivery areas while the
   * phone was offline, or its city is not its pincode's): change the address, or cancel.
   */
  | 'undeliverable'
  /**
   * The owner's Cash on Delivery rules refuse it (a limit lowered, COD turned off while the phone
   * was away: 422 `reason: 'cod'`, domain/cod-rules.ts): pay online, or cancel.
   */
  | 'cod'
  /** 401 (or no session on the device for the order's account): sign in, then it continues. */
  | 'signin'
  /** 422 or `key-reused`: the same key with another body. A defect of the app, never resent as it is. */
  | 'defect'
  /** Any other refusal (bad input, a payment the server could not verify): the server's reason, or cancel. */
  | 'refused';

export interface OutboxProblem {
  kind: ProblemKind;
  status: number;
  message: string;
  data: unknown;
}

export type Outcome =
  | { kind: 'sent'; order: PlacedOrder }
  | {
      kind: 'retry';
      /** The server said when (Retry-After); null: our own back-off. */
      afterMs: number | null;
      /** True when the failure says nothing about this order (network down, rate limited): the rest of the pass waits too. */
      transport: boolean;
      reason: string;
    }
  | { kind: 'attention'; problem: OutboxProblem };

/** What the sender saw: the HTTP status (0 for a network failure or timeout), the parsed body, Retry-After. */
export interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

interface EnvelopeLike {
  isSuccess?: unknown;
  data?: unknown;
  sys_message?: unknown;
}

function envelopeOf(body: unknown): EnvelopeLike {
  return typeof body === 'object' && body !== null ? (body as EnvelopeLike) : {};
}

function reasonOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const r = (data as { reason?: unknown }).reason;
  return typeof r === 'string' ? r : null;
}

/** Retry-After in seconds or as an HTTP date, in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function isPlacedOrder(x: unknown): x is PlacedOrder {
  return typeof x === 'object' && x !== null && typeof (x as { orderID?: unknown }).orderID === 'number';
}

/** One answer, one handling. `now` only reads an HTTP-date Retry-After. */
export function classifyAnswer(answer: Answer, now: number): Outcome {
  const { status, body } = answer;
  const envelope = envelopeOf(body);
  const message = typeof envelope.sys_message === 'string' ? envelope.sys_message : '';
  const data = envelope.data ?? null;
  const reason = reasonOf(data);

  if (status === 0) return { kind: 'retry', afterMs: null, transport: true, reason: 'network' };
  if (status >= 200 && status < 300) {
    // A 2xx that is not our envelope (a captive portal's page, a proxy) placed nothing we can show: ask again.
    if (envelope.isSuccess === true && isPlacedOrder(data)) return { kind: 'sent', order: data };
    return { kind: 'retry', afterMs: null, transport: true, reason: `unreadable ${status}` };
  }
  if (status === 429)
    return {
      kind: 'retry',
      afterMs: retryAfterMs(answer.retryAfter, now),
      transport: true,
      reason: 'rate limited',
    };
  if (status >= 500)
    return {
      kind: 'retry',
      afterMs: retryAfterMs(answer.retryAfter, now),
      transport: false,
      reason: `${status}`,
    };
  if (status === 409 && reason === 'in-progress')
    return {
      kind: 'retry',
      afterMs: retryAfterMs(answer.retryAfter, now) ?? 1000,
      transport: false,
      reason: 'in progress',
    };
  const problem = (kind: ProblemKind): Outcome => ({
    kind: 'attention',
    problem: { kind, status, message, data },
  });
  if (status === 401) return problem('signin');
  // The delivery areas' refusals are 422s about the address, the date or the slot: the shopper
  // fixes them. Only a 422 without one of them is the defect of a reused key.
  const area = status === 422 ? areaRefusal(reason, data) : null;
  if (area) return problem(area);
  if (status === 422 && reason === 'cod') return problem('cod');
  if (status === 422 || reason === 'key-reused') return problem('defect');
  if (status === 409 && reason === 'repriced') return problem('repriced');
  if (reason === 'product-gone') return problem('product-gone');
  if (reason === 'delivery-date') return problem('delivery-date');
  if (reason === 'slot') return problem('slot');
  if (reason === 'undeliverable') return problem('undeliverable');
  // Any other 4xx (a 408 from a proxy aside) is a refusal of this body: resending it unchanged would be refused again.
  if (status === 408) return { kind: 'retry', afterMs: null, transport: true, reason: 'timeout' };
  return problem('refused');
}

/**
 * What a 422 of the delivery areas asks of the shopper: a pincode outside the areas or not its
 * city's, a new address; no same-day delivery there, another date when the refusal carries the
 * dates; a slot the pincode does not get, one of the offered slots when it carries them. Without
 * those, a new address (the dates and slots are the pincode's). Null: not the areas' refusal.
 */
function areaRefusal(reason: string | null, data: unknown): ProblemKind | null {
  if (reason === 'undeliverable' || reason === 'pincode-mismatch') return 'undeliverable';
  if (reason === 'no-same-day' || reason === 'delivery-date')
    return asDeliveryDate(data) ? 'delivery-date' : 'undeliverable';
  if (reason?.startsWith('slot')) return asSlotRefusal(data) ? 'slot' : 'undeliverable';
  return null;
}

/**
 * One answer to a cake photo's upload (`POST /api/cake-photos`), which comes before its
 * order: the photo's id, or what the order does instead. The upload carries its own key, so a
 * lost answer is simply asked for again, as an order's is. A refusal (any 4xx but 401, 408 and
 * 429) makes the order wait for the shopper, with the server's reason: the order never goes
 * without its photo.
 */
export function classifyPhotoAnswer(
  answer: Answer,
  now: number,
  product: string,
): { kind: 'uploaded'; photoID: string } | Exclude<Outcome, { kind: 'sent' }> {
  const { status } = answer;
  const envelope = envelopeOf(answer.body);
  const photoID = (envelope.data as { photoID?: unknown } | null)?.photoID;
  if (status >= 200 && status < 300 && envelope.isSuccess === true && typeof photoID === 'string')
    return { kind: 'uploaded', photoID };
  if (status === 401 || status === 408 || status === 429 || status >= 500 || status < 400) {
    const outcome = classifyAnswer(answer, now);
    // A 2xx that is not the photo's answer (a captive portal's page) proved nothing: ask again.
    return outcome.kind === 'sent'
      ? { kind: 'retry', afterMs: null, transport: true, reason: `unreadable ${status}` }
      : outcome;
  }
  const reason = typeof envelope.sys_message === 'string' ? envelope.sys_message : '';
  return {
    kind: 'attention',
    problem: { kind: 'refused', status, message: photoRefused(product, reason), data: envelope.data ?? null },
  };
}

/** What a shopper reads when the shop refused the photo of a queued photo cake. */
export function photoRefused(product: string, reason: string): string {
  return `The shop could not take the photo for ${product}${reason ? `: ${reason}` : '.'} Cancel this order to put it back in your cart, then choose another photo.`;
}

export const BACKOFF_FIRST_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/**
 * The wait before attempt `failures + 1`: 2 s doubling to 5 min, with jitter
 * (between half and all of it) so a shop's phones coming back online together
 * do not knock at the same instant. `random` is in [0, 1).
 */
export function backoffMs(failures: number, random: number): number {
  const n = Math.max(1, Math.floor(failures));
  const full = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(n - 1, 20));
  return Math.round(full / 2 + (full / 2) * Math.min(Math.max(random, 0), 1));
}

export type RefusalData = OrderRefusalData;
export type { RepricedRefusal };

/** A refusal's data narrowed to the repriced kind (old and new figures). */
export function asRepriced(data: unknown): RepricedRefusal | null {
  return reasonOf(data) === 'repriced' ? (data as RepricedRefusal) : null;
}

/**
 * A refusal's data narrowed to the delivery-date kind (the dates the server accepts now): a date
 * past its cut-off, or today where the pincode has no same-day delivery. A no-same-day refusal
 * without its dates is not one: there are no dates to offer.
 */
export function asDeliveryDate(
  data: unknown,
): { earliestDeliveryDate: string; latestDeliveryDate: string } | null {
  const reason = reasonOf(data);
  if (reason === 'delivery-date') return data as { earliestDeliveryDate: string; latestDeliveryDate: string };
  if (reason !== 'no-same-day') return null;
  const d = data as { earliestDeliveryDate?: unknown; latestDeliveryDate?: unknown };
  return typeof d.earliestDeliveryDate === 'string' && typeof d.latestDeliveryDate === 'string'
    ? { earliestDeliveryDate: d.earliestDeliveryDate, latestDeliveryDate: d.latestDeliveryDate }
    : null;
}

/**
 * A refusal's data narrowed to the slot kind (the date's slots now, and the next free ones): a
 * slot that filled or passed its cut-off, or one the pincode does not get ("slot-…").
 */
export function asSlotRefusal(data: unknown): SlotRefusal | null {
  if (!reasonOf(data)?.startsWith('slot')) return null;
  const next = (data as { next?: unknown }).next;
  return Array.isArray(next) ? (data as SlotRefusal) : null;
}

/** The line a product-gone refusal names, to remove it. */
export function goneLine(
  data: unknown,
): { productID: number | null; productName?: string; variationID?: number } | null {
  return reasonOf(data) === 'product-gone'
    ? (data as { productID: number | null; productName?: string; variationID?: number })
    : null;
}
