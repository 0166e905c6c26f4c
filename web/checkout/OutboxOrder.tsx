/**
 * One order of the outbox as the shopper sees it: its state, and for an
 * order the server refused, what to decide (the new figures beside the old
 * ones, the fix: a line, a date, a slot or the address; sign in, or cancel). Used by order success and My Orders.
 */
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { pincodeInput, pincodeProblem } from '../../domain/checkout.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { isValidPincode } from '../../domain/delivery.js';
import { deliveryAreasText } from '../../domain/delivery-areas.js';
import { formatCalendarDay } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { heldOrderLabel } from '../../domain/order-tracking.js';
import { asDeliveryDate, asRepriced, asSlotRefusal } from '../../domain/outbox.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { slotOfferLabel } from '../../domain/slots.js';
import type { OutboxRow } from '../../sw/outbox-row.js';
import {
  cancelOrder,
  changeAddress,
  changeDeliveryDate,
  chooseOfferedSlot,
  confirmNewFigures,
  dismissOrder,
  removeGoneLine,
} from '../../sw/outbox-shopper.js';
import { clearSession } from '../../sw/session-writes.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useDeliveryArea, useDeliveryAreas } from '../hooks/useDelivery.js';
import { OutboxCodRefusal } from './OutboxCodRefusal.js';
import { queuedLineLabel } from './outbox-lines.js';
import { kick } from './page-sender.js';

export function StateChip({ row }: { row: OutboxRow }) {
  return (
    <span className={`co-chip co-chip--${row.state}`}>
      {heldOrderLabel(row.state, row.placed?.status ?? null)}
    </span>
  );
}

const madeAt = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});
export function madeLabel(row: OutboxRow): string {
  return row.placed ? t.orderNumber(row.placed.orderID) : t.queuedOrder(madeAt.format(row.createdAt));
}

export function Attention({ row }: { row: OutboxRow }) {
  const notify = useNotify();
  const { pathname, search } = useLocation();
  const [busy, setBusy] = useState(false);
  const problem = row.problem;
  if (!problem) return null;

  const act = async (run: () => Promise<boolean>, done?: string) => {
    setBusy(true);
    try {
      if ((await run()) && done) notify(done, 'info');
      void kick(true);
    } finally {
      setBusy(false);
    }
  };
  const cancel = (
    <button
      type="button"
      className="btn btn--outline btn--small"
      disabled={busy}
      onClick={() => void act(() => cancelOrder(row.key), t.cancelled)}
    >
      {t.cancelOrder}
    </button>
  );

  if (problem.kind === 'repriced') {
    const data = asRepriced(problem.data);
    if (!data) return null;
    return (
      <section className="co-attention" aria-labelledby={`att-${row.key}`}>
        <h3 id={`att-${row.key}`}>{t.repricedTitle}</h3>
        <p>{t.repricedIntro}</p>
        <table className="co-compare">
          <thead>
            <tr>
              <th scope="col">{t.colItem}</th>
              <th scope="col">{t.colBefore}</th>
              <th scope="col">{t.colNow}</th>
            </tr>
          </thead>
          <tbody>
            {data.lines.map((l) => (
              <tr
                key={`${l.productID}:${l.variationID ?? ''}`}
                className={l.old.price !== l.new.price ? 'co-changed' : ''}
              >
                <th scope="row">
                  {queuedLineLabel(row, l)} x {l.quantity}
                </th>
                <td>{formatRupees(l.old.lineTotal)}</td>
                <td>{formatRupees(l.new.lineTotal)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{t.deliveryCharges}</th>
              <td>{formatRupees(row.figures.deliveryCharge)}</td>
              <td>{formatRupees(data.deliveryCharge)}</td>
            </tr>
            <tr>
              <th scope="row">Coupon</th>
              <td>{row.figures.discount ? `-${formatRupees(row.figures.discount)}` : '-'}</td>
              <td>{data.discount ? `-${formatRupees(data.discount)}` : '-'}</td>
            </tr>
            <tr className="co-total-row">
              <th scope="row">{t.total}</th>
              <td>{formatRupees(data.total.old)}</td>
              <td>{formatRupees(data.total.new)}</td>
            </tr>
          </tbody>
        </table>
        {data.coupon && !data.coupon.applied ? (
          <p className="co-hint">{t.couponNoLonger(data.coupon.code, data.coupon.message)}</p>
        ) : null}
        <div className="co-actions">
          <button
            type="button"
            className="btn btn--primary btn--small"
            disabled={busy}
            onClick={() => void act(() => confirmNewFigures(row.key))}
          >
            {t.confirmNew(formatRupees(data.total.new))}
          </button>
          {cancel}
        </div>
      </section>
    );
  }

  if (problem.kind === 'product-gone') {
    const canRemove = row.request.OrderItems.length > 1;
    return (
      <section className="co-attention" aria-labelledby={`att-${row.key}`}>
        <h3 id={`att-${row.key}`}>{t.goneTitle}</h3>
        <p>{problem.message}</p>
        <div className="co-actions">
          {canRemove ? (
            <button
              type="button"
              className="btn btn--primary btn--small"
              disabled={busy}
              onClick={() => void act(() => removeGoneLine(row.key))}
            >
              {t.removeLine}
            </button>
          ) : null}
          {cancel}
        </div>
      </section>
    );
  }

  if (problem.kind === 'delivery-date') {
    return <DateFix row={row} cancel={cancel} />;
  }

  if (problem.kind === 'slot') {
    return <SlotFix row={row} cancel={cancel} />;
  }

  if (problem.kind === 'signin') {
    return (
      <section className="co-attention" aria-labelledby={`att-${row.key}`}>
        <h3 id={`att-${row.key}`}>{t.signinTitle}</h3>
        <p>{t.signinIntro}</p>
        <div className="co-actions">
          <Link
            to="/login"
            className="btn btn--primary btn--small"
            onClick={() => void clearSession({ returnUrl: `${pathname}${search}` })}
          >
            {t.signinAction}
          </Link>
        </div>
      </section>
    );
  }

  if (problem.kind === 'defect') {
    return (
      <section className="co-attention" aria-labelledby={`att-${row.key}`}>
        <h3 id={`att-${row.key}`}>{t.defectTitle}</h3>
        <p>{t.defectIntro}</p>
        <div className="co-actions">
          <Link to="/my-orders" className="btn btn--primary btn--small">
            {t.myOrders}
          </Link>
          <button
            type="button"
            className="btn btn--outline btn--small"
            disabled={busy}
            onClick={() => void act(() => dismissOrder(row.key))}
          >
            {t.dismiss}
          </button>
        </div>
      </section>
    );
  }

  if (problem.kind === 'undeliverable') {
    return <AddressFix row={row} cancel={cancel} />;
  }

  if (problem.kind === 'cod') {
    return <OutboxCodRefusal row={row} cancel={cancel} />;
  }

  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{t.refusedTitle}</h3>
      <p>{problem.message || messages.orderFailed}</p>
      <div className="co-actions">{cancel}</div>
    </section>
  );
}

/**
 * The shop does not deliver to the order's address (its pincode left the delivery areas while
 * the phone was offline, or its city is not the pincode's): the server's reason, where the shop
 * does deliver, and the address to change, checked on the device as the checkout checks it.
 * Nothing is sent until the shopper sends it to a pincode the shop delivers to.
 */
function AddressFix({ row, cancel }: { row: OutboxRow; cancel: ReactNode }) {
  const [pincode, setPincode] = useState(String(row.request.CustomerPincode));
  const [address, setAddress] = useState(row.request.CustomerAddress);
  const [busy, setBusy] = useState(false);
  const areas = useDeliveryAreas();
  const whole = isValidPincode(pincode);
  const found = useDeliveryArea(whole ? pincode : null);
  const area = whole ? found : null;
  // The refused pincode is the one the server no longer takes, whatever this phone still holds.
  const refused = pincode === String(row.request.CustomerPincode);
  const problem = areas ? pincodeProblem(pincode, { area: refused ? null : area, areas }) : null;
  const id = `addr-${row.key}`;
  const sendable = !refused && area && address.trim() !== '';
  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{t.undeliverableTitle}</h3>
      <p>{row.problem?.message || messages.orderFailed}</p>
      {areas ? <p>{deliveryAreasText(areas)}.</p> : null}
      <p>{t.addressIntro}</p>
      <div className="field">
        <label htmlFor={`${id}-pincode`}>Pincode</label>
        <input
          id={`${id}-pincode`}
          value={pincode}
          inputMode="numeric"
          autoComplete="postal-code"
          aria-invalid={problem && !refused ? true : undefined}
          aria-describedby={`${id}-pincode-note`}
          onChange={(e) => setPincode(pincodeInput(e.target.value))}
        />
        <p className="co-hint" id={`${id}-pincode-note`} aria-live="polite">
          {area && !refused
            ? t.areaFound(area.city, area.state, area.charge ? formatRupees(area.charge) : 'free')
            : refused
              ? null
              : problem}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-address`}>Full Shipping Address</label>
        <textarea
          id={`${id}-address`}
          value={address}
          rows={3}
          onChange={(e) => setAddress(e.target.value)}
        />
      </div>
      <div className="co-actions">
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={busy || !sendable}
          onClick={() => {
            if (!area) return;
            setBusy(true);
            void changeAddress(row.key, { area, address })
              .then(() => kick(true))
              .finally(() => setBusy(false));
          }}
        >
          {t.addressSend}
        </button>
        {cancel}
      </div>
    </section>
  );
}

/**
 * The slot filled up or passed its cut-off while the order waited: the server's
 * next free slots, one to pick. Nothing is sent until the shopper picks one.
 */
function SlotFix({ row, cancel }: { row: OutboxRow; cancel: ReactNode }) {
  const refusal = asSlotRefusal(row.problem?.data);
  const offers = refusal?.next ?? [];
  const [picked, setPicked] = useState(0);
  const [busy, setBusy] = useState(false);
  const offer = offers[picked];
  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{slotMessages.attentionTitle}</h3>
      <p>{row.problem?.message}</p>
      {offers.length ? (
        <fieldset className="co-slot-offers">
          <legend>{slotMessages.attentionIntro}</legend>
          {offers.map((o, i) => (
            <label key={`${o.date}-${o.slotID}`} className="co-method">
              <input
                type="radio"
                name={`offer-${row.key}`}
                checked={picked === i}
                onChange={() => setPicked(i)}
              />
              <span>
                <strong>{formatCalendarDay(o.date)}</strong> {slotOfferLabel(o)}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p>{slotMessages.attentionNone}</p>
      )}
      <div className="co-actions">
        {offer ? (
          <button
            type="button"
            className="btn btn--primary btn--small"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void chooseOfferedSlot(row.key, offer)
                .then(() => kick(true))
                .finally(() => setBusy(false));
            }}
          >
            {slotMessages.attentionSend}
          </button>
        ) : null}
        {cancel}
      </div>
    </section>
  );
}

function DateFix({ row, cancel }: { row: OutboxRow; cancel: ReactNode }) {
  const dates = asDeliveryDate(row.problem?.data);
  const [date, setDate] = useState(dates?.earliestDeliveryDate ?? '');
  const [busy, setBusy] = useState(false);
  return (
    <section className="co-attention" aria-labelledby={`att-${row.key}`}>
      <h3 id={`att-${row.key}`}>{t.dateTitle}</h3>
      <p>{row.problem?.message}</p>
      <p>{t.dateIntro}</p>
      <div className="field">
        <label htmlFor={`date-${row.key}`}>Preferred Delivery Date</label>
        <input
          id={`date-${row.key}`}
          type="date"
          value={date}
          min={dates?.earliestDeliveryDate}
          max={dates?.latestDeliveryDate}
          onChange={(e) => setDate(e.target.value)}
        />
      </div>
      <div className="co-actions">
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={busy || !date}
          onClick={() => {
            setBusy(true);
            void changeDeliveryDate(row.key, date)
              .then(() => kick(true))
              .finally(() => setBusy(false));
          }}
        >
          {t.dateSend}
        </button>
        {cancel}
      </div>
    </section>
  );
}
