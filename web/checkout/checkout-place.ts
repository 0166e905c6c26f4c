/**
 * Placing the checkout's order: what the outbox stores for it (`placeInput`: the request with its
 * key, figures, lines and slot) and `finish`, which queues it (sent at once when online), keeps a
 * recipient the shopper asked to save, says what happened and opens order success. Cash on
 * Delivery calls `finish` with a new key; online payment calls it with the payment's key once
 * Checkout has paid (`useOnlinePayment.tsx`).
 */
import type { NavigateFunction } from 'react-router-dom';
import type { CartLine } from '../../domain/cart.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { CouponOff } from '../../domain/coupon-terms.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput, OrderTotals } from '../../domain/orders.js';
import type { SlotAvailability } from '../../domain/slots.js';
import type { Session } from '../../sw/session.js';
import type { Notify } from '../hooks/useAlerts.js';
import { type PlaceInput, placeOrder } from './place.js';
import type { Busy } from './useOnlinePayment.js';

/**
 * The saved recipients' calls, loaded when needed: a static import would make them a chunk of
 * their own that the first screen's entry names among the checkout's (its JavaScript budget).
 */
export const recipientCalls = () => import('../account/recipients.js');

export function placing(o: {
  session: Session;
  totals: OrderTotals;
  couponOff: CouponOff | null;
  cart: readonly CartLine[];
  slot: SlotAvailability | null;
  date: string;
  setBusy(busy: Busy): void;
  notify: Notify;
  navigate: NavigateFunction;
}) {
  const { session, notify } = o;
  const placeInput = (request: OrderRequestInput, key: string): PlaceInput => ({
    key,
    session,
    request,
    totals: o.totals,
    couponOff: o.couponOff,
    lines: o.cart,
    slot: o.slot
      ? {
          date: o.date,
          slotID: o.slot.slotID,
          name: o.slot.name,
          start: o.slot.start,
          end: o.slot.end,
          surcharge: o.slot.surcharge,
        }
      : null,
  });
  const finish = async (request: OrderRequestInput, key: string) => {
    o.setBusy('placing');
    const { row } = await placeOrder(placeInput(request, key));
    if (request.Recipient?.Save)
      // Offered at once for the next gift, offline too; the server keeps it when the order arrives.
      await (await recipientCalls()).keepOnDevice(session.userId, {
        id: -Date.now(),
        name: request.Recipient.Name.trim(),
        phone: request.Recipient.Phone.trim(),
        address: request.CustomerAddress.trim(),
        city: request.City,
        state: request.State,
        pincode: String(request.CustomerPincode),
      });
    if (row.state === 'sent') notify(messages.orderPlaced, 'success');
    else if (row.state === 'queued') notify(navigator.onLine ? t.queuedRetrying : t.queuedOffline, 'info');
    o.navigate(`/order-success?order=${encodeURIComponent(key)}`);
  };
  return { placeInput, finish };
}
