/** The checkout's coupon: the code typed, the discount the server verified, and the box above the form. */
import { useState } from 'react';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';

export interface AppliedCoupon {
  code: string;
  amount: number;
}

export interface CouponState {
  text: string;
  setText(text: string): void;
  /** The coupon the server verified; null when none is applied. */
  applied: AppliedCoupon | null;
  apply(): Promise<void>;
  /** Forgets the applied coupon (the server no longer takes it). */
  drop(): void;
}

/** Verified online only: offline the shopper is told so, and the order goes without it. */
export function useCoupon(offline: boolean): CouponState {
  const notify = useNotify();
  const [text, setText] = useState('');
  const [applied, setApplied] = useState<AppliedCoupon | null>(null);

  const apply = async () => {
    const code = text.trim();
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
      setApplied({ code: answer.data.code, amount });
      notify(messages.couponApplied(formatRupees(amount)), 'success');
    } catch (err) {
      setApplied(null);
      if (err instanceof ApiError && err.offline) notify(messages.somethingWentWrong, 'error');
      else notify(err instanceof ApiError && err.message ? err.message : messages.couponInvalid, 'error');
    }
  };

  return { text, setText, applied, apply, drop: () => setApplied(null) };
}

/** The coupon box above the bill: Enter in the field applies it, as the button does, and never places the order. */
export function CouponField({ id, coupon }: { id: string; coupon: CouponState }) {
  return (
    <div className="co-coupon">
      <label htmlFor={id} className="visually-hidden">
        {t.couponLabel}
      </label>
      <input
        id={id}
        value={coupon.text}
        placeholder={t.couponLabel}
        autoCapitalize="characters"
        onChange={(e) => coupon.setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void coupon.apply();
          }
        }}
      />
      <button type="button" className="btn btn--outline" onClick={() => void coupon.apply()}>
        {t.couponApply}
      </button>
    </div>
  );
}
