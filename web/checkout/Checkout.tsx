import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { CartLine } from '../../domain/cart.js';
import { lineChoice, lineTotal } from '../../domain/cart.js';
import {
  CHECKOUT_FIELDS,
  type CheckoutField,
  checkoutErrors,
  checkoutTotals,
  orderItems,
  pincodeInput,
} from '../../domain/checkout.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import {
  citiesOf,
  DELIVERY_STATES,
  earliestDeliveryDate,
  latestDeliveryDate,
} from '../../domain/delivery.js';
import {
  earliestPhotoCakeDate,
  giftMessages,
  giftPaymentProblem,
  photoCakeDateProblem,
  WITH_LOVE,
} from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { ordersContract } from '../../domain/orders.contract.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { asRepriced } from '../../domain/outbox.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import {
  type CheckoutSuccess,
  type PaymentProviderName,
  type ProviderOrder,
  paymentsContract,
} from '../../domain/payments.contract.js';
import { earliestSlotDate, type SlotAvailability } from '../../domain/slots.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import { db } from '../../sw/db.js';
import { ApiError, call } from '../api/client.js';
import { CartLineGift } from '../components/CakeGift.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useCartLines } from '../hooks/useCatalogue.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { usePwaState } from '../pwa/pwa-state.js';
import { GiftOptions, type GiftState, giftErrors, giftRequest, noGift } from './GiftOptions.js';
import { OrderBill } from './OrderBill.js';
import { newOrderKey, PhotoUploadError, placeOrder, withUploadedPhotos } from './place.js';
import { type PaymentResult, payWithRazorpay, ScriptLoadError } from './razorpay.js';
import { SlotPicker, useDeviceSlots, useSlotsOn } from './SlotPicker.js';
import './checkout.css';

/**
 * The saved recipients' calls, loaded when needed: a static import would make them a chunk of
 * their own that the first screen's entry names among the checkout's (its JavaScript budget).
 */
const recipientCalls = () => import('../account/recipients.js');

/**
 * The spec's checkout (sections 2, 4, 5, 9) on the order outbox. Every figure
 * is `domain/`'s (the server prices with the same code and refuses any other
 * figure). Place Order stores the order on the device first; see place.ts.
 */
interface FormState {
  DeliveryDate: string;
  CustomerName: string;
  State: string;
  City: string;
  CustomerAddress: string;
  CustomerPincode: string;
}

type Method = 'cod' | 'online';

function initialForm(): FormState {
  return {
    DeliveryDate: earliestDeliveryDate(new Date()),
    CustomerName: '',
    State: '',
    City: '',
    CustomerAddress: '',
    CustomerPincode: '',
  };
}

export default function Checkout() {
  const session = useSession();
  const lines = useCartLines();
  const { offline } = usePwaState();
  const notify = useNotify();
  const navigate = useNavigate();
  useTitle(t.heading);
  const [form, setForm] = useState<FormState>(initialForm);
  const touched = useRef(false);
  const [submitted, setSubmitted] = useState(false);
  const [couponText, setCouponText] = useState('');
  const [coupon, setCoupon] = useState<{ code: string; amount: number } | null>(null);
  const [method, setMethod] = useState<Method>('cod');
  const [provider, setProvider] = useState<PaymentProviderName | null | undefined>(undefined);
  const [busy, setBusy] = useState<null | 'placing' | 'paying'>(null);
  const [standIn, setStandIn] = useState<{ order: ProviderOrder; done(r: PaymentResult): void } | null>(null);
  const [payFailure, setPayFailure] = useState<string | null>(null);
  // One key per attempt to pay: the provider order and the order placed after it share it.
  const payKey = useRef<string | null>(null);
  // The photo cakes' photos uploaded during this checkout (by the photo's key): paying again uploads none twice.
  const photoIDs = useRef(new Map<string, string>());
  const formId = useId();
  const now = new Date();
  const device = useDeviceSlots();
  // A device that has not synced slots yet orders as the spec did: a date, Standard delivery.
  const hasSlots = (device?.slots.length ?? 0) > 0;
  const [slotID, setSlotID] = useState<number | null>(null);
  const day = useSlotsOn(device, form.DeliveryDate, offline);
  // The slot the shopper picked while it can be had on this date, else the shop's Standard.
  const chosen: SlotAvailability | null =
    day.slots.find((s) => s.slotID === slotID && s.state === 'open') ??
    day.slots.find((s) => s.isDefault && s.state === 'open') ??
    null;
  const [gift, setGift] = useState<GiftState>(noGift);
  const saved =
    useLiveQuery(async () => (await db.recipients.get(session?.userId ?? 0))?.rows, [session]) ?? [];
  // A photo cake needs a day's notice (the photo is printed): its earliest date is tomorrow.
  const photoCake = lines?.find((l) => l.photo) ?? null;
  const photoEarliest = earliestPhotoCakeDate(now);
  const shopEarliest =
    (hasSlots && device ? earliestSlotDate(device.slots, device.closures, now) : null) ??
    earliestDeliveryDate(now);
  const earliest = photoCake && photoEarliest > shopEarliest ? photoEarliest : shopEarliest;
  // Someone else's gift with no price in the box is paid online: Cash on Delivery would ask them for money.
  const codBlocked = gift.toSomeoneElse && gift.hidePrice;
  const payBy: Method = codBlocked ? 'online' : method;

  useEffect(() => {
    if (session && !offline) void recipientCalls().then((r) => r.refreshRecipients(session.userId));
  }, [session, offline]);

  // A photo cake in the cart moves the default date to the first it can have.
  useEffect(() => {
    if (!photoCake || touched.current) return;
    const first = earliestPhotoCakeDate(new Date());
    setForm((f) => (f.DeliveryDate < first ? { ...f, DeliveryDate: first } : f));
  }, [photoCake]);

  // The spec's default date, unless the shop closed it: then the first date a slot can be had.
  useEffect(() => {
    if (!device?.slots.length || touched.current) return;
    const from = earliestDeliveryDate(new Date());
    const first = earliestSlotDate(device.slots, device.closures, new Date(), from);
    if (first && first !== from) setForm((f) => ({ ...f, DeliveryDate: first }));
  }, [device]);

  // What the shopper typed for their last order on this phone, so a repeat order is a tap.
  useEffect(() => {
    if (!session) return;
    void ownOutboxRows(session.userId).then((rows) => {
      const last = rows.sort((a, b) => a.createdAt - b.createdAt).at(-1)?.request;
      if (!last || touched.current) return;
      setForm((f) => ({
        ...f,
        CustomerName: last.CustomerName,
        State: last.State,
        City: last.City,
        CustomerAddress: last.CustomerAddress,
        CustomerPincode: String(last.CustomerPincode),
      }));
    });
  }, [session]);

  useEffect(() => {
    if (offline || provider !== undefined) return;
    call(paymentsContract.methods, { token: null })
      .then((answer) => setProvider(answer.data?.provider ?? null))
      .catch(() => undefined);
  }, [offline, provider]);

  if (!session) return null;
  const cart = lines ?? [];
  const totals = checkoutTotals(cart, form.State, form.City, coupon?.amount ?? 0, chosen?.surcharge ?? 0);
  const onlineReady = !offline && !!provider;

  const set = (field: keyof FormState, value: string) => {
    touched.current = true;
    setForm((f) => ({ ...f, [field]: value, ...(field === 'State' ? { City: '' } : {}) }));
  };

  const buildRequest = (m: Method): OrderRequestInput => ({
    DeliveryDate: form.DeliveryDate,
    ...(hasSlots ? { DeliverySlotID: chosen?.slotID ?? null } : {}),
    CustomerName: form.CustomerName,
    CustomerEmail: session.email,
    CustomerPhone: session.phone,
    CustomerAddress: form.CustomerAddress,
    State: form.State,
    City: form.City,
    CustomerPincode: form.CustomerPincode,
    PaymentMethod: m === 'online' ? PAYMENT_METHODS.online : PAYMENT_METHODS.cod,
    TotalAmount: totals.total,
    OrderItems: orderItems(cart),
    CouponCode: coupon?.code ?? null,
    ...giftRequest(gift),
  });
  const slotCheck = hasSlots ? (chosen ? { state: chosen.state } : null) : undefined;
  /** The checkout's rules plus the gifts': the photo cake's date and the recipient and card fields. */
  const allErrors = (request: OrderRequestInput, at: Date) => {
    const found = checkoutErrors(request, at, slotCheck);
    const tooSoon = photoCake ? photoCakeDateProblem(request.DeliveryDate, at) : null;
    if (tooSoon && !found.DeliveryDate)
      found.DeliveryDate = giftMessages.photoTooSoon(photoCake?.title ?? '', tooSoon.earliest);
    return { ...found, ...giftErrors(gift) };
  };
  const errors = submitted ? allErrors(buildRequest(payBy), now) : {};

  const applyCoupon = async () => {
    const code = couponText.trim();
    if (!code) {
      notify(messages.couponInvalid, 'error');
      return;
    }
    if (offline) {
      notify(t.couponNeedsNetwork, 'info');
      return;
    }
    try {
      const answer = await call(ordersContract.verifyCoupon, { body: { code } });
      if (!answer.data) throw new ApiError(messages.couponInvalid, 500, null);
      const amount = answer.data.discountAmount;
      setCoupon({ code: answer.data.code, amount });
      notify(messages.couponApplied(formatRupees(amount)), 'success');
    } catch (err) {
      setCoupon(null);
      if (err instanceof ApiError && err.offline) notify(messages.somethingWentWrong, 'error');
      else notify(err instanceof ApiError && err.message ? err.message : messages.couponInvalid, 'error');
    }
  };

  const finish = async (request: OrderRequestInput, key: string) => {
    setBusy('placing');
    const { row } = await placeOrder({
      key,
      session,
      request,
      totals,
      couponAmount: coupon?.amount ?? 0,
      lines: cart,
      slot: chosen
        ? {
            date: form.DeliveryDate,
            slotID: chosen.slotID,
            name: chosen.name,
            start: chosen.start,
            end: chosen.end,
            surcharge: chosen.surcharge,
          }
        : null,
    });
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
    navigate(`/order-success?order=${encodeURIComponent(key)}`);
  };

  /** Cart prices the server no longer charges become the new ones, for the shopper to see before paying. */
  const takeNewPrices = async (data: unknown) => {
    const repriced = asRepriced(data);
    if (!repriced) return;
    await db.transaction('rw', db.cart, async () => {
      for (const [i, line] of cart.entries()) {
        const next = repriced.lines[i]?.new.price;
        if (next !== undefined && next !== line.price) await db.cart.update(line.key, { price: next });
      }
    });
    if (repriced.coupon && !repriced.coupon.applied) setCoupon(null);
  };

  const payOnline = async (request: OrderRequestInput) => {
    if (offline) {
      notify(t.onlineNeedsNetwork, 'error');
      return;
    }
    const key = payKey.current ?? newOrderKey();
    payKey.current = key;
    setBusy('paying');
    setPayFailure(null);
    try {
      // The photos first: the provider order prices, and the payment pays, an order that carries them.
      const paying = await withUploadedPhotos(session, request, cart, photoIDs.current);
      const { RazorpayOrderId: _o, RazorpayPaymentId: _p, RazorpaySignature: _s, ...body } = paying;
      const answer = await call(paymentsContract.createRazorpayOrder, {
        body,
        headers: { 'idempotency-key': key },
      });
      const order = answer.data;
      if (!order) throw new ApiError(messages.orderFailed, 500, null);
      const result =
        order.provider === 'test'
          ? await new Promise<PaymentResult>((done) => setStandIn({ order, done }))
          : await payWithRazorpay(order, {
              name: paying.CustomerName,
              email: session.email,
              contact: session.phone,
            });
      setStandIn(null);
      if (result.kind === 'paid') {
        await finish(withProof(paying, result.proof), key);
        payKey.current = null;
      } else if (result.kind === 'failed') {
        setPayFailure(result.reason);
        notify(t.paymentFailed(result.reason), 'error');
      } else {
        notify(t.paymentCancelled, 'info');
      }
    } catch (err) {
      if (err instanceof ScriptLoadError || err instanceof PhotoUploadError) notify(err.message, 'error');
      else if (err instanceof ApiError) {
        if (err.status === 409) await takeNewPrices(err.envelope?.data);
        notify(err.message || messages.orderFailed, 'error');
      } else notify(messages.orderFailed, 'error');
    } finally {
      setBusy(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setSubmitted(true);
    const request = buildRequest(payBy);
    const found = allErrors(request, new Date());
    if (Object.keys(found).length) {
      notify(messages.formInvalid, 'error');
      const first = [...CHECKOUT_FIELDS, 'RecipientName', 'RecipientPhone', 'CardMessage'].find(
        (f) => found[f as keyof typeof found],
      );
      if (first) document.getElementById(`${formId}-${first}`)?.focus();
      return;
    }
    const payProblem = giftPaymentProblem({
      recipient: gift.toSomeoneElse,
      hidePrice: gift.hidePrice,
      paymentMethod: request.PaymentMethod as (typeof PAYMENT_METHODS)[keyof typeof PAYMENT_METHODS],
    });
    if (payProblem || (codBlocked && offline)) {
      notify(payProblem ?? `${giftMessages.giftCod} ${t.onlineNeedsNetwork}`, 'error');
      return;
    }
    if (!session.email || !session.phone || !request.CustomerName.trim() || !request.CustomerAddress.trim()) {
      notify(messages.fillRequiredDetails, 'error');
      return;
    }
    if (!cart.length) {
      notify(t.emptyCart, 'error');
      return;
    }
    if (payBy === 'online') {
      await payOnline(request);
      return;
    }
    try {
      await finish(request, newOrderKey());
    } catch {
      // Only the local store can fail here (the network never throws out of the outbox): nothing was queued.
      notify(messages.orderFailed, 'error');
      setBusy(null);
    }
  };

  const fieldProps = (field: CheckoutField) => ({
    id: `${formId}-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${formId}-${field}-error` : undefined,
  });
  const fieldError = (field: CheckoutField) =>
    errors[field] ? (
      <p className="co-error" id={`${formId}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="page checkout">
      <div className="co-coupon">
        <label htmlFor={`${formId}-coupon`} className="visually-hidden">
          {t.couponLabel}
        </label>
        <input
          id={`${formId}-coupon`}
          value={couponText}
          placeholder={t.couponLabel}
          autoCapitalize="characters"
          onChange={(e) => setCouponText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void applyCoupon();
            }
          }}
        />
        <button type="button" className="btn btn--outline" onClick={() => void applyCoupon()}>
          {t.couponApply}
        </button>
      </div>
      <h1>{t.heading}</h1>
      {lines && !cart.length ? (
        <div className="empty">
          <p>{t.emptyCart}</p>
          <Link to="/products" className="btn btn--primary">
            {t.continueShopping}
          </Link>
        </div>
      ) : (
        <form className="co-grid" noValidate onSubmit={(e) => void submit(e)}>
          <div className="co-fields">
            <div className="field">
              <label htmlFor={`${formId}-DeliveryDate`}>Preferred Delivery Date</label>
              <input
                type="date"
                {...fieldProps('DeliveryDate')}
                value={form.DeliveryDate}
                min={earliest}
                max={latestDeliveryDate(now)}
                required
                onChange={(e) => set('DeliveryDate', e.target.value)}
              />
              {fieldError('DeliveryDate')}
            </div>
            {hasSlots ? (
              <SlotPicker
                id={`${formId}-DeliverySlotID`}
                slots={day.slots}
                closed={day.closed}
                offline={offline}
                value={chosen?.slotID ?? null}
                error={errors.DeliverySlotID}
                onChange={(id) => {
                  touched.current = true;
                  setSlotID(id);
                }}
              />
            ) : null}
            <GiftOptions
              value={gift}
              onChange={(next) => {
                touched.current = true;
                setGift(next);
              }}
              saved={saved}
              onPickSaved={(r) => {
                touched.current = true;
                setGift((g) => ({ ...g, toSomeoneElse: true, name: r.name, phone: r.phone, save: false }));
                setForm((f) => ({
                  ...f,
                  State: r.state,
                  City: r.city,
                  CustomerAddress: r.address,
                  CustomerPincode: r.pincode,
                }));
              }}
              errors={errors}
              idPrefix={formId}
            />
            <div className="field">
              <label htmlFor={`${formId}-CustomerName`}>Full Name</label>
              <input
                {...fieldProps('CustomerName')}
                value={form.CustomerName}
                autoComplete="name"
                required
                onChange={(e) => set('CustomerName', e.target.value)}
              />
              {fieldError('CustomerName')}
            </div>
            <div className="co-row">
              <div className="field">
                <label htmlFor={`${formId}-email`}>Email</label>
                <input id={`${formId}-email`} value={session.email} readOnly />
              </div>
              <div className="field">
                <label htmlFor={`${formId}-phone`}>Phone</label>
                <input id={`${formId}-phone`} value={session.phone} readOnly />
              </div>
            </div>
            <div className="co-row">
              <div className="field">
                <label htmlFor={`${formId}-State`}>State</label>
                <select
                  {...fieldProps('State')}
                  value={form.State}
                  required
                  onChange={(e) => set('State', e.target.value)}
                >
                  <option value="">Select state</option>
                  {DELIVERY_STATES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
                {fieldError('State')}
              </div>
              <div className="field">
                <label htmlFor={`${formId}-City`}>City</label>
                <select
                  {...fieldProps('City')}
                  value={form.City}
                  required
                  onChange={(e) => set('City', e.target.value)}
                >
                  <option value="">Select city</option>
                  {citiesOf(form.State).map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                {fieldError('City')}
              </div>
            </div>
            <div className="field">
              <label htmlFor={`${formId}-CustomerAddress`}>
                {gift.toSomeoneElse ? "Recipient's full shipping address" : 'Full Shipping Address'}
              </label>
              <textarea
                {...fieldProps('CustomerAddress')}
                aria-describedby={[
                  `${formId}-address-hint`,
                  errors.CustomerAddress ? `${formId}-CustomerAddress-error` : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                value={form.CustomerAddress}
                rows={3}
                autoComplete="street-address"
                required
                onChange={(e) => set('CustomerAddress', e.target.value)}
              />
              <p className="co-hint" id={`${formId}-address-hint`}>
                {t.addressHint}
              </p>
              {fieldError('CustomerAddress')}
            </div>
            <div className="field">
              <label htmlFor={`${formId}-CustomerPincode`}>Pincode</label>
              <input
                {...fieldProps('CustomerPincode')}
                value={form.CustomerPincode}
                inputMode="numeric"
                autoComplete="postal-code"
                required
                onChange={(e) => set('CustomerPincode', pincodeInput(e.target.value))}
              />
              {fieldError('CustomerPincode')}
            </div>
            <fieldset className="co-payment">
              <legend>{t.paymentLegend}</legend>
              <label className="co-method">
                <input
                  type="radio"
                  name="method"
                  value="cod"
                  checked={payBy === 'cod'}
                  disabled={codBlocked}
                  aria-describedby={`${formId}-cod-note`}
                  onChange={() => setMethod('cod')}
                />
                <span>
                  <strong>{t.cod}</strong>
                  <span className="co-hint" id={`${formId}-cod-note`}>
                    {codBlocked ? giftMessages.giftCod : t.codNote}
                  </span>
                </span>
              </label>
              <label className={`co-method${onlineReady ? '' : ' co-method--off'}`}>
                <input
                  type="radio"
                  name="method"
                  value="online"
                  checked={payBy === 'online'}
                  disabled={!onlineReady}
                  aria-describedby={`${formId}-online-note`}
                  onChange={() => setMethod('online')}
                />
                <span>
                  <strong>{t.online}</strong>
                  <span className="co-hint" id={`${formId}-online-note`}>
                    {offline
                      ? t.onlineNeedsNetwork
                      : provider === null
                        ? t.onlineUnavailable
                        : provider === 'test'
                          ? t.onlineTestNote
                          : t.onlineNote}
                  </span>
                </span>
              </label>
              {fieldError('PaymentMethod')}
              {payFailure ? (
                <div className="co-payfail" role="alert">
                  <p>{t.paymentFailed(payFailure)}</p>
                  <div className="co-actions">
                    <button type="submit" className="btn btn--primary btn--small">
                      {t.paymentRetry}
                    </button>
                    <button
                      type="button"
                      className="btn btn--outline btn--small"
                      onClick={() => {
                        setMethod('cod');
                        setPayFailure(null);
                      }}
                    >
                      {t.paymentUseCod}
                    </button>
                  </div>
                </div>
              ) : null}
            </fieldset>
          </div>
          <Summary lines={cart} totals={totals} slot={chosen} busy={busy} gift={gift} />
        </form>
      )}
      {standIn ? <StandInCheckout order={standIn.order} done={standIn.done} /> : null}
    </div>
  );
}

function withProof(request: OrderRequestInput, proof: CheckoutSuccess): OrderRequestInput {
  return {
    ...request,
    PaymentMethod: PAYMENT_METHODS.online,
    RazorpayPaymentId: proof.razorpay_payment_id,
    RazorpayOrderId: proof.razorpay_order_id,
    RazorpaySignature: proof.razorpay_signature,
  };
}

function Summary({
  lines,
  totals,
  slot,
  busy,
  gift,
}: {
  lines: readonly CartLine[];
  totals: ReturnType<typeof checkoutTotals>;
  slot: SlotAvailability | null;
  busy: null | 'placing' | 'paying';
  gift: GiftState;
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
      <OrderBill
        totals={totals}
        slot={slot}
        couponSaid={totals.discount > 0 ? messages.couponApplied(formatRupees(totals.discount)) : undefined}
      />
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

/**
 * The local stand-in for Razorpay Checkout (a shop without keys that runs with
 * TEST_PAYMENTS=true): the same flow, paid through `/api/payments/test/pay`.
 */
function StandInCheckout({ order, done }: { order: ProviderOrder; done(r: PaymentResult): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [paying, setPaying] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
  }, []);
  const pay = async () => {
    setPaying(true);
    try {
      const answer = await call(paymentsContract.testPay, {
        body: { razorpay_order_id: order.razorpayOrderId },
      });
      if (!answer.data) throw new Error(messages.orderFailed);
      done({ kind: 'paid', proof: answer.data });
    } catch (err) {
      done({ kind: 'failed', reason: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <dialog
      ref={ref}
      className="co-dialog"
      aria-labelledby="co-pay-title"
      onCancel={(e) => {
        e.preventDefault();
        done({ kind: 'dismissed' });
      }}
    >
      <h2 id="co-pay-title">{t.payTitle}</h2>
      <p>{t.paymentDescription}</p>
      <p className="co-hint">{t.payStandInNote}</p>
      <div className="co-actions">
        <button type="button" className="btn btn--primary" disabled={paying} onClick={() => void pay()}>
          {t.payButton(formatRupees(order.totalAmount))}
        </button>
        <button
          type="button"
          className="btn btn--outline"
          disabled={paying}
          onClick={() => done({ kind: 'dismissed' })}
        >
          {t.payCancel}
        </button>
      </div>
    </dialog>
  );
}
