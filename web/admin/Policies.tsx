/**
 * Settings → Policies: each policy's text in a box (the default, written from the shop's settings,
 * until the owner writes their own), a preview as the page shows it, Save, "Put the default back"
 * for a written one, and "I have read the policies" (the dashboard's checklist reads it). The
 * defaults are made here from the server's settings, areas and slots as they are now, never stored.
 */
import { type FormEvent, useId, useState } from 'react';
import { deliveryAreasApi, settingsApi } from '../../domain/delivery-areas.contract.js';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { messages } from '../../domain/messages.js';
import { POLICIES, POLICY_KEYS, type PolicyKey, type Policies as Written } from '../../domain/policies.js';
import { policyDefaults } from '../../domain/policy-defaults.js';
import { renderPolicy } from '../../domain/policy-text.js';
import { type SettingsPatch, type ShopSettings, settingMessages } from '../../domain/settings.js';
import type { DeliverySlot } from '../../domain/slot-schema.js';
import { slotsApi } from '../../domain/slots.contract.js';
import { ApiError } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { usePaysOnline } from '../hooks/usePaysOnline.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { policiesTexts as t, tooLongPolicy, withoutPolicy, writtenPolicies } from './policies-form.js';
import { LoadError, Loading, Screen } from './ui.js';

export default function Policies() {
  const settings = useAdminQuery(settingsApi.get, {}, 'policies-settings');
  const areas = useAdminQuery(deliveryAreasApi.list, {}, 'policies-areas');
  const slots = useAdminQuery(slotsApi.adminList, {}, 'policies-slots');
  const online = usePaysOnline();
  const failed = [settings, areas, slots].find((q) => q.error);
  const ready = settings.data && areas.data && slots.data;
  return (
    <Screen title={t.title}>
      {failed?.error && <LoadError text={failed.error} onRetry={failed.reload} />}
      {!ready && !failed && <Loading />}
      {settings.data && areas.data && slots.data && (
        <PoliciesForm initial={settings.data} areas={areas.data} slots={slots.data.slots} online={online} />
      )}
    </Screen>
  );
}

interface FormProps {
  initial: ShopSettings;
  areas: DeliveryArea[];
  slots: DeliverySlot[];
  online: boolean | undefined;
}

function PoliciesForm({ initial, areas, slots, online }: FormProps) {
  const [settings, setSettings] = useState(initial);
  const saved = settings.policies;
  const defaults = policyDefaults({
    profile: settings.profile,
    areas,
    slots,
    noticeDays: settings.photoCakeNoticeDays,
    cancelHours: settings.cancelHoursBeforeSlot,
    online,
  });
  const [draft, setDraft] = useState<Record<PolicyKey, string>>(() => textsOf(saved, defaults));
  const [problems, setProblems] = useState<Partial<Record<PolicyKey, string>>>({});
  const [formProblem, setFormProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = useId();
  const dirty = POLICY_KEYS.some((k) => draft[k] !== (saved[k] ?? defaults[k]));
  useLeaveGuardState(dirty);

  const send = async (patch: SettingsPatch): Promise<ShopSettings | null> => {
    setFormProblem('');
    setBusy(true);
    try {
      const res = await adminCall(settingsApi.change, { body: patch });
      const now = res.data ?? { ...settings, ...patch };
      setSettings(now);
      return now;
    } catch (err) {
      const field = err instanceof ApiError ? fieldOf(err) : null;
      const message = err instanceof ApiError && !err.offline ? err.message : messages.somethingWentWrongDot;
      if (field) {
        setProblems({ [field]: message });
        document.getElementById(`${id}-${field}`)?.focus();
      } else setFormProblem(message);
      return null;
    } finally {
      setBusy(false);
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const long = tooLongPolicy(draft);
    if (long) {
      setProblems({ [long]: t.tooLong });
      document.getElementById(`${id}-${long}`)?.focus();
      return;
    }
    setProblems({});
    const now = await send({ policies: writtenPolicies(draft, defaults, saved) });
    if (!now) return;
    // The server cleaned what it kept: the boxes show what the pages will.
    setDraft((d) => ({ ...d, ...now.policies }));
    notify(settingMessages.saved, 'success');
  };

  const putBack = async (key: PolicyKey) => {
    const now = await send({ policies: withoutPolicy(saved, key) });
    if (!now) return;
    setDraft((d) => ({ ...d, [key]: defaults[key] }));
    setProblems((p) => ({ ...p, [key]: undefined }));
    notify(t.defaultBack(POLICIES[key].title), 'success');
  };

  const markRead = async () => {
    if (await send({ policiesReviewed: true })) notify(t.reviewedSaved, 'success');
  };

  return (
    <form className="admin-policies" onSubmit={save} noValidate aria-label={t.title}>
      <p className="muted">{t.intro}</p>
      <p id={`${id}-format`} className="muted admin-help">
        {t.format}
      </p>
      {POLICY_KEYS.map((key) => {
        const fieldId = `${id}-${key}`;
        const problem = problems[key];
        const own = saved[key] !== undefined;
        return (
          <section key={key} className="admin-panel admin-policy" aria-labelledby={`${fieldId}-title`}>
            <h2 id={`${fieldId}-title`}>{POLICIES[key].title}</h2>
            <p className="admin-policy__state">
              <span className={own ? 'admin-policy__mark' : 'admin-policy__mark admin-policy__mark--default'}>
                {draft[key] !== (saved[key] ?? defaults[key]) ? t.unsaved : own ? t.isOwn : t.isDefault}
              </span>{' '}
              <a href={POLICIES[key].path} target="_blank" rel="noopener">
                {t.openPage}
              </a>
            </p>
            <div className="admin-field">
              <label htmlFor={fieldId}>{t.textLabel(POLICIES[key].title)}</label>
              <textarea
                id={fieldId}
                rows={14}
                value={draft[key]}
                aria-describedby={[`${id}-format`, problem ? `${fieldId}-problem` : '']
                  .filter(Boolean)
                  .join(' ')}
                aria-invalid={problem ? true : undefined}
                onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
              />
            </div>
            {problem && (
              <p id={`${fieldId}-problem`} className="admin-error">
                {problem}
              </p>
            )}
            <details className="admin-policy__preview">
              <summary>{t.preview}</summary>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderPolicy escapes the whole text and makes only its few tags. */}
              <div className="prose-page" dangerouslySetInnerHTML={{ __html: renderPolicy(draft[key]) }} />
            </details>
            {own && (
              <button type="button" className="btn" disabled={busy} onClick={() => void putBack(key)}>
                {t.putDefaultBack}
              </button>
            )}
          </section>
        );
      })}
      {formProblem && (
        <p className="admin-error" role="alert">
          {formProblem}
        </p>
      )}
      <div className="admin-actions">
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {t.save}
        </button>
        {settings.policiesReviewed ? (
          <p className="admin-policy__read">{t.reviewedDone}</p>
        ) : (
          <button type="button" className="btn" disabled={busy} onClick={() => void markRead()}>
            {t.reviewed}
          </button>
        )}
      </div>
    </form>
  );
}

function textsOf(saved: Written, defaults: Record<PolicyKey, string>): Record<PolicyKey, string> {
  return Object.fromEntries(POLICY_KEYS.map((k) => [k, saved[k] ?? defaults[k]])) as Record<
    PolicyKey,
    string
  >;
}

/** The policy a refusal names (`data.field` "policies.terms"), if any. */
function fieldOf(err: ApiError): PolicyKey | null {
  const data = err.envelope?.data;
  const field = data && typeof data === 'object' && 'field' in data ? String(data.field) : '';
  const [top, key] = field.split('.');
  return top === 'policies' && POLICY_KEYS.includes(key as PolicyKey) ? (key as PolicyKey) : null;
}
