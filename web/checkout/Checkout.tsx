/**
 * The spec's checkout (sections 2, 4, 5, 9) on the order outbox, composed of the form's state
 * (`useCheckoutForm`), the coupon, the payment and the summary. It starts from the pincode: its
 * delivery area on the device fills State and City, sets the charge, and offers only its dates and
 * slots; a pincode the shop does not deliver to is refused at once. Every figure is `domain/`'s
 * (the server prices with the same code and refuses any other figure). Place Order stores the
 * order on the device first; see place.ts.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  type AreaLookup,
  CHECKOUT_FIELDS,
  checkoutDates,
  checkoutErrors,
  checkoutTotals,
  orderItems,
  pincodeProblem,
} from '../../domain/checkout.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { isValidPincode, latestDeliveryDate } from '../../domain/delivery.js';
import { type DeliveryArea, slotsOfArea } from '../../domain/delivery-areas.js';
import {
  giftMessages,
  giftPaymentProblem,
  PHOTO_CAKE_NOTICE_DAYS,
  photoCakeDateProblem,
} from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import type { SlotAvailability } from '../../domain/slots.js';
import { db } from '../../sw/db.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useCartLines } from '../hooks/useCatalogue.js';
import { useDeliveryArea, useDeliveryAreas, useShopSettings } from '../hooks/useDelivery.js';
import { useSession } from '../hooks/useSession.js';
import { useTitle } from '../hooks/useTitle.js';
import { usePwaState } from '../pwa/pwa-state.js';
import { CheckoutSummary } from './CheckoutSummary.js';
import { placing, recipientCalls } from './checkout-place.js';
import { useCodReason } from './cod-reason.js';
import { DeliveryDateField, DeliveryFields, fieldWiring, PincodeFields } from './DeliveryFields.js';
import { DraftNote } from './DraftNote.js';
import { GiftOptions, giftErrors, giftRequest } from './GiftOptions.js';
import { PaymentMethods } from './PaymentMethods.js';
import { newOrderKey } from './place.js';
import { RazorpayStandIn } from './razorpay-stand-in.js';
import { SlotPicker, useDeviceSlots, useSlotsOn } from './SlotPicker.js';
import { useCheckoutForm } from './useCheckoutForm.js';
import { CouponField, couponLine, couponOffFor, useCoupon } from './useCoupon.js';
import { type Busy, type Method, useOnlinePayment } from './useOnlinePayment.js';
import './checkout.css';

export default function Checkout() {
  const session = useSession();
  const lines = useCartLines();
  const { offline } = usePwaState();
  const notify = useNotify();
  const navigate = useNavigate();
  useTitle(t.heading);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const formId = useId();
  const now = new Date();
  const device = useDeviceSlots();
  // A device that has not synced slots yet orders as the spec did: a date, Standard delivery.
  const hasSlots = (device?.slots.length ?? 0) > 0;
  // A photo cake needs the shop's notice (the photo is printed): `photoCakeNoticeDays`.
  const photoCake = lines?.find((l) => l.photo) ?? null;
  const settings = useShopSettings();
  const noticeDays = settings?.photoCakeNoticeDays ?? PHOTO_CAKE_NOTICE_DAYS;
  const saved =
    useLiveQuery(async () => (await db.recipients.get(session?.userId ?? 0))?.rows, [session]) ?? [];
  const areas = useDeliveryAreas();

  useEffect(() => {
    if (session && !offline) void recipientCalls().then((r) => r.refreshRecipients(session.userId));
  }, [session, offline]);

  const { form, slotID, gift, ...edit } = useCheckoutForm(session);
  const whole = isValidPincode(form.CustomerPincode);
  const area = useDeliveryArea(whole ? form.CustomerPincode : null);
  // The pincode's area (null: not delivered, or no whole pincode yet; undefined: looking it up).
  const known = whole ? area : null;
  const dates = checkoutDates(known, {
    slots: device?.slots ?? [],
    closures: device?.closures ?? [],
    photoCake: photoCake !== null,
    noticeDays,
    now,
  });
  const { suggestDate } = edit;
  useEffect(() => {
    suggestDate(dates.suggested);
  }, [suggestDate, dates.suggested]);
  const place = { area: known, areas: areas ?? [] };
  const pincodeSays = areas ? pincodeProblem(form.CustomerPincode, place) : null;
  const day = useSlotsOn(device, form.DeliveryDate, offline);
  // Only the slots the pincode gets (every slot until the pincode is known).
  const offered = known ? slotsOfArea(known, day.slots) : day.slots;
  // The slot the shopper picked while it can be had on this date, else the shop's Standard.
  const chosen: SlotAvailability | null =
    offered.find((s) => s.slotID === slotID && s.state === 'open') ??
    offered.find((s) => s.isDefault && s.state === 'open') ??
    null;
  const earliest = dates.earliest;
  const cart = lines ?? [];
  const subtotal = checkoutTotals(cart, null, null).subtotal;
  const coupon = useCoupon(offline, subtotal, settings?.coupons);
  const couponOff = couponOffFor(coupon.applied, subtotal);
  const totals = checkoutTotals(cart, known, couponOff, chosen?.surcharge ?? 0);
  // Someone else's gift with no price in the box (Cash on Delivery would ask them for money), or the owner's rules.
  const giftBlocked = gift.toSomeoneElse && gift.hidePrice;
  const { provider, reason: codBlocked } = useCodReason({ giftBlocked, settings, total: totals.total, cart });

  const payment = useOnlinePayment({
    offline,
    codReason: codBlocked,
    provider,
    setBusy,
    dropCoupon: coupon.drop,
  });
  const { payBy } = payment;

  if (!session) return null;

  const { placeInput, finish } = placing({
    session,
    totals,
    couponOff,
    cart,
    slot: chosen,
    date: form.DeliveryDate,
    setBusy,
    notify,
    navigate,
  });

  /** `at`: the area the request is for (the one shown, or the one read at Place Order). */
  const buildRequest = (m: Method, at: DeliveryArea | null | undefined = known): OrderRequestInput => ({
    DeliveryDate: form.DeliveryDate,
    ...(hasSlots ? { DeliverySlotID: chosen?.slotID ?? null } : {}),
    CustomerName: form.CustomerName,
    CustomerEmail: session.email,
    CustomerPhone: session.phone,
    CustomerAddress: form.CustomerAddress,
    // The spec's API keeps State and City: they are the pincode's area's, as the server checks.
    State: at?.state ?? '',
    City: at?.city ?? '',
    CustomerPincode: form.CustomerPincode,
    PaymentMethod: m === 'online' ? PAYMENT_METHODS.online : PAYMENT_METHODS.cod,
    TotalAmount: totals.total,
    OrderItems: orderItems(cart),
    // A coupon under its minimum takes nothing: the order goes without it rather than be refused.
    CouponCode: couponOff ? (coupon.applied?.code ?? null) : null,
    ...giftRequest(gift),
  });
  const slotCheck = hasSlots ? (chosen ? { state: chosen.state } : null) : undefined;
  /** The checkout's rules plus the gifts': the photo cake's date and the recipient and card fields. */
  const allErrors = (request: OrderRequestInput, at: Date, where: AreaLookup = place) => {
    const found = checkoutErrors(request, at, slotCheck, where);
    const tooSoon = photoCake ? photoCakeDateProblem(request.DeliveryDate, at, noticeDays) : null;
    if (tooSoon && !found.DeliveryDate)
      found.DeliveryDate = giftMessages.photoTooSoon(photoCake?.title ?? '', tooSoon.earliest);
    return { ...found, ...giftErrors(gift) };
  };
  const errors = submitted ? allErrors(buildRequest(payBy), now) : {};
  const field = fieldWiring(formId, errors);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setSubmitted(true);
    // A Place Order faster than the pincode's lookup still judges the pincode, not an empty City.
    const area = whole ? (known ?? (await db.areas.get(form.CustomerPincode)) ?? null) : null;
    const request = buildRequest(payBy, area);
    const found = allErrors(request, new Date(), { area, areas: areas ?? [] });
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
    // Offline, an order Cash on Delivery is ruled out for cannot go: online payment needs the network.
    if (payProblem || (codBlocked && offline)) {
      notify(payProblem ?? `${codBlocked} ${t.onlineNeedsNetwork}`, 'error');
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
      await payment.pay(request, { session, cart, place: finish, placeInput });
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

  return (
    <div className="page checkout">
      <h1>{t.heading}</h1>
      {edit.drafted && cart.length ? <DraftNote onClear={edit.clear} /> : null}
      {/* Nothing until the device has answered for the cart and the slots (milliseconds): the slot
          picker arriving afterwards pushed the rest of the form down (a layout shift Lighthouse saw). */}
      {lines === undefined || device === undefined ? null : !cart.length ? (
        <div className="empty">
          <p>{t.emptyCart}</p>
          <Link to="/products" className="btn btn--primary">
            {t.continueShopping}
          </Link>
        </div>
      ) : (
        <form className="co-grid" noValidate onSubmit={(e) => void submit(e)}>
          <div className="co-fields">
            <PincodeFields
              idPrefix={formId}
              pincode={form.CustomerPincode}
              area={known}
              problem={pincodeSays}
              errors={errors}
              onChange={(p) => edit.set('CustomerPincode', p)}
            />
            <DeliveryDateField
              field={field}
              value={form.DeliveryDate}
              min={earliest}
              max={latestDeliveryDate(now)}
              onChange={(d) => edit.set('DeliveryDate', d)}
            />
            {hasSlots ? (
              <SlotPicker
                id={`${formId}-DeliverySlotID`}
                slots={offered}
                closed={day.closed}
                deliveryCharge={known?.charge ?? null}
                offline={offline}
                value={chosen?.slotID ?? null}
                error={errors.DeliverySlotID}
                onChange={edit.pickSlot}
              />
            ) : null}
            <GiftOptions
              value={gift}
              onChange={edit.setGift}
              saved={saved}
              onPickSaved={edit.pickSaved}
              errors={errors}
              idPrefix={formId}
            />
            <DeliveryFields
              idPrefix={formId}
              form={form}
              set={edit.set}
              errors={errors}
              session={session}
              forSomeoneElse={gift.toSomeoneElse}
            />
            <PaymentMethods
              idPrefix={formId}
              payment={payment}
              codReason={codBlocked}
              offline={offline}
              error={field.error('PaymentMethod')}
            />
          </div>
          <CheckoutSummary
            lines={cart}
            totals={totals}
            slot={chosen}
            busy={busy}
            gift={gift}
            coupon={<CouponField id={`${formId}-coupon`} coupon={coupon} />}
            couponSaid={couponLine(coupon.applied, subtotal)}
            deliveryNote={known ? null : whole && known === null ? t.notDeliveredHere : t.pincodeFirst}
          />
        </form>
      )}
      {payment.standIn ? <RazorpayStandIn {...payment.standIn} /> : null}
    </div>
  );
}
