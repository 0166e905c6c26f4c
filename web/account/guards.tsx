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
 *
 * A token that decodes and has not expired is still only the device's belief
 * (signed with another secret after a server move, edited, or left by an older
 * client without the other keys). So a guarded screen always reaches a definite
 * state: a session without the fields the screen needs (`needs`) is ended here,
 * and a complete one is shown at once while the guard asks the server once per
 * token (`ServerCheck`): a 401 ends it through the API client's one 401 path
 * (to /login, which says the session ended); no answer (offline) keeps it, so
 * the kept copies still show offline.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { isAdmin } from '../../domain/roles.js';
import { decodeToken } from '../../domain/session.js';
import { type Session, setReturnUrl, storedToken } from '../../sw/session.js';
import { clearSession } from '../../sw/session-writes.js';
import { useSession } from '../hooks/useSession.js';
import { type LoginNotice, type LoginState, setLoginNotice } from './login-notice.js';

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
    // A token still stored here is one the guard refused (dead, undecodable, or missing fields): it ends.
    if (storedToken()) void clearSession({ returnUrl: wanted });
    else setReturnUrl(wanted);
  }, [wanted, state]);
  return <Navigate to="/login" replace state={state} />;
}

/** What a guarded screen may need of the session besides its token. */
export type SessionField = 'userId' | 'email' | 'phone';

function lacks(session: Session, needs: readonly SessionField[]): boolean {
  return needs.some((field) => (field === 'userId' ? !(session.userId > 0) : !session[field]));
}

/**
 * Tokens the server accepted during this page's life: each is asked about once,
 * not on every guarded screen. Module state on purpose: a reload asks again.
 */
const confirmedTokens = new Set<string>();

/** Asks the server whether it still accepts the token; its 401 ends the session in the API client. */
function ServerCheck({ token }: { token: string }) {
  useEffect(() => {
    if (confirmedTokens.has(token)) return;
    let live = true;
    // Loaded here, not imported: the guards are in the first bundle, the HTTP client is not.
    void Promise.all([import('../api/client.js'), import('../../domain/accounts.contract.js')])
      .then(([{ call }, { accountsApi }]) => call(accountsApi.getProfile, { token }))
      .then(
        () => {
          if (live) confirmedTokens.add(token);
        },
        // A 401 was handled by the client (session ended, to /login); offline or a 5xx leaves the
        // session as it is, and the screen shows what the device kept.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [token]);
  return null;
}

export function RequireLogin({
  children,
  notice,
  needs = ['userId'],
  screenAsksServer = false,
}: {
  children: ReactNode;
  notice?: LoginNotice;
  /** The session's fields the screen reads (every guarded screen reads whose data by `userId`). */
  needs?: readonly SessionField[];
  /**
   * The screen's first call is the account's own profile: its answer (a 401 ends the session in
   * the API client) is the check, and the guard does not ask the same thing a second time.
   */
  screenAsksServer?: boolean;
}) {
  const session = useSession();
  const wanted = useWantedUrl();
  const hadSession = useRef(session !== null);
  if (!session) {
    // The session ended under this screen and took its token along: a logout (the next person to log
    // in must not land on this one's profile) or a 401, whose handler kept the URL itself.
    if (hadSession.current && !storedToken()) return <Navigate to="/login" replace />;
    return <ToLogin wanted={wanted} notice={notice} />;
  }
  // Shown half (My Orders with no email asks for nothing and shows nothing) is no state: it ends.
  if (lacks(session, needs)) return <ToLogin wanted={wanted} notice="sessionEnded" />;
  hadSession.current = true;
  return (
    <>
      {screenAsksServer ? null : <ServerCheck token={session.token} />}
      {children}
    </>
  );
}

/** Checkout says why it sent the shopper away (spec: "Please log in first."). */
export function RequireLoginForCheckout({ children }: { children: ReactNode }) {
  // The order carries the session's email and phone (CustomerEmail, CustomerPhone). The checkout's
  // first call is the account's profile (its name fills Full Name): that answer is the check.
  return (
    <RequireLogin notice="loginFirst" needs={['userId', 'email', 'phone']} screenAsksServer>
      {children}
    </RequireLogin>
  );
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  const wanted = useWantedUrl();
  if (!session) return <ToLogin wanted={wanted} />;
  const role = decodeToken(session.token)?.role ?? null;
  if (!isAdmin(role)) return <Navigate to="/home" replace />;
  return (
    <>
      <ServerCheck token={session.token} />
      {children}
    </>
  );
}
