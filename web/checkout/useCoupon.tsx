/**
 * The checkout's coupon: the code typed, the coupon applied, and the box above the bill. Online the
 * server judges it for this basket (`VerifyCoupon` with the items' total). Offline the phone's list
 * of coupon terms (the `coupons` device setting, known by a hash of each code) gives its likely
 * effect, and the order is queued with it; the server decides when the order is sent, and a refusal
 * then waits for the shopper with the new total, as a changed price does.
 */
import { useState } from 'react';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { type CouponOff, type CouponTerms, couponKey } from '../../domain/coupon-terms.js';
import { couponMessages, couponRefusal, couponTakes } from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';

export interface AppliedCoupon {
  code: string;
  /** What it takes off: a flat amount or a percentage with its cap. */
  off: CouponOff;
  /** The items' total it needs; under it the coupon takes nothing. */
  minItems: number;
  /** Matched on the phone offline: the shop confirms it when the order is sent. */
  likely: boolean;
}

export interface CouponState {
  text: string;
  setText(text: string): void;
  /** The coupon applied; null when none is. */
  applied: AppliedCoupon | null;
  apply(): Promise<void>;
  /** Forgets the applied coupon (the server no longer takes it). */
  drop(): void;
}

/** What the applied coupon takes off items worth `subtotal`, for `orderTotals` (nothing under its minimum). */
export function couponOffFor(applied: AppliedCoupon | null, subtotal: number): CouponOff | null {
  return applied && subtotal >= applied.minItems ? applied.off : null;
}

/** The bill's coupon line: the spec's words for a flat coupon, a percentage's own, or the likely effect offline. */
export function couponLine(applied: AppliedCoupon | null, subtotal: number): string | undefined {
  if (!applied) return undefined;
  const discount = couponTakes(applied, subtotal);
  if (discount === 0)
    return subtotal < applied.minItems ? couponMessages.minimum(applied.code, applied.minItems) : undefined;
  return applied.likely
    ? couponMessages.likely(applied.code, discount)
    : couponMessages.applied(applied.off, discount);
}

/**
 * A code judged on the phone from its list: a refusal's words, or the coupon as likely applied.
 * Uses and the account's orders are the server's to judge, so only the window and the minimum are.
 */
async function judgeOffline(
  code: string,
  terms: readonly CouponTerms[],
  subtotal: number,
  now: number,
): Promise<{ refused: string } | { applied: AppliedCoupon }> {
  const key = await couponKey(code);
  const found = terms.find((c) => c.key === key);
  if (!found) return { refused: t.couponNeedsNetwork };
  const coupon = { ...found, code, maxUses: null, perAccount: 1, active: true };
  const refusal = couponRefusal(coupon, { now, subtotal, usedByAccount: 0, usedInAll: 0, hasOrders: false });
  if (refusal) return { refused: refusal.message };
  return { applied: { code, off: found.off, minItems: found.minItems, likely: true } };
}

export function useCoupon(
  offline: boolean,
  subtotal: number,
  terms: readonly CouponTerms[] | undefined,
): CouponState {
  const notify = useNotify();
  const [text, setText] = useState('');
  const [applied, setApplied] = useState<AppliedCoupon | null>(null);

  const apply = async () => {
    const code = text.trim().toUpperCase();
    if (!code) {
      notify(messages.couponInvalid, 'error');
      return;
    }
    if (offline) {
      const judged = await judgeOffline(code, terms ?? [], subtotal, Date.now());
      if ('refused' in judged) {
        setApplied(null);
        notify(judged.refused, judged.refused === t.couponNeedsNetwork ? 'info' : 'error');
        return;
      }
      setApplied(judged.applied);
      notify(couponMessages.likely(code, couponTakes(judged.applied, subtotal)), 'success');
      return;
    }
    try {
      const answer = await call(ordersContract.verifyCoupon, { body: { code, subtotal } });
      if (!answer.data) throw new ApiError(messages.couponInvalid, 500, null);
      const { data } = answer;
      const off: CouponOff = data.off ?? { kind: 'flat', amount: data.discountAmount };
      setApplied({ code: data.code, off, minItems: data.minItems ?? 0, likely: false });
      notify(answer.sys_message || couponMessages.applied(off, data.discountAmount), 'success');
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
