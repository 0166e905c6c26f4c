/** The checkout's who-and-where fields (name, the account's email and phone, state, city, address, pincode) and the fields' error wiring. */
import type { ReactNode } from 'react';
import { type CheckoutField, type FieldErrors, pincodeInput } from '../../domain/checkout.js';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { citiesOf, DELIVERY_STATES } from '../../domain/delivery.js';
import type { Session } from '../../sw/session.js';
import type { FormState } from './useCheckoutForm.js';

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
      <div className="co-row">
        <div className="field">
          <label htmlFor={`${idPrefix}-State`}>State</label>
          <select
            {...fieldProps('State')}
            value={form.State}
            required
            onChange={(e) => set('State', e.target.value)}
          >
            <option value="">Select state</option>
            {DELIVERY_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {fieldError('State')}
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-City`}>City</label>
          <select
            {...fieldProps('City')}
            value={form.City}
            required
            onChange={(e) => set('City', e.target.value)}
          >
            <option value="">Select city</option>
            {citiesOf(form.State).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {fieldError('City')}
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
      <div className="field">
        <label htmlFor={`${idPrefix}-CustomerPincode`}>Pincode</label>
        <input
          {...fieldProps('CustomerPincode')}
          value={form.CustomerPincode}
          inputMode="numeric"
          autoComplete="postal-code"
          required
          onChange={(e) => set('CustomerPincode', pincodeInput(e.target.value))}
        />
        {fieldError('CustomerPincode')}
      </div>
    </>
  );
}
