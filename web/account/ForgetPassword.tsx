import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { accountsApi } from '../../domain/accounts.contract.js';
import { EmailOnlySchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import { Field, useForm, useSending } from './form.js';
import './account.css';

/**
 * /forget-password (spec sections 2, 4, 5): an email and Send OTP; the server
 * answers alike whether the email has an account. Then /verify-reset-otp.
 */
export default function ForgetPassword() {
  useTitle('Forgot password');
  const form = useForm(EmailOnlySchema, { email: '' });
  const notify = useNotify();
  const navigate = useNavigate();
  const { busy, send } = useSending();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = form.check();
    if (!parsed) {
      notify(messages.emailInvalid, 'error');
      return;
    }
    await send(async () => {
      const res = await call(accountsApi.sendResetCode, { body: parsed, token: null });
      notify(res.sys_message || messages.otpSent, 'success');
      navigate(`/verify-reset-otp?email=${encodeURIComponent(parsed.email)}`);
    });
  };

  return (
    <div className="page account">
      <h1>Forgot password</h1>
      <p className="account__lead">Enter your email and we will send you a code to set a new password.</p>
      <form className="form account__form" onSubmit={submit} noValidate>
        <Field form={form} name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Send OTP
        </button>
      </form>
      <p className="account__links">
        <Link to="/login">Back to login</Link>
      </p>
    </div>
  );
}
