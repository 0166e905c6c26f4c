import type { FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import * as v from 'valibot';
import { accountsApi } from '../../domain/accounts.contract.js';
import { EmailSchema, ResetPasswordFormSchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import { Field, useForm, useSending } from './form.js';
import './account.css';

/**
 * /verify-reset-otp?email= (spec sections 2, 4, 5): the code, New Password
 * and Confirm Password (each with show/hide), Reset Password, then /login.
 * Without a usable email in the URL there is nothing to reset: back to
 * /forget-password.
 */
export default function VerifyResetOtp() {
  useTitle('Reset password');
  const [params] = useSearchParams();
  const email = v.safeParse(EmailSchema(), params.get('email') ?? '');
  if (!email.success) return <Navigate to="/forget-password" replace />;
  return <ResetForm email={email.output} />;
}

function ResetForm({ email }: { email: string }) {
  const form = useForm(ResetPasswordFormSchema, { email, otp: '', newPassword: '', confirmPassword: '' });
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
      const { confirmPassword: _, ...body } = parsed;
      const res = await call(accountsApi.resetPassword, { body, token: null });
      notify(res.sys_message || messages.passwordResetDone, 'success');
      navigate('/login');
    });
  };

  return (
    <div className="page account">
      <h1>Reset password</h1>
      <form className="form account__form" onSubmit={submit} noValidate>
        {/* Shown, and named for password managers, so the new password is saved for the right account. */}
        <Field form={form} name="email" label="Email" type="email" autoComplete="username" readOnly />
        <Field
          form={form}
          name="otp"
          label="OTP"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="[0-9]{6}"
        />
        <Field form={form} name="newPassword" label="New Password" reveal autoComplete="new-password" />
        <Field
          form={form}
          name="confirmPassword"
          label="Confirm Password"
          reveal
          autoComplete="new-password"
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Reset Password
        </button>
      </form>
      <p className="account__links">
        <Link to="/forget-password">Send a new code</Link>
      </p>
    </div>
  );
}
