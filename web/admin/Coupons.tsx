/**
 * Settings → Coupons: every coupon, newest first, with what it takes off, its conditions, its window,
 * where it stands and what it has given; make one, change one's terms, end one now. A coupon is never
 * deleted (orders name the coupon they used), so ending is the way to stop it. The form is
 * `CouponForm.tsx`; the words and the request `coupon-forms.ts`; the rules `domain/coupons.ts`.
 */
import { useState } from 'react';
import { couponsApi } from '../../domain/coupons.contract.js';
import { type CouponSummary, conditionsText, offText } from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import CouponForm from './CouponForm.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { couponTexts as t, usesText, windowText } from './coupon-forms.js';
import { useConfirm } from './dialogs.js';
import { useLeaveGuardState } from './leave-guard.js';
import { LoadError, Loading, Screen } from './ui.js';

/** What the form is open for: a new coupon, or the code of the one being edited (codes are capitals). */
type Editing = { kind: 'new' } | { kind: 'edit'; code: string } | null;

export default function Coupons() {
  const coupons = useAdminQuery(couponsApi.list, {}, 'coupons');
  const adminCall = useAdminCall();
  const notify = useNotify();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const [formDirty, setFormDirty] = useState(false);
  useLeaveGuardState(formDirty);
  const list = coupons.data ?? [];
  const edited = editing?.kind === 'edit' ? (list.find((c) => c.code === editing.code) ?? null) : null;

  const close = (saved: boolean) => {
    setFormDirty(false);
    setEditing(null);
    if (saved) coupons.reload();
  };

  const end = async (c: CouponSummary) => {
    if (!(await confirm(t.endConfirm(c.code), t.endNow))) return;
    try {
      const res = await adminCall(couponsApi.end, { params: { code: c.code } });
      notify(res.sys_message, 'success');
      coupons.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  return (
    <Screen
      title={t.title}
      actions={
        <button type="button" className="btn btn--primary" onClick={() => setEditing({ kind: 'new' })}>
          {t.newCoupon}
        </button>
      }
    >
      {coupons.error && <LoadError text={coupons.error} onRetry={coupons.reload} />}
      {coupons.loading && !coupons.data && <Loading />}
      {editing && coupons.data && (editing.kind === 'new' || edited) && (
        <CouponForm
          key={editing.kind === 'new' ? '' : editing.code}
          coupon={edited}
          onDirty={setFormDirty}
          onDone={close}
        />
      )}
      {coupons.data &&
        (list.length === 0 ? (
          <p className="muted">{t.empty}</p>
        ) : (
          <CouponTable coupons={list} onEdit={(code) => setEditing({ kind: 'edit', code })} onEnd={end} />
        ))}
    </Screen>
  );
}

function CouponTable({
  coupons,
  onEdit,
  onEnd,
}: {
  coupons: readonly CouponSummary[];
  onEdit(code: string): void;
  onEnd(c: CouponSummary): void;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table admin-table--cards admin-coupons">
        <caption className="visually-hidden">{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Takes off</th>
            <th scope="col">Conditions</th>
            <th scope="col">Window</th>
            <th scope="col">Uses</th>
            <th scope="col">Discount given</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {coupons.map((c) => (
            <tr key={c.code} data-testid="coupon-row">
              <td data-label="Code">
                <strong>{c.code}</strong>
              </td>
              <td data-label="Takes off">{offText(c.off)}</td>
              <td data-label="Conditions">{conditionsText(c)}</td>
              <td data-label="Window">{windowText(c)}</td>
              <td data-label="Uses">{usesText(c)}</td>
              <td data-label="Discount given">{formatRupees(c.discountGiven)}</td>
              <td data-label="State">
                <span className={`admin-coupon-state admin-coupon-state--${c.state}`}>
                  {t.states[c.state]}
                </span>
              </td>
              <td>
                <div className="admin-moves">
                  <button
                    type="button"
                    className="btn btn--outline"
                    onClick={() => onEdit(c.code)}
                    aria-label={`Edit ${c.code}`}
                  >
                    Edit
                  </button>
                  {c.state !== 'ended' && (
                    <button
                      type="button"
                      className="btn admin-danger"
                      onClick={() => onEnd(c)}
                      aria-label={`End ${c.code} now`}
                    >
                      {t.endNow}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
