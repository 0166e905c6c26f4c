/** One field of the shop profile's form (a line, the story's box or the eggless tick): its label, input, help and problem, tied together for screen readers. */
import { type FieldSpec, fieldId } from './profile-forms.js';

export function ProfileField({
  formId,
  path,
  spec,
  value,
  problem,
  onValue,
}: {
  formId: string;
  path: string;
  spec: Omit<FieldSpec, 'path'>;
  value: string;
  problem: string | undefined;
  onValue(path: string, value: string): void;
}) {
  const id = fieldId(formId, path);
  const described = [`${id}-help`, problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    'aria-describedby': described,
    'aria-invalid': problem ? true : undefined,
  } as const;
  return (
    <div
      className={`admin-field admin-profile__field${spec.type === 'textarea' ? ' admin-profile__field--wide' : ''}`}
    >
      {spec.type === 'checkbox' ? (
        <label className="admin-check" htmlFor={id}>
          <input
            {...common}
            type="checkbox"
            checked={value === 'true'}
            onChange={(e) => onValue(path, String(e.target.checked))}
          />{' '}
          <span>{spec.label}</span>
        </label>
      ) : (
        <label htmlFor={id}>{spec.label}</label>
      )}
      {spec.type === 'textarea' ? (
        <textarea {...common} rows={5} value={value} onChange={(e) => onValue(path, e.target.value)} />
      ) : spec.type === 'checkbox' ? null : (
        <input
          {...common}
          type={spec.type ?? 'text'}
          value={value}
          autoComplete={spec.autoComplete ?? 'off'}
          inputMode={spec.inputMode}
          spellCheck={spec.type ? false : undefined}
          onChange={(e) => onValue(path, e.target.value)}
        />
      )}
      <p id={`${id}-help`} className="muted admin-help">
        {spec.help}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="admin-error">
          {problem}
        </p>
      )}
    </div>
  );
}
