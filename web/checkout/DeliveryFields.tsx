/**
 * The checkout's who-and-where fields: the pincode first, with the State and City it fills (shown,
 * never typed: the server refuses a city that is not the pincode's), then the name, the account's
 * email and phone and the address; and the fields' error wiring.
 */
import type { ReactNode } from 'react';
import { type CheckoutField, type FieldErrors, pincodeInput } from '../../domain/checkout.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { formatRupees } from '../../domain/money.js';
import type { Session } from '../../sw/session.js';
import type { FormState } from './checkout-draft.js';

/** A field's id and, once it has an error, its invalid state and the error that describes it. */
export function fieldWiring(idPrefix: string, errors: FieldErrors) {
  return {
    props: (field: CheckoutField) => ({
      id: `${idPrefix}-${field}`,
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? `${idPrefix}-${field}-error` : undefined,
    }),
    error: (field: CheckoutField): ReactNode =>
      errors[field] ? (
        <p className="co-error" id={`${idPrefix}-${field}-error`}>
          {errors[field]}
        </p>
      ) : null,
  };
}

/** "Preferred Delivery Date", between the first date the pincode and slots allow and the last one offered. */
export function DeliveryDateField({
  field,
  value,
  min,
  max,
  onChange,
}: {
  field: ReturnType<typeof fieldWiring>;
  value: string;
  min: string;
  max: string;
  onChange(date: string): void;
}) {
  const { id } = field.props('DeliveryDate');
  return (
    <div className="field">
      <label htmlFor={id}>Preferred Delivery Date</label>
      <input
        type="date"
        {...field.props('DeliveryDate')}
        value={value}
        min={min}
        max={max}
        required
        onChange={(e) => onChange(e.target.value)}
      />
      {field.error('DeliveryDate')}
    </div>
  );
}

/**
 * The pincode and what it fills. `problem` is said at once, as the pincode becomes whole (not one
 * of ours, not a pincode); the form's own errors after a submit attempt come in `errors`.
 */
export function PincodeFields({
  idPrefix,
  pincode,
  area,
  problem,
  errors,
  onChange,
}: {
  idPrefix: string;
  pincode: string;
  /** The pincode's delivery area; null: none (or not a whole pincode yet); undefined: looking it up. */
  area: DeliveryArea | null | undefined;
  problem: string | null;
  errors: FieldErrors;
  onChange(pincode: string): void;
}) {
  const id = `${idPrefix}-CustomerPincode`;
  const message = errors.CustomerPincode ?? problem;
  const hint =
    area === undefined && pincode.length === 6
      ? t.areaChecking
      : area
        ? t.areaFound(area.city, area.state, area.charge ? formatRupees(area.charge) : 'free')
        : t.pincodeHint;
  return (
    <div className="co-pincode">
      <div className="field">
        <label htmlFor={id}>Pincode</label>
        <input
          id={id}
          value={pincode}
          inputMode="numeric"
          autoComplete="postal-code"
          required
          aria-invalid={message ? true : undefined}
          aria-describedby={`${id}-hint${message ? ` ${id}-error` : ''}`}
          onChange={(e) => onChange(pincodeInput(e.target.value))}
        />
        <p className="co-hint" id={`${id}-hint`}>
          {hint}
        </p>
        {/* Always present, so a screen reader hears the refusal the moment the sixth digit lands. */}
        <div aria-live="polite">
          {message ? (
            <p className="co-error" id={`${id}-error`}>
              {message}
            </p>
          ) : null}
        </div>
      </div>
      <div className="co-row">
        <div className="field">
          <label htmlFor={`${idPrefix}-State`}>State</label>
          <input id={`${idPrefix}-State`} value={area?.state ?? ''} readOnly placeholder="From the pincode" />
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-City`}>City</label>
          <input id={`${idPrefix}-City`} value={area?.city ?? ''} readOnly placeholder="From the pincode" />
        </div>
      </div>
    </div>
  );
}

export function DeliveryFields({
  idPrefix,
  form,
  set,
  errors,
  session,
  forSomeoneElse,
}: {
  idPrefix: string;
  form: FormState;
  set(field: keyof FormState, value: string): void;
  errors: FieldErrors;
  session: Session;
  /** A gift to someone else: the address is theirs. */
  forSomeoneElse: boolean;
}) {
  const { props: fieldProps, error: fieldError } = fieldWiring(idPrefix, errors);
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-CustomerName`}>Full Name</label>
        <input
          {...fieldProps('CustomerName')}
          value={form.CustomerName}
          autoComplete="name"
          required
          onChange={(e) => set('CustomerName', e.target.value)}
        />
        {fieldError('CustomerName')}
      </div>
      <div className="co-row">
        <div className="field">
          <label htmlFor={`${idPrefix}-email`}>Email</label>
          <input id={`${idPrefix}-email`} value={session.email} readOnly />
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-phone`}>Phone</label>
          <input id={`${idPrefix}-phone`} value={session.phone} readOnly />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-CustomerAddress`}>
          {forSomeoneElse ? "Recipient's full shipping address" : 'Full Shipping Address'}
        </label>
        <textarea
          {...fieldProps('CustomerAddress')}
          aria-describedby={[
            `${idPrefix}-address-hint`,
            errors.CustomerAddress ? `${idPrefix}-CustomerAddress-error` : '',
          ]
            .filter(Boolean)
            .join(' ')}
          value={form.CustomerAddress}
          rows={3}
          autoComplete="street-address"
          required
          onChange={(e) => set('CustomerAddress', e.target.value)}
        />
        <p className="co-hint" id={`${idPrefix}-address-hint`}>
          {t.addressHint}
        </p>
        {fieldError('CustomerAddress')}
      </div>
    </>
  );
}
