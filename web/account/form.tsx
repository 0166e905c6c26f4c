/**
 * The account forms' one way of checking input: the form's valibot schema
 * from `domain/accounts.ts` (the very schema the server runs), parsed on
 * every change. A field's messages show under it once it was touched (left,
 * or a submit was tried), linked to the input with `aria-describedby` and
 * `aria-invalid`, so a screen reader reads them with the field.
 */
import { type InputHTMLAttributes, type ReactNode, useId, useMemo, useState } from 'react';
import * as v from 'valibot';
import { messages } from '../../domain/messages.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';

type Values = Record<string, string>;

export interface Form<T extends Values, O = unknown> {
  values: T;
  set(name: keyof T & string, value: string): void;
  touch(name: keyof T & string): void;
  /** The field's messages to show now (empty until touched). */
  shown(name: keyof T & string): string[];
  /** Whether the field breaks a rule now, touched or not. */
  wrong(name: keyof T & string): boolean;
  valid: boolean;
  /**
   * For a submit: the schema's output when the form is valid (the parse made on
   * the last change, not a second one); otherwise every field counts as touched,
   * so its messages show, and the answer is null.
   */
  check(): O | null;
  reset(values: T): void;
}

export function useForm<T extends Values, S extends v.GenericSchema<unknown, unknown>>(
  schema: S,
  initial: T,
  /** `false`: the form says what is wrong only in the alert region (the spec's login form). */
  inline = true,
): Form<T, v.InferOutput<S>> {
  const [values, setValues] = useState<T>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [all, setAll] = useState(false);
  const result = useMemo(() => v.safeParse(schema, values), [schema, values]);
  const errors = useMemo(() => {
    if (result.success) return {} as Record<string, string[]>;
    return (v.flatten(result.issues).nested ?? {}) as Record<string, string[]>;
  }, [result]);

  return {
    values,
    valid: result.success,
    set: (name, value) => setValues((old) => ({ ...old, [name]: value })),
    touch: (name) =>
      setTouched((old) => {
        if (old.has(name)) return old;
        const next = new Set(old);
        next.add(name);
        return next;
      }),
    check: () => {
      if (result.success) return result.output;
      setAll(true);
      return null;
    },
    wrong: (name) => (errors[name]?.length ?? 0) > 0,
    shown: (name) => {
      if (!inline || (!all && !touched.has(name))) return [];
      const list = [...new Set(errors[name] ?? [])];
      // An empty field says only that it is required (as the old form did), not every rule it fails.
      return values[name] === '' ? list.slice(0, 1) : list;
    },
    reset: (next) => {
      setValues(next);
      setTouched(new Set());
      setAll(false);
    },
  };
}

/**
 * A form's sending, one at a time: `busy` (which disables its button) while `work` runs, and a failure
 * said in the alert region: by default the server's words when it refused, else the spec's generic
 * text; `failure` may word it otherwise, or return null to say nothing (the app already did).
 */
export function useSending(): {
  busy: boolean;
  send(work: () => Promise<void>, failure?: (err: unknown) => string | null): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const send = async (
    work: () => Promise<void>,
    failure = (err: unknown): string | null => serverMessageOr(err, messages.somethingWentWrongTryAgain),
  ) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      const text = failure(err);
      if (text) notify(text, 'error');
    } finally {
      setBusy(false);
    }
  };
  return { busy, send };
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'value' | 'onChange' | 'form'>;

export function Field<T extends Values>({
  form,
  name,
  label,
  hint,
  reveal,
  ...input
}: InputProps & {
  form: Form<T>;
  name: keyof T & string;
  label: string;
  hint?: ReactNode;
  /** A show/hide toggle for a password field (the spec's reset form has one on each). */
  reveal?: boolean;
}) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const messages = form.shown(name);
  const errorId = `${id}-errors`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', messages.length ? errorId : ''].filter(Boolean).join(' ');
  const type = reveal ? (visible ? 'text' : 'password') : input.type;
  return (
    <div className="field account-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="account-field__hint">
          {hint}
        </p>
      )}
      <div className={reveal ? 'account-field__reveal' : undefined}>
        <input
          {...input}
          id={id}
          name={name}
          type={type}
          value={form.values[name]}
          aria-invalid={messages.length ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(e) => form.set(name, e.target.value)}
          onBlur={() => form.touch(name)}
        />
        {reveal && (
          <button
            type="button"
            className="btn btn--link account-field__toggle"
            aria-pressed={visible}
            aria-controls={id}
            onClick={() => setVisible((x) => !x)}
          >
            {visible ? 'Hide' : 'Show'}
            <span className="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        )}
      </div>
      {messages.length > 0 && (
        <ul id={errorId} className="account-field__errors">
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
