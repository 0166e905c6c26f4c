import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { isAdmin } from '../../domain/roles.js';
import { decodeToken, isTokenLive } from '../../domain/session.js';
import { clearSession, setReturnUrl, storedToken } from '../../sw/session.js';
import { useSession } from '../hooks/useSession.js';

/**
 * The spec's route guards (section 6). The login guard: a missing,
 * undecodable or expired token (`exp` x 1000 against now) goes to /login, a
 * bad or expired one is removed, and the wanted URL is kept as `returnUrl`.
 * The admin guard reads the role claim of the token: "1" passes, another
 * role goes to /home, a missing or invalid token to /login.
 *
 * The guards are in the first bundle (route tables are), so they carry no
 * texts: a reason for the detour travels as a `LoginNotice` in the
 * navigation state, and the login screen (a lazy chunk) says it.
 */
export type LoginNotice = 'loginFirst' | 'sessionEnded';
export interface LoginState {
  notice?: LoginNotice;
}

/**
 * The reason is also kept here until the login screen takes it: a later
 * navigation to /login without state (another part of the app reacting to the
 * same ended session) must not lose it before that lazy screen has loaded.
 */
let pendingNotice: LoginNotice | null = null;
export function setLoginNotice(notice: LoginNotice | undefined): void {
  if (notice) pendingNotice = notice;
}
export function takeLoginNotice(): LoginNotice | null {
  const notice = pendingNotice;
  pendingNotice = null;
  return notice;
}

function useWantedUrl(): string {
  const { pathname, search } = useLocation();
  return `${pathname}${search}`;
}

function ToLogin({ wanted, notice }: { wanted: string; notice?: LoginNotice }) {
  // Decided once: the effect below removes a bad token, and a re-render must not lose the reason.
  const [state] = useState<LoginState>(() => ({
    notice: notice ?? (storedToken() ? 'sessionEnded' : undefined),
  }));
  useEffect(() => {
    setLoginNotice(state.notice);
    const token = storedToken();
    if (token && !isTokenLive(token)) void clearSession({ returnUrl: wanted });
    else setReturnUrl(wanted);
  }, [wanted, state]);
  return <Navigate to="/login" replace state={state} />;
}

export function RequireLogin({ children, notice }: { children: ReactNode; notice?: LoginNotice }) {
  const session = useSession();
  const wanted = useWantedUrl();
  const hadSession = useRef(session !== null);
  if (!session) {
    // The session ended under this screen and took its token along: a logout (the next person to log
    // in must not land on this one's profile) or a 401, whose handler kept the URL itself.
    if (hadSession.current && !storedToken()) return <Navigate to="/login" replace />;
    return <ToLogin wanted={wanted} notice={notice} />;
  }
  hadSession.current = true;
  return <>{children}</>;
}

/** Checkout says why it sent the shopper away (spec: "Please log in first."). */
export function RequireLoginForCheckout({ children }: { children: ReactNode }) {
  return <RequireLogin notice="loginFirst">{children}</RequireLogin>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  const wanted = useWantedUrl();
  if (!session) return <ToLogin wanted={wanted} />;
  const role = decodeToken(session.token)?.role ?? null;
  if (!isAdmin(role)) return <Navigate to="/home" replace />;
  return <>{children}</>;
}
