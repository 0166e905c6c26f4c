/**
 * An admin form that makes or edits one record (a pincode, a coupon): the values as typed against
 * where they started (dirty, for the leave guard), problems by field (the first one focused), the
 * form-wide problem, busy while it saves, and focus on its first field when it opens, since it
 * opens at the top of a screen from a row far down.
 */
import { type RefObject, useEffect, useId, useRef, useState } from 'react';

export interface Refusal<K> {
  field: K | null;
  message: string;
}

export function useRecordForm<V extends object, K extends string>(o: {
  start: V;
  /** The fields in the order they stand, so the first problem is the one focused. */
  fields: readonly K[];
  /** The id suffix of a field's input (`${id}-${suffix}`). */
  inputId?: (field: K) => string;
  /** Which element takes focus when the form opens. */
  firstInput?: string;
  onDirty(dirty: boolean): void;
}) {
  const [f, setF] = useState<V>(o.start);
  const [problems, setProblems] = useState<Partial<Record<K, string>>>({});
  const [formProblem, setFormProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const form: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);
  const dirty = JSON.stringify(f) !== JSON.stringify(o.start);
  const { onDirty, firstInput = 'input' } = o;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>(firstInput)?.focus();
  }, [firstInput]);
  const set = <P extends keyof V>(k: P, value: V[P]) => setF((old) => ({ ...old, [k]: value }));
  const inputId = o.inputId ?? ((k: K) => k);

  const show = (found: Partial<Record<K, string>>) => {
    setProblems(found);
    const first = o.fields.find((k) => found[k]);
    if (first) document.getElementById(`${id}-${inputId(first)}`)?.focus();
  };

  /**
   * Sends what the form's own check made, or shows the problems it found on the device; a refusal
   * from the server goes to its field, or above the form.
   */
  const save = async <R extends { ok: true }>(
    checked: R | { ok: false; problems: Partial<Record<K, string>> },
    send: (request: R) => Promise<void>,
    refusalOf: (err: unknown) => Refusal<K>,
  ) => {
    setFormProblem('');
    if (!checked.ok) return show(checked.problems);
    setProblems({});
    setBusy(true);
    try {
      await send(checked as R);
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal.field) show({ [refusal.field]: refusal.message } as Partial<Record<K, string>>);
      else setFormProblem(refusal.message);
    } finally {
      setBusy(false);
    }
  };

  return { f, set, update: setF, problems, formProblem, busy, id, form, save };
}
