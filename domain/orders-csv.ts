/** The owner's spreadsheet of orders (the admin's order list's CSV export). */
import type { AdminOrderSummary } from './admin-answers.js';
import { csvFile } from './csv.js';
import type { OrderGift } from './gifts.js';
import { indiaDateTime } from './india-time.js';
import { kitchenLine } from './order-lines.js';
import { paymentMethodLabel } from './payment-methods.js';
import { windowLabel } from './slots.js';

export const ORDER_CSV_HEADER = [
  'Order ID',
  'Status',
  'Order Date (India time)',
  'User Email',
  'Customer Name',
  'Customer Email',
  'Customer Phone',
  'Customer Address',
  'City',
  'State',
  'PIN',
  'Products',
  'Quantity',
  'Payment',
  'Subtotal (INR)',
  'Delivery Charge (INR)',
  'Slot Charge (INR)',
  'Coupon',
  'Discount (INR)',
  'Total Amount (INR)',
  'Refunded (INR)',
  'Delivery Date',
  'Delivery Slot',
  'Recipient Name',
  'Recipient Phone',
  'Hide Price',
  'Hide Sender',
  'Card Occasion',
  'Card Message',
  'Cake Messages',
  'Cake Photo',
] as const;

/** An order as the CSV reads it; the gift fields may be missing from orders fetched before they were kept. */
export type CsvOrder = Omit<AdminOrderSummary, keyof OrderGift | 'items'> &
  Partial<OrderGift> & {
    items: readonly (Omit<AdminOrderSummary['items'][number], 'cakeMessage'> & {
      cakeMessage?: string | null;
    })[];
  };

const yesNo = (b: boolean | undefined) => (b ? 'yes' : 'no');

/**
 * Where a photo cake's photo opens from a spreadsheet: the admin's order page, which shows it and
 * saves it full size. The photo's own API address answers only a request that carries the admin's
 * token, which a link clicked in Excel never does; the page has the signed-in admin's.
 */
export function cakePhotoLink(origin: string, orderID: number): string {
  return `${origin}/admin-orders/${orderID}#cake-photo`;
}

/**
 * The owner's spreadsheet of orders: times in India, the address in its parts, every charge,
 * each line as the kitchen reads it ("1 x Chocolate Truffle Delight, 1 kg") and a photo cake's
 * photo as a link; `origin` is the shop's (the page's) for those links.
 */
export function ordersCsv(orders: readonly CsvOrder[], { origin }: { origin: string }): string {
  return csvFile(
    ORDER_CSV_HEADER,
    orders.map((o) => [
      o.orderID,
      o.status,
      indiaDateTime(o.orderDate),
      o.userEmail,
      o.customerName,
      o.customerEmail,
      o.customerPhone,
      o.customerAddress,
      o.city,
      o.state,
      o.pincode,
      o.items.map((i) => kitchenLine({ ...i, productName: i.productTitle })).join('; '),
      o.items.reduce((n, i) => n + i.quantity, 0),
      paymentMethodLabel(o.paymentMethod),
      o.subtotal,
      o.deliveryCharge,
      o.slotCharge,
      o.couponCode ?? '',
      o.discount,
      o.totalAmount,
      o.refunded ?? 0,
      o.deliveryDate,
      o.deliverySlot ? `${o.deliverySlot.name} (${windowLabel(o.deliverySlot)})` : '',
      o.recipient?.name ?? '',
      o.recipient?.phone ?? '',
      yesNo(o.hidePrice),
      yesNo(o.hideSender),
      o.card?.occasion ?? '',
      o.card?.message ?? '',
      o.items
        .filter((i) => i.cakeMessage)
        .map((i) => `${i.productName}: ${i.cakeMessage}`)
        .join('; '),
      o.items.some((i) => i.photoID) ? cakePhotoLink(origin, o.orderID) : '',
    ]),
  );
}
