/**
 * The Coupons screen's form: make a coupon, or change one's terms (its code stays: orders name it).
 * Checked by the domain's schemas before sending (`couponRequest`), every problem at its field and
 * the first focused; a server's refusal goes to the field its `data.field` names, else under the form.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { couponsApi } from '../../domain/coupons.contract.js';
import type { CouponSummary } from '../../domain/coupons.js';
import { messages } from '../../domain/messages.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall } from './connection.js';
import {
  COUPON_FIELDS,
  type CouponField,
  type CouponProblems,
  couponRefusal,
  couponRequest,
  couponValues,
  EMPTY_COUPON,
  couponTexts as t,
} from './coupon-forms.js';
import { FormFoot } from './ui.js';
import { useRecordForm } from './useRecordForm.js';

/** An element id per field: `off.amount` has a dot, which a CSS selector would misread. */
const slug = (field: CouponField) => field.replace('.', '-');

type InputProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A field's label, input, help and problem; the help and the problem are named through aria-describedby. */
function Field({
  label,
  field,
  formId,
  problems,
  help,
  children,
}: {
  label: string;
  field: CouponField;
  formId: string;
  problems: CouponProblems;
  help?: string;
  children: (props: InputProps) => ReactNode;
}) {
  const id = `${formId}-${slug(field)}`;
  const problem = problems[field];
  const describedBy = [help ? `${id}-help` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(problem ? { 'aria-invalid': true } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {help && (
        <p id={`${id}-help`} className="muted admin-help">
          {help}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="admin-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** A whole-number box: the phone's digit keypad, and what was typed kept for the schema to judge. */
function WholeNumber({
  props,
  value,
  min,
  onChange,
}: {
  props: InputProps;
  value: string;
  min: number;
  onChange(value: string): void;
}) {
  return (
    <input
      {...props}
      type="number"
      min={min}
      step={1}
      inputMode="numeric"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export default function CouponForm({
  coupon,
  onDirty,
  onDone,
}: {
  /** The coupon to edit; null to make one. */
  coupon: CouponSummary | null;
  onDirty(dirty: boolean): void;
  onDone(saved: boolean): void;
}) {
  const [start] = useState(() => (coupon ? couponValues(coupon) : EMPTY_COUPON));
  const { f, set, problems, formProblem, busy, id, form, save } = useRecordForm({
    start,
    fields: COUPON_FIELDS,
    inputId: slug,
    onDirty,
  });
  const adminCall = useAdminCall();
  const notify = useNotify();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(
      couponRequest(f, coupon ? 'edit' : 'create'),
      async (request) => {
        const res =
          request.mode === 'create'
            ? await adminCall(couponsApi.create, { body: request.body })
            : await adminCall(couponsApi.edit, { params: { code: coupon?.code ?? '' }, body: request.body });
        notify(res.sys_message, 'success');
        onDone(true);
      },
      (err) => couponRefusal(err, messages.somethingWentWrongDot),
    );
  };

  const field = { formId: id, problems };
  return (
    <form
      ref={form}
      className="admin-panel admin-coupon-form"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`}>{coupon ? t.editTitle(coupon.code) : t.newCoupon}</h2>
      {!coupon && (
        <div className="admin-row">
          <Field label="Code" field="code" help={t.codeHelp} {...field}>
            {(p) => (
              <input
                {...p}
                value={f.code}
                maxLength={30}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                onChange={(e) => set('code', e.target.value)}
              />
            )}
          </Field>
        </div>
      )}
      <fieldset className="admin-coupon-off">
        <legend>{t.takesOff}</legend>
        <label className="admin-check">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={f.kind === 'flat'}
            onChange={() => set('kind', 'flat')}
          />{' '}
          {t.flat}
        </label>
        <label className="admin-check">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={f.kind === 'percent'}
            onChange={() => set('kind', 'percent')}
          />{' '}
          {t.percent}
        </label>
      </fieldset>
      <div className="admin-row">
        {f.kind === 'flat' ? (
          <Field label="Amount off (₹)" field="off.amount" {...field}>
            {(p) => <WholeNumber props={p} min={1} value={f.amount} onChange={(x) => set('amount', x)} />}
          </Field>
        ) : (
          <>
            <Field label="Percentage off" field="off.percent" {...field}>
              {(p) => <WholeNumber props={p} min={1} value={f.percent} onChange={(x) => set('percent', x)} />}
            </Field>
            <Field label="Up to (₹)" field="off.cap" {...field}>
              {(p) => <WholeNumber props={p} min={1} value={f.cap} onChange={(x) => set('cap', x)} />}
            </Field>
          </>
        )}
        <Field label="Minimum order, items (₹)" field="minItems" help={t.minItemsHelp} {...field}>
          {(p) => <WholeNumber props={p} min={0} value={f.minItems} onChange={(x) => set('minItems', x)} />}
        </Field>
      </div>
      <label className="admin-check">
        <input
          type="checkbox"
          checked={f.firstOrderOnly}
          onChange={(e) => set('firstOrderOnly', e.target.checked)}
        />{' '}
        First order only
      </label>
      <div className="admin-row">
        <Field label="Uses in all" field="maxUses" help={t.maxUsesHelp} {...field}>
          {(p) => <WholeNumber props={p} min={1} value={f.maxUses} onChange={(x) => set('maxUses', x)} />}
        </Field>
        <Field label="Uses per account" field="perAccount" {...field}>
          {(p) => (
            <WholeNumber props={p} min={1} value={f.perAccount} onChange={(x) => set('perAccount', x)} />
          )}
        </Field>
      </div>
      <div className="admin-row">
        <Field label="Starts (India time)" field="startsAt" help={t.startsHelp} {...field}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              value={f.startsAt}
              onChange={(e) => set('startsAt', e.target.value)}
            />
          )}
        </Field>
        <Field label="Ends (India time)" field="endsAt" help={t.endsHelp} {...field}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              value={f.endsAt}
              onChange={(e) => set('endsAt', e.target.value)}
            />
          )}
        </Field>
      </div>
      <FormFoot
        problem={formProblem}
        busy={busy}
        submit={coupon ? t.save : t.create}
        onCancel={() => onDone(false)}
      />
    </form>
  );
}
