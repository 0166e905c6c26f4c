import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { messages } from '../../domain/messages.js';
import { isAdmin } from '../../domain/roles.js';
import { decodeToken, isTokenLive } from '../../domain/session.js';
import { clearSession, setReturnUrl, storedToken } from '../../sw/session.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';

/**
 * The spec's route guards (section 6). The login guard: a missing,
 * undecodable or expired token (`exp` x 1000 against now) goes to /login, a
 * bad or expired one is removed, and the wanted URL is kept as `returnUrl`.
 * The admin guard reads the role claim of the token: "1" passes, another
 * role goes to /home, a missing or invalid token to /login.
 */
function useWantedUrl(): string {
  const { pathname, search } = useLocation();
  return `${pathname}${search}`;
}

function ToLogin({ wanted, message }: { wanted: string; message?: string }) {
  const notify = useNotify();
  useEffect(() => {
    const token = storedToken();
    if (token && !isTokenLive(token)) void clearSession({ returnUrl: wanted });
    else setReturnUrl(wanted);
    if (message) notify(message, 'info');
  }, [wanted, message, notify]);
  return <Navigate to="/login" replace />;
}

export function RequireLogin({ children, message }: { children: ReactNode; message?: string }) {
  const session = useSession();
  const wanted = useWantedUrl();
  if (!session) return <ToLogin wanted={wanted} message={message} />;
  return <>{children}</>;
}

/** Checkout says why it sent the shopper away (spec: "Please log in first."). */
export function RequireLoginForCheckout({ children }: { children: ReactNode }) {
  return <RequireLogin message={messages.loginFirst}>{children}</RequireLogin>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  const wanted = useWantedUrl();
  if (!session) return <ToLogin wanted={wanted} />;
  const role = decodeToken(session.token)?.role ?? null;
  if (!isAdmin(role)) return <Navigate to="/home" replace />;
  return <>{children}</>;
}
