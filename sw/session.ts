/**
 * With `session-writes.ts`, the one place that reads and writes the session. The page keeps the spec's
 * localStorage keys (`token`, `role`, `userId`, `email`, `phone`,
 * `isLoggedIn`, `userEmail`, `userPhone`, `returnUrl`) for a client written
 * against the spec, and the same session in Dexie, because the service worker
 * has no localStorage and sends queued orders with it. Screens never touch the
 * keys: they call these modules (reads through `web/hooks/useSession.ts`).
 *
 * Ending a session removes only the session: the cart, the catalogue and the
 * outbox stay (queued orders belong to their account and survive logout). A
 * logout also takes the account's personal data off the device
 * (`endSessionOnDevice` in `account-data.ts`).
 *
 * This half reads the session and is on the first screen (the header's account menu reads it);
 * what only a login, a registration, a profile change, a lapse or the worker needs is in
 * `session-writes.ts`, loaded with the screens that do it, off the first screen's budget.
 */
import { decodeToken, isTokenLive } from '../domain/session.js';

export const KEYS = [
  'token',
  'role',
  'userId',
  'email',
  'phone',
  'isLoggedIn',
  'userEmail',
  'userPhone',
] as const;
export const RETURN_URL = 'returnUrl';

export function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** A session as the page reads it (from localStorage, synchronously: guards run in render). */
export interface Session {
  token: string;
  role: string;
  userId: number;
  email: string;
  phone: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();
export function changed(): void {
  for (const l of listeners) l();
}
/** Called on every session change in this tab, and in other tabs through the `storage` event. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  const fromOtherTab = (e: StorageEvent) => {
    if (e.key === null || e.key === 'token') listener();
  };
  globalThis.addEventListener?.('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', fromOtherTab);
  };
}

/** The stored token as it is, live or not (the API client sends it; the server judges it). */
export function storedToken(): string | null {
  try {
    return storage()?.getItem('token') ?? null;
  } catch {
    return null;
  }
}

/** The page's session, or null when no live token is stored. */
export function currentSession(now: number = Date.now()): Session | null {
  const s = storage();
  const token = storedToken();
  if (!s || !token || !isTokenLive(token, now)) return null;
  return {
    token,
    role: s.getItem('role') ?? decodeToken(token)?.role ?? '',
    userId: Number(s.getItem('userId') ?? 0),
    email: s.getItem('email') ?? s.getItem('userEmail') ?? '',
    phone: s.getItem('phone') ?? s.getItem('userPhone') ?? '',
  };
}

export function setReturnUrl(url: string): void {
  storage()?.setItem(RETURN_URL, url);
}

/**
 * A session the server refused (a 401 to a call that carried the token): it
 * ends here as a logout would (the cart, catalogue and outbox stay), the URL
 * the shopper was on is kept, and the app (which registered with
 * `onSessionLapsed`) asks them to sign in again. The API client calls this in
 * one place, so no screen handles a 401 itself.
 */
type LapseListener = (returnUrl: string | undefined) => void;
export const lapseListeners = new Set<LapseListener>();
export function onSessionLapsed(listener: LapseListener): () => void {
  lapseListeners.add(listener);
  return () => {
    lapseListeners.delete(listener);
  };
}
