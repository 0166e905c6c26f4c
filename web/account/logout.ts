import type { NavigateFunction } from 'react-router-dom';
import { accountsApi } from '../../domain/accounts.contract.js';
import { messages } from '../../domain/messages.js';
import { currentSession } from '../../sw/session.js';
import { endSessionOnDevice } from '../../sw/session-writes.js';
import { ApiError, call, serverMessageOr } from '../api/client.js';
import type { Notify } from '../hooks/useAlerts.js';

/**
 * The header's Logout (spec section 4), loaded when the shopper taps it:
 * `POST /Logout` with the stored email. Success ends the session on the
 * device and goes to /login; an unsuccessful answer shows the server's
 * message; no stored email is "No user logged in"; no answer is "Logout
 * failed.". Ending the session takes the account's personal data off the
 * device and keeps the cart, the catalogue and any order still waiting to be
 * sent (they belong to the device and to their account).
 */
export async function logout({ notify, navigate }: { notify: Notify; navigate: NavigateFunction }) {
  const email = currentSession()?.email;
  if (!email) {
    notify(messages.noUserLoggedIn, 'error');
    return;
  }
  try {
    const res = await call(accountsApi.logout, { body: { email }, endSessionOn401: false });
    // Away first: a guarded screen (My Profile) that saw the session end would keep itself as the
    // URL to come back to, and the next person to log in on this phone would land there.
    navigate('/login');
    await endSessionOnDevice();
    notify(res.sys_message || messages.loggedOut, 'success');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      // The server had already ended this session (expired, or logged out elsewhere): so is the device's.
      navigate('/login');
      await endSessionOnDevice();
      return;
    }
    notify(serverMessageOr(err, messages.logoutFailed), 'error');
  }
}
