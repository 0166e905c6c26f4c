/**
 * One field of Settings → Shop settings, drawn from its registry entry (domain/settings.ts): its
 * label and help, and its input by kind (web/admin/settings-forms.ts `settingKind`): a tick box, a
 * number, a text, or a select of a picklist's choices.
 */
import { SETTINGS, type SettingKey } from '../../domain/settings.js';
import { settingChoices, settingKind } from './settings-forms.js';

export function SettingField({
  settingKey: key,
  fieldId,
  value,
  problem,
  onValue,
}: {
  settingKey: SettingKey;
  fieldId: string;
  value: string | boolean | undefined;
  problem: string | undefined;
  onValue: (next: string | boolean) => void;
}) {
  const setting = SETTINGS[key];
  const kind = settingKind(key);
  const described = [`${fieldId}-help`, problem ? `${fieldId}-problem` : ''].filter(Boolean).join(' ');
  const common = {
    id: fieldId,
    'aria-describedby': described,
    'aria-invalid': problem ? true : undefined,
  } as const;
  return (
    <div className="admin-field admin-setting">
      {kind === 'boolean' ? (
        <label className="admin-check" htmlFor={fieldId}>
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onValue(e.target.checked)}
          />{' '}
          <span>{setting.label}</span>
        </label>
      ) : (
        <>
          <label htmlFor={fieldId}>
            <span>{setting.label}</span>
          </label>
          {kind === 'choice' ? (
            <select {...common} value={String(value)} onChange={(e) => onValue(e.target.value)}>
              {settingChoices(key)?.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              {...common}
              type={kind === 'number' ? 'number' : 'text'}
              inputMode={kind === 'number' ? 'numeric' : undefined}
              step={kind === 'number' ? 1 : undefined}
              value={String(value)}
              onChange={(e) => onValue(e.target.value)}
            />
          )}
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
}
