import { addressLines } from '../../domain/address.js';
import type { PackingSlip as Slip } from '../../domain/gifts.contract.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { kitchenLine } from '../../domain/order-lines.js';
import { PAYMENT_METHODS, paymentMethodLabel } from '../../domain/payment-methods.js';
import { fssaiLine } from '../../domain/shop-profile.js';
import { type OrderSlot, windowLabel } from '../../domain/slots.js';

/** "Midnight, 11 PM – 12 AM"; orders written outside the app may have no slot. */
export function slotText(slot: OrderSlot | null): string {
  return slot ? `${slot.name}, ${windowLabel(slot)}` : 'Standard';
}

/** "From Bakery & Blooms (Legal Pvt Ltd) · +91 ... · FSSAI Lic. No. ...": on every slip, as on every bill. */
export function sellerLine(seller: Slip['seller']): string {
  const who =
    seller.legalName && seller.legalName !== seller.name
      ? `${seller.name} (${seller.legalName})`
      : seller.name;
  return [`From ${who}`, seller.phone, fssaiLine(seller.fssai)].filter(Boolean).join(' · ');
}

/** What the driver does about money: collect it, or nothing. */
function paymentText(slip: Slip): string {
  if (slip.paymentMethod !== PAYMENT_METHODS.cod) return paymentMethodLabel(slip.paymentMethod);
  return slip.total === undefined
    ? `${slip.paymentMethod}, collect the amount on the order`
    : `${slip.paymentMethod}, collect ${formatRupees(slip.total)}`;
}

/**
 * One order's packing slip as the server writes it, the same on the order's page and in the
 * day's print: who receives it (the recipient of a gift, never the buyer's phone), the full
 * address, the slot, each line as the kitchen reads it ("1 x Chocolate Truffle Delight, 1 kg"),
 * the cake's message in large type exactly as typed, the photo cake's note, and the card on a
 * printed page of its own. With "No price in the box" the answer carries no price, so none can
 * be printed. A cancelled order's slip (only its own page prints one: the day's slips never
 * take it) says CANCELLED across it, so a copy that reaches the kitchen is not baked.
 */
export function PackingSlip({ slip, sheet = false }: { slip: Slip; sheet?: boolean }) {
  const priced = !slip.hidePrice;
  const title = `slip-title-${slip.orderID}`;
  const cancelled = slip.status === 'cancelled';
  const [street, place] = addressLines(slip);
  return (
    <section
      className={`admin-panel admin-slip${sheet ? ' admin-slip--sheet' : ''}${cancelled ? ' admin-slip--cancelled' : ''}`}
      aria-labelledby={title}
      data-testid="packing-slip"
    >
      <h2 id={title}>
        Packing slip: order #{slip.orderID}
        {cancelled ? <span className="admin-slip__cancelled"> CANCELLED: do not make or deliver</span> : null}
      </h2>
      {cancelled ? (
        <p className="admin-slip__stamp" aria-hidden="true">
          CANCELLED
        </p>
      ) : null}
      <div className="admin-slip__to" data-testid="slip-deliver-to">
        <p className="admin-slip__label">Deliver to</p>
        <p>
          <strong className="admin-slip__name">{slip.deliverTo.name}</strong>
          <br />
          {street ? (
            <>
              {street}
              <br />
            </>
          ) : null}
          {place}
          <br />
          Phone {slip.deliverTo.phone}
        </p>
      </div>
      <p className="admin-slip__when">
        <strong>
          Deliver on {formatCalendarDay(slip.deliveryDate)}, {slotText(slip.slot)}
        </strong>
      </p>
      <p>
        Payment: {paymentText(slip)}.{slip.hidePrice ? ' No price in the box.' : ''}
      </p>
      {/* Focusable: a narrow screen or a large font makes the table scroll, and a keyboard scrolls it then. */}
      <section
        className="admin-table-wrap admin-slip__lines"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls is reached by keyboard this way.
        tabIndex={0}
        aria-label={`Items to pack for order #${slip.orderID}`}
      >
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              {priced ? <th scope="col">Price</th> : null}
              {priced ? <th scope="col">Line total</th> : null}
              <th scope="col" className="admin-print-only">
                Packed
              </th>
            </tr>
          </thead>
          <tbody>
            {slip.lines.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines keep their order.
              <tr key={i}>
                <td>
                  <strong className="admin-slip__line">{kitchenLine(l)}</strong>
                  {l.cakeMessage ? (
                    <p className="admin-slip__message">
                      <span className="admin-slip__label">On the cake:</span> {l.cakeMessage}
                    </p>
                  ) : null}
                  {l.photoID ? (
                    <p className="admin-slip__label">Photo cake: print the photo from the order page.</p>
                  ) : null}
                </td>
                {priced ? <td>{l.unitPrice === undefined ? '' : formatRupees(l.unitPrice)}</td> : null}
                {priced ? <td>{l.lineTotal === undefined ? '' : formatRupees(l.lineTotal)}</td> : null}
                <td className="admin-print-only">☐</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {priced && slip.total !== undefined ? (
        <p>
          Total: <strong>{formatRupees(slip.total)}</strong>
        </p>
      ) : null}
      <p className="admin-slip__seller" data-testid="slip-seller">
        {sellerLine(slip.seller)}
      </p>
      {slip.card ? (
        <div className="admin-slip__card" data-testid="slip-card">
          {/* The card prints on a page of its own: it says so there too. */}
          {cancelled ? <p className="admin-slip__cancelled">CANCELLED: do not send this card</p> : null}
          <p className="admin-slip__occasion">{slip.card.occasion}</p>
          {slip.card.message ? <p className="admin-slip__card-message">{slip.card.message}</p> : null}
          <p className="admin-slip__from">{slip.card.from}</p>
        </div>
      ) : null}
    </section>
  );
}
