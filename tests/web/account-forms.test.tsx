import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { lazy } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Every account costs real scrypt hashes, and each screen's chunk is transformed on first use.
vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 20_000 });

import type { RouteObject } from 'react-router-dom';
import { accountMessages } from '../../domain/account-messages.js';
import { messages } from '../../domain/messages.js';
import { shellMessages } from '../../domain/shell-messages.js';
import { db } from '../../sw/db.js';
import { currentSession, setReturnUrl } from '../../sw/session.js';
import { savePendingRegistration } from '../../sw/session-writes.js';
import { RequireLoginForCheckout } from '../../web/account/guards.js';
import { setPwaState } from '../../web/pwa/pwa-state.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { codeIn, startSmtp, type TestSmtp } from '../support/smtp.js';
import { renderAt as renderApp, resetStore, url } from './storefront-fixtures.js';

/**
 * The account screens in jsdom, against the real server (SQLite in memory,
 * mail over real SMTP to a test server): every rule and message of the
 * forms (spec sections 5 and 8), the guards, the header's account menu, the
 * one place a 401 is handled, and the error boundary. The page's client asks
 * `/api/...` as in a browser; here relative URLs resolve against the
 * server's address (Node's Request has no page to resolve them against).
 */
let t: TestApp;
let smtp: TestSmtp;
let base = '';
const NodeRequest = globalThis.Request;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await makeTestApp('sqlite', { smtpUrl: smtp.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' && input.startsWith('/') ? new URL(input, base) : input, init);
    }
  } as typeof Request;
});
afterAll(async () => {
  globalThis.Request = NodeRequest;
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await resetStore();
});
afterEach(() => {
  cleanup();
});

function renderAt(path: string, extra: RouteObject[] = []) {
  return renderApp(path, undefined, extra);
}

const PASSWORD = 'Good-Pass1';
let n = 0;
const newEmail = () => `shopper${++n}.${Date.now().toString(36)}@example.test`;

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { isSuccess: boolean; data: unknown; sys_message: string };
}
async function verifiedAccount(): Promise<string> {
  const email = newEmail();
  await api('/CreateAccount', {
    name: 'Asha',
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    phone: '9876543210',
  });
  await api('/verifiedOtploginCustomer', { Email: email, Otp: codeIn(await smtp.take(email)) });
  return email;
}
async function loggedIn(): Promise<{ email: string; token: string }> {
  const email = await verifiedAccount();
  const res = await api('/LoginCustomer', { email, password: PASSWORD });
  const data = res.data as {
    token: string;
    role: string;
    veryOtpLoginID: number;
    email: string;
    phone: string;
  };
  localStorage.setItem('token', data.token);
  localStorage.setItem('role', data.role);
  localStorage.setItem('userId', String(data.veryOtpLoginID));
  localStorage.setItem('email', data.email);
  localStorage.setItem('phone', data.phone);
  return { email, token: data.token };
}

const alerts = () => document.querySelector('.alerts') as HTMLElement;
const said = (text: string) => waitFor(() => expect(within(alerts()).getByText(text)).toBeTruthy());
function type(label: string | RegExp, value: string) {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input;
}
/** The messages shown under a field, read through its aria-describedby (as a screen reader would). */
function describedBy(input: HTMLElement): string[] {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.flatMap((id) =>
    [...(document.getElementById(id)?.querySelectorAll('li') ?? [])].map((li) => li.textContent ?? ''),
  );
}

describe('register (spec section 5)', () => {
  it('shows each rule under its field once touched, linked to it, and keeps submit disabled while invalid', async () => {
    renderAt('/register');
    const submit = (await screen.findByRole('button', { name: 'Register' })) as HTMLButtonElement;
    const name = screen.getByLabelText('Name');
    expect(describedBy(name)).toEqual([]);
    expect(submit.getAttribute('aria-disabled')).toBe('true');

    fireEvent.blur(name);
    expect(describedBy(name)).toEqual([messages.nameRequired]);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(type('Email', 'not-an-email'))).toEqual([messages.emailInvalid]);

    const password = type(/^Password/, '');
    expect(describedBy(password)).toEqual([messages.passwordRequired]);
    type(/^Password/, 'abc');
    expect(describedBy(password)).toEqual([messages.passwordMin, messages.passwordComplexity]);
    type(/^Password/, 'abcdefgh');
    expect(describedBy(password)).toEqual([messages.passwordComplexity]);
    type(/^Password/, PASSWORD);
    expect(describedBy(password)).toEqual([]);

    expect(describedBy(type('Confirm password', 'Other-Pass1'))).toEqual([messages.passwordsDoNotMatch]);
    expect(describedBy(type('Phone', '12345'))).toEqual([messages.phoneInvalid]);
    expect(describedBy(type('Phone', '98765432101'))).toEqual([messages.phoneInvalid]);
    expect(describedBy(type('Name', 'Asha Verma '.repeat(12).slice(0, 124)))).toEqual([messages.nameTooLong]);

    type('Name', 'Asha');
    type('Email', newEmail());
    type('Confirm password', PASSWORD);
    type('Phone', '9876543210');
    expect(describedBy(screen.getByLabelText('Phone'))).toEqual([]);
    expect(submit.getAttribute('aria-disabled')).toBeNull();
    expect(submit.getAttribute('aria-describedby')).toBeNull();
    type('Name', '   ');
    expect(describedBy(screen.getByLabelText('Name'))).toEqual([messages.nameRequired]);
    expect(submit.getAttribute('aria-disabled')).toBe('true');
  });

  it('an incomplete form: the button looks disabled, stays focusable and names what is missing', async () => {
    renderAt('/register');
    const submit = (await screen.findByRole('button', { name: 'Register' })) as HTMLButtonElement;
    // Reachable by keyboard and by a screen reader, which reads why it does nothing yet.
    expect(submit.disabled).toBe(false);
    expect(submit.getAttribute('aria-disabled')).toBe('true');
    submit.focus();
    expect(document.activeElement).toBe(submit);
    const why = () => document.getElementById(submit.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(why()).toBe('Still to fill in: Name, Email, Password, Confirm password and Phone.');

    type('Name', 'Asha');
    type(/^Password/, 'abc');
    type('Phone', '98765 01234');
    expect(why()).toBe('Still to fill in: Email and Confirm password. Still to correct: Password.');

    // Pressing it says what the spec says and shows every field's message; nothing is sent.
    fireEvent.click(submit);
    await said(messages.formInvalid);
    expect(describedBy(screen.getByLabelText('Email'))).toEqual([messages.emailInvalid]);
    expect(url()).toBe('/register');
  });

  it('registers: "Sent you an OTP in your email!", keeps email and phone, goes to /otp, and the mailed code signs in and returns to checkout', async () => {
    // The cart's Checkout sent a shopper without an account to log in, and from there to register.
    setReturnUrl('/checkout');
    renderAt('/register');
    const email = newEmail();
    await screen.findByLabelText('Name');
    type('Name', 'Asha Verma');
    type('Email', email.toUpperCase());
    type(/^Password/, PASSWORD);
    type('Confirm password', PASSWORD);
    // As a contacts app shows it: the form, the server and /otp keep its 10 digits.
    expect(describedBy(type('Phone', '+91 98765 43210'))).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await said('Sent you an OTP in your email!');
    await waitFor(() => expect(url()).toBe('/otp'));
    expect(localStorage.getItem('userEmail')).toBe(email);
    expect(localStorage.getItem('userPhone')).toBe('9876543210');
    const code = codeIn(await smtp.take(email));

    expect(await screen.findByText(email)).toBeTruthy();
    const otp = screen.getByLabelText('OTP') as HTMLInputElement;
    expect(otp.getAttribute('autocomplete')).toBe('one-time-code');
    expect(otp.getAttribute('inputmode')).toBe('numeric');
    // A new code on request (the same details registered again), and the newest one verifies.
    fireEvent.click(screen.getByRole('button', { name: 'Send the code again' }));
    await said(accountMessages.codeSentAgain);
    const newer = codeIn(await smtp.take(email));
    expect(newer).toMatch(/^\d{6}$/);

    type('OTP', '12');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await said(messages.otpInvalid);
    type('OTP', code === '000000' ? '111111' : '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await said(messages.otpWrong);
    type('OTP', newer);
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await said(messages.otpVerified);
    // Signed in by the code, and back where the shopper was when the cart sent them to log in.
    await waitFor(() => expect(url()).toBe('/checkout'));
    expect(localStorage.getItem('isLoggedIn')).toBe('true');
    expect(localStorage.getItem('email')).toBe(email);
    expect(localStorage.getItem('returnUrl')).toBeNull();
  });

  it("refuses a password over 128 characters before asking the server (the server's own rule)", async () => {
    renderAt('/register');
    await screen.findByLabelText('Name');
    type('Name', 'Asha');
    type('Email', newEmail());
    type(/^Password/, 'x'.repeat(120) + PASSWORD);
    type('Confirm password', 'x'.repeat(120) + PASSWORD);
    type('Phone', '9876543210');
    // The form's own rule (at most 128 characters) is the server's: the same schema refuses first.
    expect(describedBy(screen.getByLabelText(/^Password/))).toEqual([messages.passwordTooLong]);
  });
});

describe('OTP (spec sections 5 and 8)', () => {
  it('without a stored email says "Email not found. Please register first." and goes to /register', async () => {
    renderAt('/otp');
    await screen.findByLabelText('OTP');
    type('OTP', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await said(messages.otpNoEmail);
    await waitFor(() => expect(url()).toBe('/register'));
  });

  it('after a reload (no details in memory) offers to register again instead of resending', async () => {
    savePendingRegistration('someone@example.test', '9876543210');
    renderAt('/otp');
    expect(await screen.findByRole('link', { name: 'Register again' })).toBeTruthy();
  });
});

describe('login (spec sections 2, 5, 8)', () => {
  it('says "Please enter valid email and password." for a bad form and "Login failed: {sys_message}" for a refusal', async () => {
    renderAt('/login');
    await screen.findByRole('heading', { name: 'Login' });
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forget-password',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/register');
    expect(screen.getByLabelText(/^Password/).getAttribute('autocomplete')).toBe('current-password');

    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await said(messages.loginInvalid);
    const email = await verifiedAccount();
    type('Email', email);
    type(/^Password/, 'Wrong-Pass1');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await said(messages.loginFailed(messages.loginWrongCredentials));
    expect(currentSession()).toBeNull();
  });

  it('logs in, stores the session (spec keys and Dexie), goes home, and the header shows the account menu', async () => {
    renderAt('/login');
    const email = await verifiedAccount();
    await screen.findByLabelText('Email');
    type('Email', email);
    type(/^Password/, PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(url()).toBe('/home'));
    const session = currentSession();
    expect(session?.email).toBe(email);
    expect(localStorage.getItem('isLoggedIn')).toBe('true');
    expect(localStorage.getItem('userEmail')).toBe(email);
    expect((await db.session.get('current'))?.email).toBe(email);
    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('link', { name: 'Login' })).toBeNull();
    // The signed-in menu is a chunk of its own (a first visit, logged out, never loads it).
    expect((await within(header).findByRole('link', { name: 'My Orders' })).getAttribute('href')).toBe(
      '/my-orders',
    );
    expect(within(header).getByText('Account', { selector: 'summary' })).toBeTruthy();
    expect(within(header).getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/my-profile');

    // Logout: POST /Logout, the session ends on the device, the cart and the outbox stay.
    await db.cart.put({ key: 'k1', productID: 1, quantity: 1, addedAt: 1 } as never);
    fireEvent.click(within(header).getByRole('button', { name: 'Logout' }));
    await said(messages.loggedOut);
    await waitFor(() => expect(url()).toBe('/login'));
    expect(currentSession()).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(await db.session.get('current')).toBeUndefined();
    expect(await db.cart.count()).toBe(1);
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeTruthy();
  });

  it('logging out from a guarded screen leaves no way back to it for the next person', async () => {
    await loggedIn();
    renderAt('/my-orders');
    await screen.findByRole('heading', { name: 'Your Orders' });
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(url()).toBe('/login'));
    await said(messages.loggedOut);
    expect(localStorage.getItem('returnUrl')).toBeNull();
    expect(within(alerts()).queryByText(accountMessages.sessionEnded)).toBeNull();
  });

  it('logs in with an emailed code instead (/onlyotp, then /VryOtpLogin), back to the saved URL', async () => {
    renderAt('/my-orders');
    await waitFor(() => expect(url()).toBe('/login'));
    expect(localStorage.getItem('returnUrl')).toBe('/my-orders');
    const email = await verifiedAccount();
    fireEvent.click(await screen.findByRole('button', { name: 'Log in with a code instead' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await said(messages.emailInvalid);
    type('Email', email);
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await said(accountMessages.loginCodeSent(email));
    const code = codeIn(await smtp.take(email));
    const field = screen.getByLabelText('Login code');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    type('Login code', '99');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await said(messages.otpInvalid);
    type('Login code', code);
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(url()).toBe('/my-orders'));
    expect(localStorage.getItem('returnUrl')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Your Orders' })).toBeTruthy();
    expect(await screen.findByText(messages.noOrdersFound)).toBeTruthy();
    expect((await db.orderHistory.toArray()).map((h) => h.rows.length)).toEqual([0]);
  });
});

describe('forgot and reset password (spec sections 2, 5, 8)', () => {
  it('checks the email, mails a code, and resets with the spec messages under each field', async () => {
    const email = await verifiedAccount();
    renderAt('/forget-password');
    fireEvent.click(await screen.findByRole('button', { name: 'Send OTP' }));
    await said(messages.emailInvalid);
    expect(describedBy(screen.getByLabelText('Email'))).toEqual([messages.emailInvalid]);
    type('Email', email);
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    await said(messages.codeRequestAccepted);
    await waitFor(() => expect(url()).toBe(`/verify-reset-otp?email=${encodeURIComponent(email)}`));
    const code = codeIn(await smtp.take(email));

    await screen.findByRole('heading', { name: 'Reset password' });
    expect(describedBy(type('OTP', '12a'))).toEqual([messages.resetOtpInvalid]);
    const fresh = type('New Password', 'weak');
    expect(describedBy(fresh)).toEqual([messages.resetPasswordRule]);
    expect(fresh.getAttribute('autocomplete')).toBe('new-password');
    expect(describedBy(type('Confirm Password', 'other'))).toEqual([messages.resetConfirmMismatch]);
    // Each password field has its own show/hide toggle.
    const toggles = screen.getAllByRole('button', { name: /^Show/ });
    expect(toggles).toHaveLength(2);
    expect(fresh.getAttribute('type')).toBe('password');
    fireEvent.click(toggles[0] as HTMLElement);
    expect(fresh.getAttribute('type')).toBe('text');
    expect(screen.getAllByRole('button', { name: /^Hide/ })).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await said(messages.formInvalid);
    type('OTP', code === '000000' ? '111111' : '000000');
    type('New Password', 'Brand-New1');
    type('Confirm Password', 'Brand-New1');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await said(messages.otpWrong);
    type('OTP', code);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await said(messages.passwordResetDone);
    await waitFor(() => expect(url()).toBe('/login'));
    expect((await api('/LoginCustomer', { email, password: 'Brand-New1' })).isSuccess).toBe(true);
  });

  it('without an email in the URL goes back to /forget-password', async () => {
    renderAt('/verify-reset-otp');
    await waitFor(() => expect(url()).toBe('/forget-password'));
  });
});

describe('My Profile (spec sections 2, 4, 8)', () => {
  it('shows the profile disabled; Edit, Cancel restores; a new password needs the current one, which the server checks', async () => {
    const { email } = await loggedIn();
    renderAt('/my-profile');
    const edit = (await screen.findByRole('button', { name: 'Edit' })) as HTMLButtonElement;
    await waitFor(() => expect(edit.disabled).toBe(false));
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Asha');
    expect(name.disabled).toBe(true);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(email);
    expect((screen.getByLabelText('Password') as HTMLInputElement).disabled).toBe(true);

    fireEvent.click(edit);
    expect(name.disabled).toBe(false);
    expect((screen.getByLabelText('Email') as HTMLInputElement).disabled).toBe(true);
    type('Name', 'Changed');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Asha');
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(describedBy(type('Phone', '12'))).toEqual([messages.phoneInvalid]);
    expect(describedBy(type('Phone', '091234 56789'))).toEqual([]);
    type('Address', '12 MG Road, Mohali');
    type('New password', 'Newer-Pass9');
    expect(describedBy(type('Confirm new password', 'Other-Pass9'))).toEqual([messages.passwordsDoNotMatch]);
    type('Confirm new password', 'Newer-Pass9');
    expect(describedBy(type('Current password', ''))).toEqual([accountMessages.currentPasswordRequired]);
    type('Current password', 'Wrong-Pass1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await said(accountMessages.currentPasswordWrong);
    // A wrong current password is the call's own answer, never a reason to end the session.
    expect(currentSession()?.email).toBe(email);

    type('Current password', PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await said(messages.profileUpdated);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy());
    expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('9123456789');
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('12 MG Road, Mohali');
    // The session carries the new phone (checkout shows it).
    expect(currentSession()?.phone).toBe('9123456789');
    expect((await api('/LoginCustomer', { email, password: 'Newer-Pass9' })).isSuccess).toBe(true);
  });
});

describe('session guards and a refused session (spec sections 4 and 6)', () => {
  it('checkout while logged out says "Please log in first." and keeps /checkout to come back to', async () => {
    const routes: RouteObject[] = [
      { path: '/guarded-checkout', element: <RequireLoginForCheckout>checkout</RequireLoginForCheckout> },
    ];
    renderAt('/guarded-checkout', routes);
    await said(messages.loginFirst);
    expect(url()).toBe('/login');
    expect(localStorage.getItem('returnUrl')).toBe('/guarded-checkout');
  });

  it('removes an expired or undecodable token and goes to /login', async () => {
    const exp = Math.floor(Date.now() / 1000) - 60;
    const expired = `x.${btoa(JSON.stringify({ exp, role: '0' })).replace(/=+$/, '')}.y`;
    for (const token of [expired, 'not-a-token']) {
      localStorage.setItem('token', token);
      localStorage.setItem('email', 'old@example.test');
      renderAt('/my-profile');
      await waitFor(() => expect(url()).toBe('/login'));
      await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
      expect(localStorage.getItem('returnUrl')).toBe('/my-profile');
      await said(accountMessages.sessionEnded);
      cleanup();
    }
  });

  it('a 401 to any call ends the session, says so, goes to /login and comes back after login', async () => {
    const { email, token } = await loggedIn();
    // The server ends the session (as after a password reset elsewhere); the device still holds the token.
    await api('/Logout', { email }, token);
    renderAt('/my-profile');
    await waitFor(() => expect(url()).toBe('/login'));
    await said(accountMessages.sessionEnded);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('returnUrl')).toBe('/my-profile');
    // The login screen is a lazy chunk: the URL can change before its form is there.
    await screen.findByLabelText('Email');
    type('Email', email);
    type(/^Password/, PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(url()).toBe('/my-profile'));
  });

  it('a shopper on an admin guard goes to /home; no session goes to /login', async () => {
    const { RequireAdmin } = await import('../../web/account/guards.js');
    const routes: RouteObject[] = [{ path: '/admin-only', element: <RequireAdmin>admin</RequireAdmin> }];
    renderAt('/admin-only', routes);
    await waitFor(() => expect(url()).toBe('/login'));
    cleanup();
    await loggedIn();
    renderAt('/admin-only', routes);
    await waitFor(() => expect(url()).toBe('/home'));
  });
});

describe('the error boundary around the routes', () => {
  function Boom(): never {
    throw new Error('a bug');
  }
  it('shows a message with a reload for a failing screen, and another page works again', async () => {
    const routes: RouteObject[] = [{ path: '/boom', element: <Boom /> }];
    const quiet = console.error;
    console.error = () => {};
    try {
      renderAt('/boom', routes);
      expect(await screen.findByRole('heading', { name: shellMessages.screenFailed })).toBeTruthy();
      expect(screen.getByRole('button', { name: shellMessages.reload })).toBeTruthy();
      // The header stays, so the shopper can go elsewhere.
      fireEvent.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' }));
      expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    } finally {
      console.error = quiet;
    }
  });

  it('a screen whose code cannot load offline says so and offers to retry once online', async () => {
    const Missing = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/X.js')),
    );
    const routes: RouteObject[] = [{ path: '/missing', element: <Missing /> }];
    // The page's online state, as web/pwa/start.ts keeps it from the browser's online/offline events.
    setPwaState({ offline: true });
    const quiet = console.error;
    console.error = () => {};
    try {
      renderAt('/missing', routes);
      expect(await screen.findByRole('heading', { name: shellMessages.screenNotOnDevice })).toBeTruthy();
      const retry = screen.getByRole('button', { name: shellMessages.tryAgain }) as HTMLButtonElement;
      expect(retry.disabled).toBe(true);
      act(() => {
        setPwaState({ offline: false });
      });
      expect(
        (screen.getByRole('button', { name: shellMessages.tryAgain }) as HTMLButtonElement).disabled,
      ).toBe(false);
      expect(screen.getByRole('heading', { name: shellMessages.screenLoadFailed })).toBeTruthy();
    } finally {
      console.error = quiet;
      setPwaState({ offline: false });
    }
  });
});
