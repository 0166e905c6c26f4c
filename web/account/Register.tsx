import { type FormEvent, useId } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { accountMessages } from '../../domain/account-messages.js';
import { accountsApi } from '../../domain/accounts.contract.js';
import { RegisterSchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { savePendingRegistration } from '../../sw/session-writes.js';
import { call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import { Field, useForm, useSending } from './form.js';
import { rememberRegistration } from './registration.js';
import './account.css';

const LABELS = {
  name: 'Name',
  email: 'Email',
  password: 'Password',
  confirmPassword: 'Confirm password',
  phone: 'Phone',
} as const;
type FieldName = keyof typeof LABELS;
const FIELDS = Object.keys(LABELS) as FieldName[];

/**
 * /register (spec sections 2, 4, 5): each rule's message under its field once
 * touched. While anything is invalid the button looks disabled and a line under
 * it names the fields still empty or wrong; it stays focusable
 * (`aria-disabled`, described by that line) so a keyboard or screen reader user
 * can reach it and hear why, and pressing it shows every field's message. The
 * server mails a 6-digit code; the email and phone are kept for /otp.
 */
export default function Register() {
  useTitle('Create an account');
  const form = useForm(RegisterSchema, { name: '', email: '', password: '', confirmPassword: '', phone: '' });
  const notify = useNotify();
  const navigate = useNavigate();
  const { busy, send } = useSending();
  const needsId = useId();

  const empty = FIELDS.filter((f) => form.values[f].trim() === '');
  const wrong = FIELDS.filter((f) => !empty.includes(f) && form.wrong(f));
  const needs = form.valid
    ? ''
    : accountMessages.registerNeeds(
        empty.map((f) => LABELS[f]),
        wrong.map((f) => LABELS[f]),
      );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = form.check();
    if (!parsed) {
      notify(messages.formInvalid, 'error');
      return;
    }
    await send(async () => {
      await call(accountsApi.createAccount, { body: parsed, token: null });
      rememberRegistration(parsed);
      savePendingRegistration(parsed.email, parsed.phone);
      notify(messages.otpSent, 'success');
      navigate('/otp');
    });
  };

  return (
    <div className="page account">
      <h1>Create an account</h1>
      <form className="form account__form" onSubmit={submit} noValidate>
        <Field form={form} name="name" label={LABELS.name} autoComplete="name" />
        <Field
          form={form}
          name="email"
          label={LABELS.email}
          type="email"
          autoComplete="email"
          inputMode="email"
        />
        <Field
          form={form}
          name="password"
          label={LABELS.password}
          reveal
          autoComplete="new-password"
          hint="At least 8 characters, with upper and lower case letters, a number and a special character."
        />
        <Field
          form={form}
          name="confirmPassword"
          label={LABELS.confirmPassword}
          reveal
          autoComplete="new-password"
        />
        <Field
          form={form}
          name="phone"
          label={LABELS.phone}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          hint={accountMessages.phoneHint}
        />
        <button
          type="submit"
          className="btn btn--primary btn--block"
          aria-disabled={!form.valid || undefined}
          aria-describedby={needs ? needsId : undefined}
          disabled={busy}
        >
          Register
        </button>
        {needs && (
          <p id={needsId} className="account__needs">
            {needs}
          </p>
        )}
      </form>
      <p className="account__links">
        <span>
          Already have an account? <Link to="/login">Log in</Link>
        </span>
      </p>
    </div>
  );
}
