import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { accountMessages } from '../../domain/account-messages.js';
import { accountsApi } from '../../domain/accounts.contract.js';
import { OtpFormSchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { pendingRegistrationEmail, startSession } from '../../sw/session-writes.js';
import { call, serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import { Field, useForm, useSending } from './form.js';
import { forgetRegistration, lastRegistration } from './registration.js';
import './account.css';

/**
 * /otp (spec sections 2, 5, 8): the registration code. Without a stored
 * email: "Email not found. Please register first." and /register. A good
 * code signs the shopper in (the server answers a session) and returns them where they were
 * (the cart's Checkout, saved as `returnUrl`), else /home. "Send the code again" registers the same details once
 * more while they are in memory; after a reload it points to /register.
 */
export default function Otp() {
  useTitle('Verify your email');
  const form = useForm(OtpFormSchema, { otp: '' });
  const notify = useNotify();
  const navigate = useNavigate();
  const { busy, send } = useSending();
  const email = pendingRegistrationEmail();
  const again = lastRegistration();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email) {
      notify(messages.otpNoEmail, 'error');
      navigate('/register');
      return;
    }
    const parsed = form.check();
    if (!parsed) {
      notify(messages.otpInvalid, 'error');
      return;
    }
    await send(
      async () => {
        const res = await call(accountsApi.verifyRegistration, {
          body: { Email: email, Otp: parsed.otp },
          token: null,
        });
        forgetRegistration();
        notify(res.sys_message || messages.otpVerified, 'success');
        // A server of the spec's own answers no session: the shopper logs in with the new password.
        if (res.data) navigate(await startSession(res.data), { replace: true });
        else navigate('/login');
      },
      (err) => serverMessageOr(err, messages.somethingWentWrong) || messages.otpWrong,
    );
  };

  const resend = async () => {
    if (!again) return;
    await send(async () => {
      await call(accountsApi.createAccount, { body: again, token: null });
      notify(accountMessages.codeSentAgain, 'success');
    });
  };

  return (
    <div className="page account">
      <h1>Verify your email</h1>
      <p className="account__lead">
        {email ? (
          <>
            Enter the 6-digit code we emailed to <strong>{email}</strong>.
          </>
        ) : (
          'Enter the 6-digit code from your registration email.'
        )}
      </p>
      <form className="form account__form" onSubmit={submit} noValidate>
        <Field
          form={form}
          name="otp"
          label="OTP"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="[0-9]{6}"
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Verify
        </button>
      </form>
      <p className="account__links">
        {again ? (
          <button type="button" className="btn btn--link" onClick={resend} disabled={busy}>
            Send the code again
          </button>
        ) : (
          <span>
            No code? <Link to="/register">Register again</Link> to get a new one.
          </span>
        )}
      </p>
    </div>
  );
}
