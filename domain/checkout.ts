/**
 * The checkout form's rules: the same order schema the server validates
 * with, plus the date window of the 6 PM cut-off, turned into one message per
 * field (the spec's texts). The figures are `orderTotals`, the server's own.
 */
import * as v from 'valibot';
import type { CartLine } from './cart.js';
import { checkDeliveryDate, deliveryCharge, latestDeliveryDate } from './delivery.js';
import { indiaClock, isCalendarDate } from './india-time.js';
import { messages } from './messages.js';
import type { LineOption } from './order-lines.js';
import { type OrderRequestInput, OrderRequestSchema, type OrderTotals, orderTotals } from './orders.js';
import { slotMessages } from './slot-messages.js';
import type { SlotState } from './slots.js';

export type CheckoutField =
  | 'DeliveryDate'
  | 'DeliverySlotID'
  | 'CustomerName'
  | 'State'
  | 'City'
  | 'CustomerAddress'
  | 'CustomerPincode'
  | 'PaymentMethod';

/** The form's fields in screen order (the first with an error takes the focus). */
export const CHECKOUT_FIELDS: readonly CheckoutField[] = [
  'DeliveryDate',
  'DeliverySlotID',
  'CustomerName',
  'State',
  'City',
  'CustomerAddress',
  'CustomerPincode',
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
  if (!errors.DeliveryDate && slot !== undefined && slot?.state !== 'open') {
    errors.DeliverySlotID = slotMessages.pickSlot;
  }
  return errors;
}

/** The checkout's figures from the cart lines, the delivery place, the verified coupon amount and the slot's surcharge. */
export function checkoutTotals(
  lines: readonly Pick<CartLine, 'price' | 'quantity'>[],
  state: string,
  city: string,
  couponAmount: number,
  slotCharge = 0,
): OrderTotals {
  return orderTotals(
    lines.map((l) => ({ unitPrice: l.price, quantity: l.quantity })),
    deliveryCharge(state, city),
    couponAmount,
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
