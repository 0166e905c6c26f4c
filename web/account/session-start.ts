import type { NavigateFunction } from 'react-router-dom';
import type { LoginData } from '../../domain/accounts.js';
import { isAdmin } from '../../domain/roles.js';
import { keepOnlyAccount, saveSession, takeReturnUrl } from '../../sw/session-writes.js';

/**
 * After a good login (password or code): store the session, then go where
 * the spec says: role 1 to /dashboard, anyone else back to the URL the login
 * guard saved (checkout, My Orders), or /home. Another account's personal
 * data still on the phone (its session ended without a logout) goes now.
 */
export async function startSession(data: LoginData, navigate: NavigateFunction): Promise<void> {
  await saveSession(data);
  await keepOnlyAccount(data.veryOtpLoginID);
  const back = takeReturnUrl();
  if (isAdmin(data.role)) navigate('/dashboard', { replace: true });
  else navigate(back?.startsWith('/') && !back.startsWith('//') ? back : '/home', { replace: true });
}
