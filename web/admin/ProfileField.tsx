/** One text field of the shop profile's form: its label, input, help and problem, tied together for screen readers. */
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
  return (
    <div className="admin-field admin-profile__field">
      <label htmlFor={id}>{spec.label}</label>
      <input
        id={id}
        type={spec.type ?? 'text'}
        value={value}
        autoComplete={spec.autoComplete ?? 'off'}
        inputMode={spec.inputMode}
        spellCheck={spec.type ? false : undefined}
        aria-describedby={described}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => onValue(path, e.target.value)}
      />
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
