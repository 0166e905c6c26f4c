/**
 * Settings → Shop settings → the product pages' offer: none, or one of the shop's live coupons
 * (`PUT /api/admin/offer`). The banner's words come from the coupon itself (domain/shop-offer.ts),
 * so the owner picks an offer, never writes one. Making and editing coupons is the Coupons
 * screen's job; this only lists the live ones.
 */
import { type FormEvent, useId, useState } from 'react';
import { messages } from '../../domain/messages.js';
import { offerApi } from '../../domain/offer.contract.js';
import { type Offer, offerTitle } from '../../domain/shop-offer.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { refusalOf } from './settings-forms.js';
import { LoadError, Loading } from './ui.js';

const NONE = '';

function choiceLabel(o: Offer): string {
  return `${o.code}: ${offerTitle(o)}`;
}

export function OfferSetting() {
  const loaded = useAdminQuery(offerApi.get, {}, 'shop-offer');
  return (
    <section className="admin-panel admin-settings" aria-labelledby="offer-title">
      <h2 id="offer-title">Offer on product pages</h2>
      {loaded.error && <LoadError text={loaded.error} onRetry={loaded.reload} />}
      {loaded.loading && !loaded.data && <Loading />}
      {loaded.data && <OfferForm initial={loaded.data} />}
    </section>
  );
}

function OfferForm({ initial }: { initial: { offer: Offer | null; coupons: Offer[] } }) {
  const [saved, setSaved] = useState(initial);
  const [choice, setChoice] = useState(initial.offer?.code ?? NONE);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = useId();
  const stale = saved.offer && !saved.coupons.some((c) => c.code === saved.offer?.code);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem('');
    setBusy(true);
    try {
      const res = await adminCall(offerApi.change, { body: { code: choice === NONE ? null : choice } });
      if (res.data) setSaved(res.data);
      notify(res.sys_message, 'success');
    } catch (err) {
      setProblem(refusalOf(err, ['code'], messages.somethingWentWrongDot).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="offer-title">
      <div className="admin-field">
        <label htmlFor={`${id}-offer`}>Advertised coupon</label>
        <select
          id={`${id}-offer`}
          value={choice}
          aria-describedby={`${id}-help${problem ? ` ${id}-problem` : ''}`}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setChoice(e.target.value)}
        >
          <option value={NONE}>No offer</option>
          {saved.coupons.map((c) => (
            <option key={c.code} value={c.code}>
              {choiceLabel(c)}
            </option>
          ))}
        </select>
        <p id={`${id}-help`} className="muted admin-help">
          {saved.coupons.length
            ? 'Every product page shows this coupon’s code and what it takes off; it goes by itself when the coupon ends.'
            : 'The shop has no live coupon to advertise.'}{' '}
          {stale && `${saved.offer?.code} has ended: product pages no longer show it.`}
        </p>
        {problem && (
          <p id={`${id}-problem`} className="admin-error">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        Save offer
      </button>
    </form>
  );
}
