/**
 * Settings → Shop profile: who the shop is and how it is reached (domain/shop-profile.ts), one form
 * in fieldsets. The whole profile is checked on the device by its schema before it is sent, each
 * problem at its field and the first focused; saving is `PUT /admin/settings {profile}`, and a
 * server's refusal shows at the field its `data.field` names.
 */
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { settingsApi } from '../../domain/delivery-areas.contract.js';
import { messages } from '../../domain/messages.js';
import type { ShopProfile as Profile } from '../../domain/shop-profile.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { ProfileField } from './ProfileField.js';
import {
  draftProfile,
  fieldId,
  PROFILE_GROUPS,
  type ProfileDraft,
  type ProfileProblems,
  profileDraft,
  profileRefusal,
  profileRequest,
  profileTexts as t,
  valueAt,
  withValue,
} from './profile-forms.js';
import { ShopProfileLogo } from './ShopProfileLogo.js';
import { ShopProfileStores } from './ShopProfileStores.js';
import { LoadError, Loading, Screen } from './ui.js';

export default function ShopProfile() {
  const loaded = useAdminQuery(settingsApi.get, {}, 'shop-profile');
  return (
    <Screen title={t.title}>
      {loaded.error && <LoadError text={loaded.error} onRetry={loaded.reload} />}
      {loaded.loading && !loaded.data && <Loading />}
      {loaded.data && <ProfileForm initial={loaded.data.profile} />}
    </Screen>
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function ProfileForm({ initial }: { initial: Profile }) {
  const [saved, setSaved] = useState<Profile>(initial);
  const [draft, setDraft] = useState<ProfileDraft>(() => profileDraft(initial));
  const [problems, setProblems] = useState<ProfileProblems>({});
  const [formProblem, setFormProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const formId = useId();
  const dirty = !same(draftProfile(draft), saved);
  useLeaveGuardState(dirty);

  // After React has drawn the problem (and a store just added), so the focus lands on its input;
  // the whole field is brought into view, its problem under the input too (focus alone leaves an
  // input already on screen where it is, its problem perhaps under the sticky Save bar).
  const focusField = (path: string) =>
    requestAnimationFrame(() => {
      const input = document.getElementById(fieldId(formId, path));
      input?.focus({ preventScroll: true });
      const field = input?.closest('.admin-field');
      if (field && 'scrollIntoView' in field) field.scrollIntoView({ block: 'nearest' });
    });
  const onValue = (path: string, value: string) => setDraft((d) => withValue(d, path, value));
  const setProblem = (path: string, message: string | null) =>
    setProblems(({ [path]: _gone, ...rest }) => (message ? { ...rest, [path]: message } : rest));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormProblem('');
    const checked = profileRequest(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      if (checked.first) focusField(checked.first);
      return;
    }
    setProblems({});
    if (same(checked.profile, saved)) {
      notify(t.nothingChanged, 'info');
      return;
    }
    setBusy(true);
    try {
      const res = await adminCall(settingsApi.change, { body: { profile: checked.profile } });
      const now = res.data?.profile ?? checked.profile;
      setSaved(now);
      setDraft(profileDraft(now));
      notify(t.saved, 'success');
    } catch (err) {
      const refusal = profileRefusal(err, draft.stores.length, messages.somethingWentWrongDot);
      if (refusal.field) {
        setProblems({ [refusal.field]: refusal.message });
        focusField(refusal.field);
      } else setFormProblem(refusal.message);
    } finally {
      setBusy(false);
    }
  };

  const group = (index: number, extra?: ReactNode) => {
    const g = PROFILE_GROUPS[index];
    if (!g) return null;
    return (
      <fieldset className="admin-panel admin-profile__group">
        <legend>{g.legend}</legend>
        <div className="admin-profile__fields">
          {g.fields.map((spec) => (
            <ProfileField
              key={spec.path}
              formId={formId}
              path={spec.path}
              spec={spec}
              value={valueAt(draft, spec.path)}
              problem={problems[spec.path]}
              onValue={onValue}
            />
          ))}
        </div>
        {extra}
      </fieldset>
    );
  };

  return (
    <form className="admin-profile" onSubmit={submit} noValidate aria-label={t.title}>
      {group(
        0,
        <ShopProfileLogo
          formId={formId}
          logo={draft.logo}
          unsaved={!same(draft.logo, saved.logo)}
          shopName={draft.name.trim()}
          problem={problems.logo}
          onLogo={(logo) => setDraft((d) => ({ ...d, logo }))}
          onProblem={(message) => setProblem('logo', message)}
        />,
      )}
      {group(1)}
      <ShopProfileStores
        formId={formId}
        stores={draft.stores}
        problems={problems}
        onValue={onValue}
        onStores={(stores, focus) => {
          setDraft((d) => ({ ...d, stores }));
          // A problem named by a store's number would now be at another store.
          setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith('stores'))));
          if (focus) requestAnimationFrame(() => document.getElementById(focus)?.focus());
        }}
      />
      {group(2)}
      {group(3)}
      {group(4)}
      {formProblem && (
        <p className="admin-error" role="alert">
          {formProblem}
        </p>
      )}
      <div className="admin-actions">
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {t.save}
        </button>
      </div>
    </form>
  );
}
