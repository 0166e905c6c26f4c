/**
 * Pricing an order as the server sees it: where (the pincode's delivery area and the slots it
 * gets), when (the date and the slot's place), what (the products re-priced from the database) and
 * the coupon, compared with the figures the shopper saw. Place-order and the payment provider's
 * order (`api/payments`) both quote; a paid order the server places itself keeps its figures.
 */
import type { Kysely, Transaction } from 'kysely';
import { earliestDeliveryDate, latestDeliveryDate } from '../../domain/delivery.js';
import { areaMatches, areaMessages, type DeliveryArea } from '../../domain/delivery-areas.js';
import { firstDateFor } from '../../domain/delivery-promise.js';
import { indiaClock, isCalendarDate } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import {
  comparePricing,
  type OrderRequest,
  type OrderTotals,
  orderTotals,
  type RepricedRefusal,
} from '../../domain/orders.js';
import { paymentCartMessages } from '../../domain/payment-cart.js';
import { type DeliverySlot, defaultSlot } from '../../domain/slots.js';
import { type CheckedCoupon, checkCoupon } from '../coupons/coupon.service.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, HttpError } from '../http/errors.js';
import { earliestBookableDate, takeSlot, type UnpaidCap } from '../slots/slot.service.js';
import { checkCodRules } from './cod.js';
import { type PricedOrderLine, priceItems } from './order.pricing.js';
import { databaseFacts, type OrderFacts } from './order-facts.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface Quote {
  lines: PricedOrderLine[];
  totals: OrderTotals;
  coupon: CheckedCoupon | null;
  slot: DeliverySlot;
  /** The pincode's area: the order keeps its city and state as the area writes them. */
  area: DeliveryArea;
}

export type PricingRequest = Pick<
  OrderRequest,
  | 'DeliveryDate'
  | 'DeliverySlotID'
  | 'State'
  | 'City'
  | 'CustomerPincode'
  | 'OrderItems'
  | 'CouponCode'
  | 'TotalAmount'
  | 'PaymentMethod'
>;

/** In an order's transaction: the slot's place is counted under its lock (see `takeSlot`). */
export type SlotLock = { trx: Transaction<Database>; dialect: Dialect } | null;

export interface QuoteOptions {
  lock?: SlotLock;
  /** An order that holds its place without paying: capped per account (`takeSlot`). */
  cap?: UnpaidCap | null;
  /** A paid order the server places itself: its figures (below). */
  kept?: KeptPricing | null;
  /** Online payment is offered: the owner's Cash on Delivery rules apply (`cod.ts`). */
  paysOnline?: boolean;
  /** The areas, slots, closed dates and products, kept per catalogue version (`order-facts.ts`). */
  facts?: OrderFacts | null;
}

/**
 * The figures a provider order was made for, kept with it (`payments.request_json`): a paid order
 * the server places itself is written with them, since the shopper already paid that amount.
 */
export interface KeptPricing {
  lines: PricedOrderLine[];
  totals: OrderTotals;
  /**
   * Paid after the price window (`domain/payment-cart.ts`): the kept figures hold only if today's
   * are not higher; otherwise the order is refused (and the payment refunded).
   */
  stale?: boolean;
}

/**
 * The delivery area of an order: its pincode must be one the shop delivers to, and its State and
 * City that pincode's (the checkout fills them from it). Both refusals are 422s: the order as it
 * stands can never go, and a queued one waits for the shopper with the reason.
 */
async function areaOf(facts: OrderFacts, body: PricingRequest): Promise<DeliveryArea> {
  const pincode = body.CustomerPincode;
  const area = await facts.area(pincode);
  if (!area) throw new HttpError(422, areaMessages.outside(pincode), { reason: 'undeliverable', pincode });
  if (!areaMatches(area, body.State, body.City)) {
    throw new HttpError(422, areaMessages.mismatch(pincode, area), {
      reason: 'pincode-mismatch',
      pincode,
      city: area.city,
      state: area.state,
    });
  }
  return area;
}

/**
 * A slot the area does not get is refused before its place is counted: "full" would be the
 * wrong reason for a slot this pincode never has. An unknown slot id is left to `takeSlot`.
 */
function checkSlotOfArea(all: DeliverySlot[], area: DeliveryArea, requested: number | null | undefined) {
  if (area.slotIDs === null) return;
  const slot = requested
    ? (all.find((s) => s.slotID === requested) ?? null)
    : defaultSlot(all.filter((s) => !s.retired));
  if (slot && !area.slotIDs.includes(slot.slotID)) {
    throw new HttpError(422, areaMessages.slotNotHere(slot.name, area.pincode), {
      reason: 'slot-not-here',
      pincode: area.pincode,
      slotID: slot.slotID,
    });
  }
}

/**
 * Prices a request and refuses it (409 with old and new figures) when the shopper saw other
 * figures. The pincode decides the area (`areaOf`), its delivery charge and the slots it gets.
 * The date must be a day from today (India) within the booking horizon, tomorrow at the earliest
 * where the area has no same-day delivery; whether that day can still be had is its slot's
 * cut-off, capacity and the shop's closed dates (a 409 with the slots as they now stand,
 * `domain/slots.ts`). With `kept` (a paid order the server places itself), the products are still
 * looked up (a deleted one refuses it) but the kept figures are the order's: nothing is repriced,
 * no 409 after the shopper paid.
 */
export async function quote(
  db: Db,
  userId: number,
  body: PricingRequest,
  now: Date,
  { lock = null, cap = null, kept = null, paysOnline = false, facts = null }: QuoteOptions = {},
): Promise<Quote> {
  const known = facts ?? databaseFacts(db);
  const area = await areaOf(known, body);
  const day = body.DeliveryDate;
  const today = indiaClock(now).date;
  const tooEarly = isCalendarDate(day) && day < today;
  // Today, where the area has no same-day delivery (the product page's promise says the same).
  const notToday =
    isCalendarDate(day) && !tooEarly && day < firstDateFor(area, { photoCake: false, noticeDays: 0, now });
  if (!isCalendarDate(day) || tooEarly || notToday || day > latestDeliveryDate(now)) {
    // The dates travel with the refusal: a queued order whose day has passed offers the new earliest.
    const dates = {
      reason: 'delivery-date',
      earliestDeliveryDate: (await earliestBookableDate(db, now, area)) ?? earliestDeliveryDate(now),
      latestDeliveryDate: latestDeliveryDate(now),
    } as const;
    if (notToday) throw new HttpError(422, areaMessages.noSameDay(area.pincode), dates);
    if (tooEarly) throw badRequest(messages.deliveryDateTooEarly(dates.earliestDeliveryDate), dates);
    if (isCalendarDate(day)) throw badRequest(messages.deliveryDateTooLate(dates.latestDeliveryDate), dates);
    throw badRequest(messages.deliveryDateInvalid, dates);
  }
  const slots = await known.slots();
  checkSlotOfArea(slots, area, body.DeliverySlotID);
  const closures = await known.closures(indiaClock(now).date);
  const slot = await takeSlot(db, body.DeliverySlotID, day, now, lock, cap, { slots, closures });
  // Pricing again still refuses a product that is gone; a paid order keeps the figures it was paid at.
  const lines = await priceItems(db, body.OrderItems, known.products);
  let coupon: CheckedCoupon | null = null;
  let couponProblem: string | null = null;
  if (body.CouponCode) {
    try {
      // The basket's minimum is judged on the items the order is written at: a paid order's kept ones.
      const subtotal = (kept?.totals ?? orderTotals(lines, 0, null)).subtotal;
      coupon = await checkCoupon(db, body.CouponCode, userId, now.getTime(), subtotal);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A coupon that no longer holds is priced as no coupon: the comparison shows the shopper the difference.
      couponProblem = err.message;
    }
  }
  if (kept) return keptQuote(kept, { fresh: lines, body, coupon, couponProblem, area, slot });
  const totals = orderTotals(lines, area.charge, coupon?.off ?? null, slot.surcharge);
  // Before the figures are compared: an order that cannot go as Cash on Delivery is refused for
  // that, and nobody is asked to confirm new figures for it.
  await checkCodRules(db, body, totals.total, paysOnline);
  const changed = comparePricing({ items: body.OrderItems, total: body.TotalAmount }, lines, totals);
  if (changed) {
    const data: RepricedRefusal = {
      reason: 'repriced',
      ...changed,
      coupon: body.CouponCode
        ? { code: body.CouponCode, applied: coupon !== null, message: couponProblem }
        : null,
    };
    throw conflict(couponProblem ?? messages.pricesChanged, data);
  }
  return { lines, totals, coupon, slot, area };
}

/**
 * A paid order the server places itself is written at the figures the shopper paid, but only as
 * they were honestly had: a coupon that no longer holds for this account (used since, on another
 * paid order, or by anyone for a shop-wide single-use one) refuses the order, and so does a price
 * window that passed while today's figures are higher. The payment is then refunded in full
 * (`paid-orders.ts`). A discount is never written without the coupon that gave it.
 */
function keptQuote(
  kept: KeptPricing,
  q: {
    fresh: PricedOrderLine[];
    body: PricingRequest;
    coupon: CheckedCoupon | null;
    couponProblem: string | null;
    area: DeliveryArea;
    slot: DeliverySlot;
  },
): Quote {
  const code = q.body.CouponCode;
  if (code && !q.coupon) throw conflict(paymentCartMessages.couponGone(code, q.couponProblem ?? ''));
  if (kept.totals.discount > 0 && !q.coupon) throw conflict(messages.couponInvalid);
  if (kept.stale) {
    const today = orderTotals(q.fresh, q.area.charge, q.coupon?.off ?? null, q.slot.surcharge);
    if (today.total > kept.totals.total) throw conflict(paymentCartMessages.priceWindowOver);
  }
  const lines = kept.lines.map((l, i) => ({ ...l, image: l.image || (q.fresh[i]?.image ?? '') }));
  return { lines, totals: kept.totals, coupon: q.coupon, slot: q.slot, area: q.area };
}
