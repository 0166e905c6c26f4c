/**
 * The checkout form's rules: the same order schema the server validates
 * with, plus the date window of the 6 PM cut-off, turned into one message per
 * field (the spec's texts). The address starts from the pincode: its delivery
 * area (`delivery-areas.ts`) gives the State, the City, the charge, the slots
 * and whether today is offered, as the server judges the order. The figures
 * are `orderTotals`, the server's own.
 */
import * as v from 'valibot';
import type { CartLine } from './cart.js';
import { checkoutMessages } from './checkout-messages.js';
import type { CouponOff } from './coupon-terms.js';
import { checkDeliveryDate, earliestDeliveryDate, isValidPincode, latestDeliveryDate } from './delivery.js';
import { areaMessages, type DeliveryArea, deliveryAreasText, slotsOfArea } from './delivery-areas.js';
import { firstDateFor, openSlotsFrom } from './delivery-promise.js';
import { earliestPhotoCakeDate } from './gifts.js';
import { indiaClock, isCalendarDate } from './india-time.js';
import { messages } from './messages.js';
import type { LineOption } from './order-lines.js';
import { type OrderRequestInput, OrderRequestSchema, type OrderTotals, orderTotals } from './orders.js';
import { slotMessages } from './slot-messages.js';
import type { ClosedDate, DeliverySlot } from './slot-schema.js';
import { earliestSlotDate, type SlotState } from './slots.js';

export type CheckoutField =
  | 'DeliveryDate'
  | 'DeliverySlotID'
  | 'CustomerName'
  | 'State'
  | 'City'
  | 'CustomerAddress'
  | 'CustomerPincode'
  | 'PaymentMethod';

/** The form's fields in screen order (the first with an error takes the focus): the pincode leads. */
export const CHECKOUT_FIELDS: readonly CheckoutField[] = [
  'CustomerPincode',
  'State',
  'City',
  'DeliveryDate',
  'DeliverySlotID',
  'CustomerName',
  'CustomerAddress',
  'PaymentMethod',
];

export type FieldErrors = Partial<Record<CheckoutField, string>>;

/**
 * `slot`: the chosen slot's state on the chosen date (`domain/slots.ts`), null when none is
 * chosen, undefined on a device that has no slots yet (the spec's date rule alone, Standard).
 * With slots, a date is valid from today (India): whether it can be had is its slot's cut-off.
 */
export function checkoutErrors(
  request: OrderRequestInput,
  now: Date,
  slot?: { state: SlotState } | null,
  where?: AreaLookup,
): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = v.safeParse(OrderRequestSchema, request);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const key = issue.path?.[0]?.key;
      if (typeof key === 'string' && (CHECKOUT_FIELDS as readonly string[]).includes(key)) {
        const field = key as CheckoutField;
        errors[field] ??= issue.message;
      }
    }
  }
  const date = request.DeliveryDate;
  const dateOk =
    slot === undefined
      ? checkDeliveryDate(date, now).ok
      : isCalendarDate(date) && date >= indiaClock(now).date && date <= latestDeliveryDate(now);
  if (!errors.DeliveryDate && !dateOk) {
    errors.DeliveryDate = messages.deliveryDateInvalid;
  }
  const pincode = String(request.CustomerPincode);
  if (where) {
    const problem = pincodeProblem(pincode, where);
    if (problem) errors.CustomerPincode = problem;
    // State and City are the pincode's, shown and never typed: what is wrong is the pincode.
    if (errors.CustomerPincode || where.area) {
      delete errors.State;
      delete errors.City;
    }
    if (!errors.DeliveryDate && where.area && !where.area.sameDay && date === indiaClock(now).date)
      errors.DeliveryDate = areaMessages.noSameDay(pincode);
  }
  if (!errors.DeliveryDate && slot !== undefined && slot?.state !== 'open') {
    errors.DeliverySlotID = slotMessages.pickSlot;
  }
  return errors;
}

/**
 * What the device knows of the typed pincode: its area (null: the shop does not deliver there;
 * undefined: not looked up yet) and every area, to say where the shop does deliver.
 */
export interface AreaLookup {
  area: DeliveryArea | null | undefined;
  areas: readonly DeliveryArea[];
}

/**
 * What is wrong with the pincode as soon as it is whole (6 digits), before Place Order: not a
 * pincode, or one the shop does not deliver to ("We don't deliver to 110001 yet. Same-day delivery
 * in …"). While it is shorter, nothing: the form's own "Pincode is required" comes on submit.
 */
export function pincodeProblem(pincode: string, where: AreaLookup): string | null {
  if (pincode.length < 6) return null;
  if (!isValidPincode(pincode)) return areaMessages.pincodeInvalid;
  if (where.area !== null) return null;
  // No areas at all: this device has not synced them yet, which says nothing about the pincode.
  if (where.areas.length === 0) return checkoutMessages.areasNotOnPhone;
  return `${areaMessages.outside(pincode)} ${deliveryAreasText(where.areas)}.`;
}

export interface DateFacts {
  /** The shop's slots and closed dates on the device; no slots: the spec's date rule, Standard. */
  slots: readonly DeliverySlot[];
  closures: readonly ClosedDate[];
  /** A photo cake in the cart waits for the shop's notice (`photoCakeNoticeDays`). */
  photoCake: boolean;
  noticeDays: number;
  now: Date;
}

/**
 * The date field's window start and the date it suggests. With the pincode's area: the first date
 * it gets (today only where same-day, a photo cake's notice) on which one of its slots is open,
 * as the product page promised; the suggestion also leaves today once the 6 PM cut-off has passed
 * (the spec's default). Without an area yet: the same over every slot of the shop.
 */
export function checkoutDates(
  area: DeliveryArea | null | undefined,
  facts: DateFacts,
): { earliest: string; suggested: string } {
  const { now } = facts;
  const spec = earliestDeliveryDate(now);
  const later = (a: string, b: string) => (a > b ? a : b);
  if (area) {
    const first = firstDateFor(area, facts);
    if (!facts.slots.length) {
      const earliest = later(first, spec);
      return { earliest, suggested: earliest };
    }
    const earliest = openSlotsFrom(area, { ...facts, areas: [area] })?.date ?? first;
    const suggested =
      earliestSlotDate(slotsOfArea(area, facts.slots), facts.closures, now, later(earliest, spec)) ??
      earliest;
    return { earliest, suggested };
  }
  const photo = facts.photoCake ? earliestPhotoCakeDate(now, facts.noticeDays) : null;
  const shop = (facts.slots.length ? earliestSlotDate(facts.slots, facts.closures, now) : null) ?? spec;
  const earliest = photo && photo > shop ? photo : shop;
  const from = later(earliest, spec);
  const suggested =
    (facts.slots.length ? earliestSlotDate(facts.slots, facts.closures, now, from) : null) ?? from;
  return { earliest, suggested };
}

/**
 * The checkout's figures from the cart lines, the pincode's area (its charge; none until the
 * pincode is known), what the applied coupon takes off and the slot's surcharge.
 */
export function checkoutTotals(
  lines: readonly Pick<CartLine, 'price' | 'quantity'>[],
  area: Pick<DeliveryArea, 'charge'> | null | undefined,
  coupon: CouponOff | number | null,
  slotCharge = 0,
): OrderTotals {
  return orderTotals(
    lines.map((l) => ({ unitPrice: l.price, quantity: l.quantity })),
    area?.charge ?? 0,
    coupon,
    slotCharge,
  );
}

/**
 * The order's lines as the request carries them (ids, so the server prices the exact product and
 * option). A cake's message goes as typed; a photo's id is not known yet: the outbox uploads the
 * photo and fills `PhotoID` in before it sends the order. A line with neither sends neither field,
 * so an order without gifts is the request it always was.
 */
export function orderItems(lines: readonly CartLine[]): OrderRequestInput['OrderItems'] {
  return lines.map((l) => ({
    ProductID: l.productID,
    VariationID: l.variationID,
    ProductName: l.title,
    Price: l.price,
    Quantity: l.quantity,
    ProductImage: l.image,
    ...(l.cakeMessage ? { CakeMessage: l.cakeMessage } : {}),
  }));
}

/**
 * What a cart line chose, in an order line's terms (`domain/order-lines.ts`), to show an order
 * before the server answers as it will show once placed: a variation's name and value; the base
 * option's size, with no name. A line kept before values were names its option alone: the
 * shop records the value when the order arrives, so "size not recorded" would not be true.
 */
export function cartLineOption(
  line: Pick<CartLine, 'variationID' | 'variationName' | 'variationValue' | 'baseSize'>,
): LineOption {
  if (line.variationID === null) return { variationName: null, variationValue: line.baseSize ?? '' };
  return { variationName: line.variationName, variationValue: line.variationValue ?? '' };
}

/** Digits only, at most 6, as the pincode box accepts them while typing. */
export function pincodeInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}
