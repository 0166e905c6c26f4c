import * as v from 'valibot';
import type { CartLine } from './cart.js';
import { checkDeliveryDate, deliveryCharge } from './delivery.js';
import { messages } from './messages.js';
import { type OrderRequestInput, OrderRequestSchema, type OrderTotals, orderTotals } from './orders.js';

/**
 * The checkout form's rules: the same order schema the server validates
 * with, plus the date window of the 6 PM cut-off, turned into one message per
 * field (the spec's texts). The figures are `orderTotals`, the server's own.
 */
export type CheckoutField =
  | 'DeliveryDate'
  | 'CustomerName'
  | 'State'
  | 'City'
  | 'CustomerAddress'
  | 'CustomerPincode'
  | 'PaymentMethod';

/** The form's fields in screen order (the first with an error takes the focus). */
export const CHECKOUT_FIELDS: readonly CheckoutField[] = [
  'DeliveryDate',
  'CustomerName',
  'State',
  'City',
  'CustomerAddress',
  'CustomerPincode',
  'PaymentMethod',
];

export type FieldErrors = Partial<Record<CheckoutField, string>>;

export function checkoutErrors(request: OrderRequestInput, now: Date): FieldErrors {
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
  if (!errors.DeliveryDate && !checkDeliveryDate(request.DeliveryDate, now).ok) {
    errors.DeliveryDate = messages.deliveryDateInvalid;
  }
  return errors;
}

/** The checkout's figures from the cart lines, the delivery place and the verified coupon amount. */
export function checkoutTotals(
  lines: readonly Pick<CartLine, 'price' | 'quantity'>[],
  state: string,
  city: string,
  couponAmount: number,
): OrderTotals {
  return orderTotals(
    lines.map((l) => ({ unitPrice: l.price, quantity: l.quantity })),
    deliveryCharge(state, city),
    couponAmount,
  );
}

/** The order's lines as the request carries them (ids, so the server prices the exact product and option). */
export function orderItems(lines: readonly CartLine[]): OrderRequestInput['OrderItems'] {
  return lines.map((l) => ({
    ProductID: l.productID,
    VariationID: l.variationID,
    ProductName: l.title,
    Price: l.price,
    Quantity: l.quantity,
    ProductImage: l.image,
  }));
}

/** Digits only, at most 6, as the pincode box accepts them while typing. */
export function pincodeInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}
