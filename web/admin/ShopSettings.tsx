/**
 * Settings → Shop settings: one field per entry of the SETTINGS registry (domain/settings.ts) under
 * its section's heading, its label and help from there and its input from its kind (a number, a
 * tick box, a text or a choice: SettingField.tsx), so a later setting appears here by adding its
 * entry. Saving sends only the keys changed since the
 * settings were loaded, each checked first by its own schema.
 */
import { type FormEvent, useId, useState } from 'react';
import { codMessages } from '../../domain/cod-rules.js';
import { settingsApi } from '../../domain/delivery-areas.contract.js';
import { messages } from '../../domain/messages.js';
import { type ShopSettings as Saved, type SettingKey, SHOP_SCREEN_KEYS } from '../../domain/settings.js';
import { useNotify } from '../hooks/useAlerts.js';
import { usePaysOnline } from '../hooks/usePaysOnline.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { OfferSetting } from './OfferSetting.js';
import { SettingField } from './SettingField.js';
import {
  refusalOf,
  type SettingsDraft,
  settingsDraft,
  settingsPatch,
  shopSections,
  settingsTexts as t,
} from './settings-forms.js';
import { LoadError, Loading, Screen } from './ui.js';

export default function ShopSettings() {
  const loaded = useAdminQuery(settingsApi.get, {}, 'shop-settings');
  return (
    <Screen title={t.shopSettingsTitle}>
      {loaded.error && <LoadError text={loaded.error} onRetry={loaded.reload} />}
      {loaded.loading && !loaded.data && <Loading />}
      {loaded.data && <SettingsForm initial={loaded.data} />}
      <OfferSetting />
    </Screen>
  );
}

function SettingsForm({ initial }: { initial: Saved }) {
  const [saved, setSaved] = useState<Saved>(initial);
  const [draft, setDraft] = useState<SettingsDraft>(() => settingsDraft(initial));
  const [problems, setProblems] = useState<Partial<Record<SettingKey, string>>>({});
  const [formProblem, setFormProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = useId();
  // The Cash on Delivery rules wait for online payment (domain/cod-rules.ts): the screen says so.
  const paysOnline = usePaysOnline();
  const dirty = JSON.stringify(draft) !== JSON.stringify(settingsDraft(saved));
  useLeaveGuardState(dirty);

  const focusField = (key: SettingKey) => document.getElementById(`${id}-${key}`)?.focus();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormProblem('');
    const result = settingsPatch(draft, saved);
    if (!result.ok) {
      setProblems(result.problems);
      const first = SHOP_SCREEN_KEYS.find((k) => result.problems[k]);
      if (first) focusField(first);
      return;
    }
    setProblems({});
    if (Object.keys(result.patch).length === 0) {
      notify(t.nothingChanged, 'info');
      return;
    }
    setBusy(true);
    try {
      const res = await adminCall(settingsApi.change, { body: result.patch });
      const now = res.data ?? { ...saved, ...result.patch };
      setSaved(now);
      setDraft(settingsDraft(now));
      notify(res.sys_message, 'success');
    } catch (err) {
      const refusal = refusalOf(err, SHOP_SCREEN_KEYS, messages.somethingWentWrongDot);
      if (refusal.field) {
        setProblems({ [refusal.field]: refusal.message });
        focusField(refusal.field);
      } else setFormProblem(refusal.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="admin-panel admin-settings"
      onSubmit={submit}
      noValidate
      aria-label={t.shopSettingsTitle}
    >
      {shopSections().map(({ section, title, keys }) => (
        <fieldset key={section} className="admin-settings__section">
          <legend>{title}</legend>
          {section === 'payments' && paysOnline === false && (
            <p className="muted admin-help" data-testid="cod-rules-wait">
              {codMessages.waitsForProvider}
            </p>
          )}
          {keys.map((key) => (
            <SettingField
              key={key}
              settingKey={key}
              fieldId={`${id}-${key}`}
              value={draft[key]}
              problem={problems[key]}
              onValue={(next) => setDraft((d) => ({ ...d, [key]: next }))}
            />
          ))}
        </fieldset>
      ))}
      {formProblem && (
        <p className="admin-error" role="alert">
          {formProblem}
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        {t.saveSettings}
      </button>
    </form>
  );
}
