import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { accountMessages } from '../../domain/account-messages.js';
import { accountsApi } from '../../domain/accounts.contract.js';
import { EmailOnlySchema, LoginSchema, OtpLoginFormSchema } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { startSession } from '../../sw/session-writes.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useTitle } from '../hooks/useTitle.js';
import { Field, useForm, useSending } from './form.js';
import { type LoginState, takeLoginNotice } from './login-notice.js';
import './account.css';

/**
 * /login (spec sections 2, 5, 8): email and password, or "log in with a code
 * instead" (`/onlyotp` mails a code, `/VryOtpLogin` checks it). A good login
 * goes to /dashboard for role 1, else back where the login guard came from.
 * The form's messages go to the alert region, as the spec's alerts did.
 */
export default function Login() {
  useTitle('Login');
  const [withCode, setWithCode] = useState(false);
  const notify = useNotify();
  const notice = (useLocation().state as LoginState | null)?.notice;
  const said = useRef(false);
  useEffect(() => {
    // Why the shopper was sent here (a guard, or a session the server ended), said once.
    const reason = takeLoginNotice() ?? notice;
    if (!reason || said.current) return;
    said.current = true;
    notify(reason === 'loginFirst' ? messages.loginFirst : accountMessages.sessionEnded, 'info');
  }, [notice, notify]);

  return (
    <div className="page account">
      <h1>Login</h1>
      {withCode ? <CodeLogin /> : <PasswordLogin />}
      <p className="account__switch">
        <button type="button" className="btn btn--link" onClick={() => setWithCode((x) => !x)}>
          {withCode ? 'Log in with your password instead' : 'Log in with a code instead'}
        </button>
      </p>
      <p className="account__links">
        <Link to="/forget-password">Forgot password?</Link>
        <span>
          New here? <Link to="/register">Create an account</Link>
        </span>
      </p>
    </div>
  );
}

function failure(err: unknown): string {
  // The spec: "Login failed: {sys_message}" for the server's refusal; no answer at all is its generic text.
  return err instanceof ApiError && !err.offline
    ? messages.loginFailed(err.message)
    : messages.somethingWentWrongTryAgain;
}

function PasswordLogin() {
  const form = useForm(LoginSchema, { email: '', password: '' }, false);
  const notify = useNotify();
  const navigate = useNavigate();
  const { busy, send } = useSending();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(LoginSchema, form.values);
    if (!parsed.success) {
      notify(messages.loginInvalid, 'error');
      return;
    }
    await send(async () => {
      // No token: a stale one on the device must not decide anything here.
      const res = await call(accountsApi.login, { body: parsed.output, token: null });
      if (!res.data) throw new ApiError(res.sys_message, 200, res);
      navigate(await startSession(res.data), { replace: true });
    }, failure);
  };

  return (
    <form className="form account__form" onSubmit={submit} noValidate>
      <Field form={form} name="email" label="Email" type="email" autoComplete="username" inputMode="email" />
      <Field form={form} name="password" label="Password" reveal autoComplete="current-password" />
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        Login
      </button>
    </form>
  );
}

function CodeLogin() {
  const form = useForm(OtpLoginFormSchema, { email: '', otp: '' }, false);
  const notify = useNotify();
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, send } = useSending();

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    const parsed = v.safeParse(EmailOnlySchema, { email: form.values.email });
    if (!parsed.success) {
      notify(messages.emailInvalid, 'error');
      return;
    }
    const body = parsed.output;
    await send(async () => {
      await call(accountsApi.sendLoginCode, { body, token: null });
      setSentTo(body.email);
      notify(accountMessages.loginCodeSent(body.email), 'success');
    });
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(OtpLoginFormSchema, { ...form.values, email: sentTo ?? form.values.email });
    if (!parsed.success) {
      notify(messages.otpInvalid, 'error');
      return;
    }
    await send(async () => {
      const res = await call(accountsApi.loginWithCode, { body: parsed.output, token: null });
      if (!res.data) throw new ApiError(res.sys_message, 200, res);
      navigate(await startSession(res.data), { replace: true });
    }, failure);
  };

  if (!sentTo) {
    return (
      <form className="form account__form" onSubmit={sendCode} noValidate>
        <p className="account__lead">We will email you a 6-digit code to log in with.</p>
        <Field
          form={form}
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Send code
        </button>
      </form>
    );
  }
  return (
    <form className="form account__form" onSubmit={verify} noValidate>
      <p className="account__lead">
        Enter the code we emailed to <strong>{sentTo}</strong>.
      </p>
      <Field
        form={form}
        name="otp"
        label="Login code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        pattern="[0-9]{6}"
      />
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        Log in
      </button>
      <button type="button" className="btn btn--link" onClick={() => void sendCode()} disabled={busy}>
        Send the code again
      </button>
    </form>
  );
}
