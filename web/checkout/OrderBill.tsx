import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { formatRupees } from '../../domain/money.js';
import type { OrderTotals } from '../../domain/orders.js';
import { type DeliverySlot, slotChargeLabel } from '../../domain/slots.js';
import './checkout.css';

/**
 * An order's bill, line by line down to what is paid: the items, the delivery charge, the slot's
 * surcharge, the coupon and the total, which always add up (`orderTotals` made them). The same on
 * order success (the server's figures once placed, the checkout's while queued) and the order
 * page, in the checkout summary's words.
 */
export function OrderBill({
  totals,
  slot,
  couponCode = null,
  couponSaid,
  deliveryNote = null,
}: {
  totals: OrderTotals;
  /** The delivery slot its surcharge is for; null: Standard, or an order from before slots. */
  slot: Pick<DeliverySlot, 'name' | 'start' | 'end'> | null;
  couponCode?: string | null;
  /** The checkout's own words for the coupon row (the spec's "Coupon applied: ₹200 off!"). */
  couponSaid?: string;
  /** The checkout's word while the delivery charge is not known yet ("Enter your pincode"). */
  deliveryNote?: string | null;
}) {
  return (
    <dl className="co-totals">
      <div>
        <dt>{t.subtotal}</dt>
        <dd>{formatRupees(totals.subtotal)}</dd>
      </div>
      {totals.deliveryCharge > 0 || deliveryNote ? (
        <div>
          <dt>{t.deliveryCharges}</dt>
          <dd>{totals.deliveryCharge > 0 ? formatRupees(totals.deliveryCharge) : deliveryNote}</dd>
        </div>
      ) : null}
      {totals.slotCharge > 0 ? (
        <div>
          <dt>{slot ? slotChargeLabel(slot) : t.deliverySlot}</dt>
          <dd>{formatRupees(totals.slotCharge)}</dd>
        </div>
      ) : null}
      {totals.discount > 0 ? (
        <div className="co-coupon-applied">
          <dt className={couponSaid ? 'visually-hidden' : undefined}>
            {couponCode ? `Coupon ${couponCode}` : 'Coupon'}
          </dt>
          <dd>{couponSaid ?? `−${formatRupees(totals.discount)}`}</dd>
        </div>
      ) : null}
      <div className="co-total">
        <dt>{t.total}</dt>
        <dd>
          {formatRupees(totals.total)} <span className="co-hint">INR</span>
        </dd>
      </div>
    </dl>
  );
}
