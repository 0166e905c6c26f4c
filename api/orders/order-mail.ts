/**
 * The shopper's receipt for an order the server has just placed: what was ordered, what it cost,
 * when it comes and how it is paid. Sent once, for the placing that made the order (never for a
 * replayed key). It is an order's mail, so the mailer's footer adds the shop's FSSAI number, which
 * FSSAI asks for on every bill and receipt (`api/mail/shop-signature.ts`).
 */
import { formatCalendarDay } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { kitchenLine } from '../../domain/order-lines.js';
import type { PlacedOrder } from '../../domain/orders.js';
import { paymentMethodLabel } from '../../domain/payment-methods.js';
import { windowLabel } from '../../domain/slots.js';
import type { Mail } from '../mail/mailer.js';

export function orderPlacedMail(order: PlacedOrder, to: string): Mail {
  const money = (label: string, amount: number) => `${label}: ${formatRupees(amount)}`;
  const lines = order.items.map((l) => `- ${kitchenLine(l)}: ${formatRupees(l.lineTotal)}`);
  const slot = order.deliverySlot ? `, ${order.deliverySlot.name} (${windowLabel(order.deliverySlot)})` : '';
  const totals = [
    money('Items', order.subtotal),
    order.deliveryCharge > 0 ? money('Delivery', order.deliveryCharge) : '',
    order.slotCharge > 0 ? money('Delivery slot', order.slotCharge) : '',
    order.discount > 0 ? `${money(`Coupon ${order.couponCode ?? ''}`.trim(), -order.discount)}` : '',
    money('Total', order.totalAmount),
  ].filter(Boolean);
  return {
    to,
    subject: `Order #${order.orderID} placed: ${formatRupees(order.totalAmount)}`,
    text: [
      `Thank you: your order #${order.orderID} is placed.`,
      '',
      ...lines,
      '',
      ...totals,
      `Payment: ${paymentMethodLabel(order.paymentMethod)}`,
      `Delivery: ${formatCalendarDay(order.deliveryDate)}${slot}`,
      '',
      'My Orders in the app shows where it is.',
      '',
    ].join('\n'),
    order: true,
  };
}
