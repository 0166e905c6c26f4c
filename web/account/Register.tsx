import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { accountsApi } from '../../domain/accounts.contract.js';
import { RegisterSchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { savePendingRegistration } from '../../sw/session.js';
import { call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { Field, useForm, useSending } from './form.js';
import { rememberRegistration } from './registration.js';
import './account.css';

/**
 * /register (spec sections 2, 4, 5): each rule's message under its field once
 * touched, submit disabled while anything is invalid. The server mails a
 * 6-digit code; the email and phone are kept for /otp.
 */
export default function Register() {
  const form = useForm(RegisterSchema, { name: '', email: '', password: '', confirmPassword: '', phone: '' });
  const notify = useNotify();
  const navigate = useNavigate();
  const { busy, send } = useSending();

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
        <Field form={form} name="name" label="Name" autoComplete="name" />
        <Field form={form} name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
        <Field
          form={form}
          name="password"
          label="Password"
          reveal
          autoComplete="new-password"
          hint="At least 8 characters, with upper and lower case letters, a number and a special character."
        />
        <Field
          form={form}
          name="confirmPassword"
          label="Confirm password"
          reveal
          autoComplete="new-password"
        />
        <Field
          form={form}
          name="phone"
          label="Phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={10}
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={!form.valid || busy}>
          Register
        </button>
      </form>
      <p className="account__links">
        <span>
          Already have an account? <Link to="/login">Log in</Link>
        </span>
      </p>
    </div>
  );
}
