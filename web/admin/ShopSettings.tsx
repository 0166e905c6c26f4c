/**
 * Settings → Shop settings: one field per entry of the SETTINGS registry (domain/settings.ts), its
 * label and help from there and its input from its kind (a number, a tick box or a text), so a
 * later setting appears here by adding its entry. Saving sends only the keys changed since the
 * settings were loaded, each checked first by its own schema.
 */
import { type FormEvent, useId, useState } from 'react';
import { settingsApi } from '../../domain/delivery-areas.contract.js';
import { messages } from '../../domain/messages.js';
import {
  type ShopSettings as Saved,
  SETTINGS,
  type SettingKey,
  SHOP_SCREEN_KEYS,
} from '../../domain/settings.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { OfferSetting } from './OfferSetting.js';
import {
  refusalOf,
  type SettingsDraft,
  settingKind,
  settingsDraft,
  settingsPatch,
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
      {SHOP_SCREEN_KEYS.map((key) => {
        const setting = SETTINGS[key];
        const kind = settingKind(key);
        const fieldId = `${id}-${key}`;
        const problem = problems[key];
        const described = [`${fieldId}-help`, problem ? `${fieldId}-problem` : ''].filter(Boolean).join(' ');
        const value = draft[key];
        const onValue = (next: string | boolean) => setDraft((d) => ({ ...d, [key]: next }));
        return (
          <div key={key} className="admin-field admin-setting">
            {kind === 'boolean' ? (
              <label className="admin-check" htmlFor={fieldId}>
                <input
                  id={fieldId}
                  type="checkbox"
                  checked={value === true}
                  aria-describedby={described}
                  aria-invalid={problem ? true : undefined}
                  onChange={(e) => onValue(e.target.checked)}
                />{' '}
                <span>{setting.label}</span>
              </label>
            ) : (
              <>
                <label htmlFor={fieldId}>
                  <span>{setting.label}</span>
                </label>
                <input
                  id={fieldId}
                  type={kind === 'number' ? 'number' : 'text'}
                  inputMode={kind === 'number' ? 'numeric' : undefined}
                  step={kind === 'number' ? 1 : undefined}
                  value={String(value)}
                  aria-describedby={described}
                  aria-invalid={problem ? true : undefined}
                  onChange={(e) => onValue(e.target.value)}
                />
              </>
            )}
            <p id={`${fieldId}-help`} className="muted admin-help">
              {setting.help}
            </p>
            {problem && (
              <p id={`${fieldId}-problem`} className="admin-error">
                {problem}
              </p>
            )}
          </div>
        );
      })}
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
