/**
 * The order as the spec's client sends it (section 3, "Order request"), plus
 * what we add so the server can price it: `ProductID` and `VariationID` per
 * item, `CouponCode`, and the provider's order id and signature for online
 * payment. Field names are the spec's; messages are the spec's where it has one.
 *
 * The figures in it (`Price`, `TotalAmount`) are what the shopper saw. The
 * server never believes them: it re-prices every line and compares (see
 * `comparePricing`), so the shopper confirms any change before paying it.
 */
import * as v from 'valibot';
import { EmailSchema } from './accounts.js';
import { MAX_LINE_QUANTITY } from './cart.js';
import { type CouponOff, couponDiscount } from './coupon-terms.js';
import { DeliverToSchema } from './deliver-to.js';
import { isValidPincode } from './delivery.js';
import {
  CakeMessageSchema,
  GiftCardSchema,
  lineGiftEntries,
  orderGiftEntries,
  PhotoIDSchema,
  RecipientSchema,
} from './gifts.js';
import { isCalendarDate } from './india-time.js';
import { messages } from './messages.js';
import {
  normalizePaymentMethod,
  PAYMENT_METHODS,
  type PaymentMethod,
  PaymentMethodSchema,
} from './payment-methods.js';
import { mobileDigits } from './phone.js';
import { singleLine, tooLongMessage } from './single-line.js';
import { OrderSlotSchema, type SlotRefusal } from './slots.js';
import { IdSchema } from './validation.js';

export const ORDER_STATUSES = [
  'placed',
  'paid',
  'confirmed',
  'out for delivery',
  'delivered',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const OrderStatusSchema = v.picklist(ORDER_STATUSES);
/**
 * The orders the kitchen makes and a driver takes: every one not cancelled. The day's slips and
 * the packing list take only these, whatever the list's status filter says: a cancelled (and
 * refunded) cake is never baked.
 */
export const PACKED_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => s !== 'cancelled');
/** A whole number in an answer (ids, rupees, counts). */
const int = v.pipe(v.number(), v.integer());

/**
 * A placed order's line as the server stored it (the admin's order page and the shopper's own):
 * the name and picture it was ordered with, its unit price and total in rupees.
 */
export const OrderLineSchema = v.object({
  productID: int,
  productName: v.string(),
  variationName: v.nullable(v.string()),
  /** The option chosen ("1 kg"); '' for a product with no size; null: an old order did not record it. */
  variationValue: v.nullable(v.string()),
  productImage: v.string(),
  unitPrice: int,
  quantity: int,
  lineTotal: int,
  /** The message on the cake and the photo's id; null when none. */
  ...lineGiftEntries,
});
export type OrderLine = v.InferOutput<typeof OrderLineSchema>;

/**
 * Where an admin may move an order. "paid" is reached only by a verified
 * payment, never by hand; delivered and cancelled are final.
 */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  placed: ['confirmed', 'cancelled'],
  paid: ['confirmed', 'cancelled'],
  confirmed: ['out for delivery', 'cancelled'],
  'out for delivery': ['delivered'],
  delivered: [],
  cancelled: [],
};

export function canMoveTo(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUSES[from].includes(to);
}

export const OrderStatusUpdateSchema = v.object({
  status: v.picklist(ORDER_STATUSES, `The status must be one of: ${ORDER_STATUSES.join(', ')}.`),
});

export const MAX_ORDER_LINES = 50;

// Too long is its own message: a name pasted twice is not a missing name.
const required = (label: string, message: string, max: number) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, tooLongMessage(label, max)));

const optionalText = (max: number) =>
  v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max))), null);

const quantity = messages.quantityInvalid(MAX_LINE_QUANTITY);

export const OrderItemSchema = v.pipe(
  v.object({
    ProductID: v.optional(v.nullable(IdSchema), null),
    VariationID: v.optional(v.nullable(IdSchema), null),
    ProductName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
    Price: v.pipe(
      v.number(messages.priceInvalid),
      v.safeInteger(messages.priceInvalid),
      v.minValue(0, messages.priceInvalid),
    ),
    Quantity: v.pipe(
      v.number(quantity),
      v.integer(quantity),
      v.minValue(1, quantity),
      v.maxValue(MAX_LINE_QUANTITY, quantity),
    ),
    ProductImage: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
    // Gifts. No defaults: an absent field stays absent, so an order without them
    // hashes (idempotency) as it did before they existed.
    /** The message on the cake, checked with the rule of `domain/gifts.ts`. */
    CakeMessage: v.optional(CakeMessageSchema),
    /** The id `POST /api/cake-photos` answered, for a photo cake. */
    PhotoID: v.optional(v.nullable(PhotoIDSchema)),
  }),
  // An item is found by its id, or (the spec's client) by its exact name.
  v.check((item) => item.ProductID !== null || item.ProductName !== '', 'Each item needs a product.'),
);

export const OrderRequestSchema = v.object({
  DeliveryDate: v.pipe(
    v.string(messages.deliveryDateInvalid),
    v.trim(),
    v.check(isCalendarDate, messages.deliveryDateInvalid),
  ),
  CustomerName: v.pipe(required('Full Name', messages.fullNameRequired, 100), singleLine('Full Name')),
  CustomerEmail: EmailSchema(),
  // Taken in the forms people type ("+91 98765 01234"), kept as its 10 digits.
  CustomerPhone: v.pipe(
    v.string(messages.phoneInvalid),
    v.trim(),
    v.transform(mobileDigits),
    v.regex(/^\d{10}$/, messages.phoneInvalid),
  ),
  CustomerAddress: required('Shipping Address', messages.addressRequired, 500),
  State: v.pipe(required('State', messages.stateRequired, 60), singleLine('State')),
  City: v.pipe(required('City', messages.cityRequired, 60), singleLine('City')),
  // Some clients send the pincode as a number; it is text with exactly 6 digits either way.
  CustomerPincode: v.pipe(
    v.union(
      [v.string(messages.pincodeRequired), v.number(messages.pincodeRequired)],
      messages.pincodeRequired,
    ),
    v.transform((x) => String(x).trim()),
    v.nonEmpty(messages.pincodeRequired),
    v.check(isValidPincode, messages.pincodeInvalid),
  ),
  PaymentMethod: v.pipe(
    v.optional(v.string(messages.paymentMethodRequired), PAYMENT_METHODS.cod),
    v.transform(normalizePaymentMethod),
    v.check((m) => m !== null, messages.paymentMethodRequired),
    v.transform((m) => m as PaymentMethod),
  ),
  TotalAmount: v.pipe(
    v.number(messages.totalInvalid),
    v.safeInteger(messages.totalInvalid),
    v.minValue(0, messages.totalInvalid),
  ),
  OrderItems: v.pipe(
    v.array(OrderItemSchema, messages.orderItemsRequired),
    v.minLength(1, messages.orderItemsRequired),
    v.maxLength(MAX_ORDER_LINES, `An order can have at most ${MAX_ORDER_LINES} lines.`),
  ),
  CouponCode: v.pipe(
    optionalText(40),
    v.transform((c) => (c ? c.toUpperCase() : null)),
  ),
  /**
   * The delivery slot chosen; absent or null is the shop's Standard, so the spec's
   * request works unchanged. Absent stays absent (not null) so an order's idempotency hash is
   * the same as before slots existed.
   */
  DeliverySlotID: v.optional(v.nullable(IdSchema)),
  /**
   * Gifts, all optional with no default for the same reason as `DeliverySlotID`.
   * With a recipient, the order's address fields are the recipient's; the buyer's name, email
   * and phone stay the account's.
   */
  Recipient: v.optional(v.nullable(RecipientSchema)),
  /** "No price in the box": the packing slip carries no price. */
  HidePrice: v.optional(v.boolean()),
  /** "Don't say who it's from": the card is signed "With love". */
  HideSender: v.optional(v.boolean()),
  Card: v.optional(v.nullable(GiftCardSchema)),
  RazorpayPaymentId: optionalText(100),
  RazorpayOrderId: optionalText(100),
  RazorpaySignature: optionalText(200),
});

export type OrderRequest = v.InferOutput<typeof OrderRequestSchema>;
export type OrderRequestInput = v.InferInput<typeof OrderRequestSchema>;
export type OrderItemRequest = v.InferOutput<typeof OrderItemSchema>;

/** One line as the server priced it from the database. */
export const PricedLineSchema = v.object({
  productID: int,
  variationID: v.nullable(int),
  productName: v.string(),
  variationName: v.nullable(v.string()),
  /** The option's value ("1 kg"), '' for none; absent from answers stored for replay before it was kept. */
  variationValue: v.optional(v.nullable(v.string())),
  unitPrice: int,
  quantity: int,
  lineTotal: int,
});
export type PricedLine = v.InferOutput<typeof PricedLineSchema>;

export interface OrderTotals {
  subtotal: number;
  deliveryCharge: number;
  /** The delivery slot's surcharge (0 for Standard). */
  slotCharge: number;
  discount: number;
  total: number;
}

/**
 * The spec: total = sum of price times quantity, plus delivery, minus the coupon; plus the
 * delivery slot's surcharge, which like delivery the coupon never takes off.
 */
export function orderTotals(
  lines: readonly { unitPrice: number; quantity: number }[],
  deliveryCharge: number,
  coupon: CouponOff | number | null,
  slotCharge = 0,
): OrderTotals {
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const discount = couponDiscount(coupon, subtotal);
  return {
    subtotal,
    deliveryCharge,
    slotCharge,
    discount,
    total: subtotal + deliveryCharge + slotCharge - discount,
  };
}

/** What the shopper saw against what the server charges, per line; sent with a 409 to confirm. */
export interface PricingConflict {
  lines: {
    productID: number;
    variationID: number | null;
    productName: string;
    quantity: number;
    old: { price: number; lineTotal: number };
    new: { price: number; lineTotal: number };
  }[];
  subtotal: number;
  deliveryCharge: number;
  slotCharge: number;
  discount: number;
  total: { old: number; new: number };
}

/**
 * What a refused order carries in `data`, so the device's outbox can tell a
 * refusal to retry (`in-progress`, after Retry-After) from one that waits for
 * the shopper (`repriced`: show old and new figures; `delivery-date`: offer the
 * new earliest date; `slot`: offer the next free slots; `product-gone`; `undeliverable`,
 * `pincode-mismatch` and `slot-not-here`: the delivery area refuses the address or slot;
 * `key-reused`: a bug).
 */
export interface RepricedRefusal extends PricingConflict {
  reason: 'repriced';
  /** The coupon asked for, whether it still applied, and why not. */
  coupon: { code: string; applied: boolean; message: string | null } | null;
}
export type OrderRefusalData =
  | RepricedRefusal
  | { reason: 'in-progress' }
  | { reason: 'key-reused' }
  /** The pincode is outside the delivery areas (a 422). */
  | { reason: 'undeliverable'; pincode?: string }
  /** The State or City is not the pincode's (a 422): the area's own names, to fix the address with. */
  | { reason: 'pincode-mismatch'; pincode: string; city: string; state: string }
  /** The slot asked for is not one the pincode gets (a 422). */
  | { reason: 'slot-not-here'; pincode: string; slotID: number }
  | { reason: 'delivery-date'; earliestDeliveryDate: string; latestDeliveryDate: string }
  | SlotRefusal
  | { reason: 'product-gone'; productID: number | null; productName?: string; variationID?: number }
  | GiftRefusal;

/**
 * A gift the server refuses (a 422): which rule, and which line (its index in
 * `OrderItems`) when it is a line's. A photo cake too soon carries the date it can be had from.
 */
export const GIFT_PROBLEMS = [
  'gift-cod',
  'message-not-taken',
  'not-photo-cake',
  'photo-missing',
  'photo-unknown',
  'photo-too-soon',
] as const;
export type GiftProblem = (typeof GIFT_PROBLEMS)[number];
export interface GiftRefusal {
  reason: 'gift';
  problem: GiftProblem;
  line: number | null;
  earliestDeliveryDate?: string;
}

/**
 * Null when every line price and the total are what the server charges;
 * otherwise the old and new figures side by side. Any difference refuses the
 * order, even a line price whose error happens to cancel out in the total,
 * because the shopper agreed to each price they saw.
 */
export function comparePricing(
  claimed: { items: readonly { Price: number; Quantity: number }[]; total: number },
  priced: readonly PricedLine[],
  totals: OrderTotals,
): PricingConflict | null {
  const lines = priced.map((line, i) => {
    const oldPrice = claimed.items[i]?.Price ?? 0;
    return {
      productID: line.productID,
      variationID: line.variationID,
      productName: line.productName,
      quantity: line.quantity,
      old: { price: oldPrice, lineTotal: oldPrice * line.quantity },
      new: { price: line.unitPrice, lineTotal: line.lineTotal },
    };
  });
  const same = claimed.total === totals.total && lines.every((l) => l.old.price === l.new.price);
  if (same) return null;
  return {
    lines,
    subtotal: totals.subtotal,
    deliveryCharge: totals.deliveryCharge,
    slotCharge: totals.slotCharge,
    discount: totals.discount,
    total: { old: claimed.total, new: totals.total },
  };
}

/** The offline outbox makes one key per order on the device; any RFC 4122 form is accepted. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isIdempotencyKey(value: string): boolean {
  return UUID.test(value);
}

/** The answer to a placed order. */
export const PlacedOrderSchema = v.object({
  orderID: int,
  status: OrderStatusSchema,
  paymentMethod: PaymentMethodSchema,
  deliveryDate: v.string(),
  /** The slot booked, as it was when the order was placed. */
  deliverySlot: v.nullable(OrderSlotSchema),
  subtotal: int,
  deliveryCharge: int,
  slotCharge: int,
  discount: int,
  totalAmount: int,
  couponCode: v.nullable(v.string()),
  items: v.array(
    v.object({
      ...PricedLineSchema.entries,
      cakeMessage: v.optional(v.nullable(v.string())),
      photoID: v.optional(v.nullable(v.string())),
    }),
  ),
  orderDate: v.string(),
  // Optional: answers stored (for replays) before gifts existed lack them.
  recipient: v.optional(orderGiftEntries.recipient),
  hidePrice: v.optional(v.boolean()),
  hideSender: v.optional(v.boolean()),
  card: v.optional(orderGiftEntries.card),
});
export type PlacedOrder = v.InferOutput<typeof PlacedOrderSchema>;

/** The spec's order history row; one row per ordered product, newest order first. */
export const OrderHistoryRowSchema = v.object({
  orderID: int,
  /** The line's name with what was chosen: "Chocolate Truffle Delight (Weight: 1 kg)" (`orderLineLabel`). */
  productName: v.string(),
  /** The product's own name, and the option as `OrderLineSchema` has it. */
  productTitle: v.string(),
  variationName: v.nullable(v.string()),
  variationValue: v.nullable(v.string()),
  unitPrice: int,
  productImage: v.string(),
  quantity: int,
  /** The whole order's total in rupees (what the shopper paid), as the old API answered. */
  totalAmount: v.pipe(int, v.description("The whole order's total in rupees")),
  /** ISO time. */
  orderDate: v.pipe(v.string(), v.isoTimestamp()),
  status: OrderStatusSchema,
  deliveryDate: v.string(),
  paymentMethod: PaymentMethodSchema,
  deliverySlot: v.nullable(OrderSlotSchema),
  slotCharge: int,
  /** The line's cake message and photo, and the order's gift choices. */
  ...lineGiftEntries,
  ...orderGiftEntries,
  /** Where the order goes (`domain/deliver-to.ts`); a copy kept on a phone before it has none. */
  deliverTo: v.optional(DeliverToSchema),
});
export type OrderHistoryRow = v.InferOutput<typeof OrderHistoryRowSchema>;

export const AdminOrderHistoryRowSchema = v.object({
  ...OrderHistoryRowSchema.entries,
  userEmail: v.string(),
  customerEmail: v.string(),
  customerPhone: v.string(),
  customerAddress: v.string(),
});
export type AdminOrderHistoryRow = v.InferOutput<typeof AdminOrderHistoryRowSchema>;

export const CouponRequestSchema = v.object({
  code: v.pipe(
    v.string(messages.couponInvalid),
    v.trim(),
    v.toUpperCase(),
    v.nonEmpty(messages.couponInvalid),
  ),
  /** The items' total the shopper sees (whole rupees); without it the minimum waits for the order. */
  subtotal: v.optional(
    v.pipe(
      v.number('The subtotal is a whole number of rupees.'),
      v.integer('The subtotal is a whole number of rupees.'),
      v.minValue(0, 'The subtotal is a whole number of rupees.'),
      v.maxValue(100_000_000, 'The subtotal is a whole number of rupees.'),
    ),
  ),
});

/** Refusals of placing an order that are not about the order's own contents. */
export const orderMessages = {
  tooManyOrders:
    'Too many orders in a short time from this account or network. Please wait a minute: a queued order is sent again by itself.',
} as const;
