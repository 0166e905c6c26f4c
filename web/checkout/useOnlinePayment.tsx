/** The checkout's payment: Cash on Delivery or online, and paying online (provider order, checkout, then the order). */
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { CartLine } from '../../domain/cart.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { asRepriced } from '../../domain/outbox.js';
import { withProof } from '../../domain/payment-resume.js';
import { type PaymentProviderName, paymentsContract } from '../../domain/payments.contract.js';
import { db } from '../../sw/db.js';
import { currentSession, type Session } from '../../sw/session.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { follow, paymentRowOf, release, startedHere } from './payment-resume.js';
import {
  newOrderKey,
  newOrderOf,
  PhotoUploadError,
  type PlaceInput,
  placeNew,
  withUploadedPhotos,
} from './place.js';
import { ScriptLoadError } from './razorpay.js';
import { useProviderCheckout } from './useProviderCheckout.js';

export type Method = 'cod' | 'online';
export type Busy = null | 'placing' | 'paying';

export interface OnlinePaymentInput {
  offline: boolean;
  /**
   * Why Cash on Delivery is off for this order (`cod-reason.ts`: a gift with no price in the box,
   * or the owner's rules), or null.
   */
  codReason: string | null;
  /** The shop's online payment provider as last heard (`usePaymentProvider`); null: none. */
  provider: PaymentProviderName | null | undefined;
  setBusy(busy: Busy): void;
  /** The coupon the server no longer takes is dropped from the checkout. */
  dropCoupon(): void;
}

/** What paying needs of the checkout at the moment the shopper pays. */
export interface PayContext {
  session: Session;
  cart: readonly CartLine[];
  /** Places the paid order (the request with the payment's proof) under the payment's key. */
  place(request: OrderRequestInput, key: string): Promise<void>;
  /** What `place` would queue for this request and key: kept as the payment in progress meanwhile. */
  placeInput(request: OrderRequestInput, key: string): PlaceInput;
}

export function useOnlinePayment({ offline, codReason, provider, setBusy, dropCoupon }: OnlinePaymentInput) {
  const notify = useNotify();
  const [method, setMethod] = useState<Method>('cod');
  const { standIn, open: openCheckout } = useProviderCheckout();
  const [failure, setFailure] = useState<string | null>(null);
  // One key per attempt to pay: the provider order and the order placed after it share it.
  const payKey = useRef<string | null>(null);
  // The photo cakes' photos uploaded during this checkout (by the photo's key): paying again uploads none twice.
  const photoIDs = useRef(new Map<string, string>());

  // Pay again (`/checkout?pay={key}`, from the notice of a payment whose page died): Checkout opens with
  // the payment's own provider order, so the one key can never be paid twice, and its kept order is placed.
  const navigate = useNavigate();
  const again = useSearchParams()[0].get('pay');
  const paidAgain = useRef<string | null>(null);
  // After every render, once per visit of `?pay=`: the key is remembered until the address drops it.
  useEffect(() => {
    if (!again) paidAgain.current = null;
    if (!again || offline || paidAgain.current === again) return;
    paidAgain.current = again;
    const back = () => navigate('/checkout', { replace: true });
    void (async () => {
      const row = await db.payments.get(again);
      const session = currentSession();
      if (!row || !session || row.userId !== session.userId) return back();
      follow(again);
      setBusy('paying');
      try {
        const result = await openCheckout(row.providerOrder, {
          name: row.order.request.CustomerName,
          email: session.email,
          contact: session.phone,
        });
        if (result.kind !== 'paid') {
          notify(result.kind === 'failed' ? t.paymentFailed(result.reason) : t.paymentCancelled, 'info');
          return back();
        }
        const { row: placed } = await placeNew({
          ...row.order,
          key: row.key,
          userId: row.userId,
          email: row.email,
          request: withProof(row.order.request, result.proof),
        });
        if (placed.state === 'sent') notify(messages.orderPlaced, 'success');
        navigate(`/order-success?order=${encodeURIComponent(row.key)}`, { replace: true });
      } catch (err) {
        notify(err instanceof ScriptLoadError ? err.message : messages.orderFailed, 'error');
        back();
      } finally {
        setBusy(null);
        release(again);
      }
    })();
  });

  /** Cart prices the server no longer charges become the new ones, for the shopper to see before paying. */
  const takeNewPrices = async (cart: readonly CartLine[], data: unknown) => {
    const repriced = asRepriced(data);
    if (!repriced) return;
    await db.transaction('rw', db.cart, async () => {
      for (const [i, line] of cart.entries()) {
        const next = repriced.lines[i]?.new.price;
        if (next !== undefined && next !== line.price) await db.cart.update(line.key, { price: next });
      }
    });
    if (repriced.coupon && !repriced.coupon.applied) dropCoupon();
  };

  const pay = async (request: OrderRequestInput, { session, cart, place, placeInput }: PayContext) => {
    if (offline) {
      notify(t.onlineNeedsNetwork, 'error');
      return;
    }
    const key = payKey.current ?? newOrderKey();
    payKey.current = key;
    // This page follows its own payment; the resume (for a page that died) leaves it alone.
    startedHere.add(key);
    setBusy('paying');
    setFailure(null);
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
      // Kept before Checkout opens: if this page dies in the UPI app, the next one asks what became of it.
      await db.payments.put(paymentRowOf(newOrderOf(placeInput(paying, key)), order, Date.now()));
      const result = await openCheckout(order, {
        name: paying.CustomerName,
        email: session.email,
        contact: session.phone,
      });
      if (result.kind === 'paid') {
        // Its outbox row replaces the payment in progress in one transaction (`queueOrder`).
        await place(withProof(paying, result.proof), key);
        payKey.current = null;
        return;
      }
      // A failed payment is not in progress until they try again (same key). One closed unpaid stays: with
      // UPI the shopper may have paid in the app and closed Checkout before it said so.
      if (result.kind === 'failed') {
        await db.payments.delete(key);
        setFailure(result.reason);
        notify(t.paymentFailed(result.reason), 'error');
      } else {
        notify(t.paymentCancelled, 'info');
      }
      // Not paid as far as this page knows: the resume follows it from here, so a payment the
      // shopper did make in the UPI app shows as placed (and leaves the cart) when the server has it.
      release(key);
    } catch (err) {
      if (err instanceof ScriptLoadError || err instanceof PhotoUploadError) notify(err.message, 'error');
      else if (err instanceof ApiError && err.status === 409 && reasonOf(err) === 'placed') {
        // Paid earlier under this key (in the UPI app, while Checkout still looked open) and placed
        // by the server: the resume shows the order and takes its lines out of the cart.
        payKey.current = null;
        release(key);
        notify(err.message, 'info');
      } else if (err instanceof ApiError) {
        if (err.status === 409) await takeNewPrices(cart, err.envelope?.data);
        notify(err.message || messages.orderFailed, 'error');
      } else notify(messages.orderFailed, 'error');
    } finally {
      setBusy(null);
    }
  };

  // What the order is paid by: the shopper's choice, unless Cash on Delivery is ruled out.
  const payBy: Method = codReason ? 'online' : method;
  return {
    payBy,
    choose: setMethod,
    provider,
    onlineReady: !offline && !!provider,
    failure,
    /** After a failed payment: Cash on Delivery instead. */
    switchToCod() {
      setMethod('cod');
      setFailure(null);
    },
    /** The test provider's checkout while it is open. */
    standIn,
    pay,
  };
}

function reasonOf(err: ApiError): unknown {
  return (err.envelope?.data as { reason?: unknown } | null | undefined)?.reason;
}
