/** The checkout's summary: each line as it will be made, the gift read back, the bill, and Place Order. */
import type { ReactNode } from 'react';
import type { CartLine } from '../../domain/cart.js';
import { lineChoice, lineTotal } from '../../domain/cart.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { WITH_LOVE } from '../../domain/gifts.js';
import { formatRupees } from '../../domain/money.js';
import type { OrderTotals } from '../../domain/orders.js';
import { nightOfLabel, type SlotAvailability } from '../../domain/slots.js';
import { CartLineGift } from '../components/CakeGift.js';
import type { GiftState } from './GiftOptions.js';
import { OrderBill } from './OrderBill.js';
import type { Busy } from './useOnlinePayment.js';

export function CheckoutSummary({
  lines,
  totals,
  slot,
  busy,
  gift,
  coupon,
  couponSaid,
  deliveryNote,
}: {
  lines: readonly CartLine[];
  totals: OrderTotals;
  slot: SlotAvailability | null;
  busy: Busy;
  gift: GiftState;
  /** The coupon box, just above the bill it changes. */
  coupon: ReactNode;
  /** The coupon row's words (`couponLine`): what it takes off, or why it takes nothing. */
  couponSaid: string | undefined;
  /** Said in the delivery charge's row while the charge is not known (no pincode yet). */
  deliveryNote: string | null;
}) {
  return (
    <section className="co-summary" aria-labelledby="co-summary-title">
      <h2 id="co-summary-title">{t.summary}</h2>
      <ul className="co-lines">
        {lines.map((l) => (
          <li key={l.key} className="co-line">
            <span className="co-line__img">
              <img src={l.image} alt="" width={56} height={56} loading="lazy" />
              <span className="co-line__qty">
                <span className="visually-hidden">Quantity </span>
                {l.quantity}
              </span>
            </span>
            <span className="co-line__title">
              {l.title}
              {lineChoice(l) ? <span className="co-hint"> ({lineChoice(l)})</span> : null}
            </span>
            <span className="co-line__sum">
              {formatRupees(l.price)} x {l.quantity} = {formatRupees(lineTotal(l))}
            </span>
            {l.cakeMessage || l.photo ? (
              <span className="co-line__gift">
                <CartLineGift
                  message={l.cakeMessage ?? null}
                  takesMessage={false}
                  photo={l.photo?.blob ?? null}
                  compact
                  name={l.title}
                  onSave={async () => undefined}
                />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {gift.card || gift.toSomeoneElse || gift.hidePrice || gift.hideSender ? (
        <dl className="co-gift-summary">
          {gift.toSomeoneElse && gift.name.trim() ? (
            <div>
              <dt>To</dt>
              <dd>
                {gift.name.trim()} {gift.phone}
              </dd>
            </div>
          ) : null}
          {gift.card ? (
            <div>
              <dt>Card</dt>
              <dd>
                {gift.occasion}
                {gift.message.trim() ? `: ${gift.message.trim()}` : ''} (from{' '}
                {gift.hideSender ? WITH_LOVE : 'you'})
              </dd>
            </div>
          ) : null}
          {gift.hidePrice ? (
            <div>
              <dt>In the box</dt>
              <dd>No price</dd>
            </div>
          ) : null}
          {gift.hideSender && !gift.card ? (
            <div>
              <dt>From</dt>
              <dd>Not said</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {slot && nightOfLabel(slot, slot.date) ? (
        <p className="co-night">
          {slot.name}: {nightOfLabel(slot, slot.date)}
        </p>
      ) : null}
      {coupon}
      <OrderBill totals={totals} slot={slot} deliveryNote={deliveryNote} couponSaid={couponSaid} />
      <button
        type="submit"
        className="btn btn--primary btn--block"
        disabled={busy !== null}
        aria-busy={busy !== null}
      >
        {busy === 'placing' ? t.placing : busy === 'paying' ? t.paying : t.placeOrder}
      </button>
    </section>
  );
}
