/**
 * The one module that reads and writes the session. The page keeps the spec's
 * localStorage keys (`token`, `role`, `userId`, `email`, `phone`,
 * `isLoggedIn`, `userEmail`, `userPhone`, `returnUrl`) for a client written
 * against the spec, and the same session in Dexie, because the service worker
 * has no localStorage and sends queued orders with it. Screens never touch the
 * keys: they call this module (through `web/hooks/useSession.ts`).
 *
 * Ending a session removes only the session: the cart, the catalogue and the
 * outbox stay (queued orders belong to their account and survive logout). A
 * logout also takes the account's personal data off the device
 * (`endSessionOnDevice` in `account-data.ts`).
 */
import type { LoginData } from '../domain/accounts.js';
import { decodeToken, isTokenLive } from '../domain/session.js';
import { db, type ShopDatabase } from './db.js';
import type { SessionRow } from './db-rows.js';

const KEYS = ['token', 'role', 'userId', 'email', 'phone', 'isLoggedIn', 'userEmail', 'userPhone'] as const;
const RETURN_URL = 'returnUrl';

function storage(): Storage | null {
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
function changed(): void {
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

/** A login's spec keys, as the browser's storage holds them. */
export function sessionKeys(data: LoginData): Record<(typeof KEYS)[number], string> {
  return {
    token: data.token,
    role: data.role,
    userId: String(data.veryOtpLoginID),
    email: data.email,
    phone: data.phone,
    isLoggedIn: 'true',
    userEmail: data.email,
    userPhone: data.phone,
  };
}

/** A login's Dexie row (the worker's copy of the session). */
export function sessionRow(data: LoginData): SessionRow {
  return {
    key: 'current',
    token: data.token,
    role: data.role,
    userId: data.veryOtpLoginID,
    email: data.email,
    phone: data.phone,
    expiresAt: decodeToken(data.token)?.expiresAt ?? null,
  };
}

/** After a login: the spec's keys and the Dexie row, written together. */
export async function saveSession(data: LoginData, store: ShopDatabase = db): Promise<Session> {
  const s = storage();
  const values = sessionKeys(data);
  for (const k of KEYS) s?.setItem(k, values[k]);
  const row = sessionRow(data);
  await store.session.put(row);
  changed();
  const { key: _, expiresAt: __, ...session } = row;
  return session;
}

/**
 * Ends the session on this device: the spec's keys and the Dexie row. The
 * cart, catalogue, outbox and order history stay. `returnUrl` is stored when
 * given, so a lapsed session comes back to where the shopper was; without it
 * (a logout) any saved one is dropped.
 */
export async function clearSession(
  options: { returnUrl?: string } = {},
  store: ShopDatabase = db,
): Promise<void> {
  const s = storage();
  for (const k of KEYS) s?.removeItem(k);
  // A logout forgets where the last person was going; a lapsed session keeps it to come back to.
  if (options.returnUrl) s?.setItem(RETURN_URL, options.returnUrl);
  else s?.removeItem(RETURN_URL);
  await store.session.delete('current');
  changed();
}

/** After a profile change: the phone the session carries (checkout shows it, the worker sends it). */
export async function updateSessionPhone(phone: string, store: ShopDatabase = db): Promise<void> {
  const s = storage();
  if (!storedToken()) return;
  s?.setItem('phone', phone);
  s?.setItem('userPhone', phone);
  await store.session.update('current', { phone });
  changed();
}

/** The session as the worker reads it (no localStorage there); null when absent or expired. */
export async function loadSession(
  store: ShopDatabase = db,
  now: number = Date.now(),
): Promise<SessionRow | null> {
  const row = await store.session.get('current');
  if (!row || !isTokenLive(row.token, now)) return null;
  return row;
}

/** The URL the shopper wanted before the login guard sent them to /login. */
export function takeReturnUrl(): string | null {
  const s = storage();
  const url = s?.getItem(RETURN_URL) ?? null;
  s?.removeItem(RETURN_URL);
  return url;
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
const lapseListeners = new Set<LapseListener>();
export function onSessionLapsed(listener: LapseListener): () => void {
  lapseListeners.add(listener);
  return () => {
    lapseListeners.delete(listener);
  };
}
export async function sessionLapsed(returnUrl?: string, store: ShopDatabase = db): Promise<void> {
  await clearSession({ returnUrl }, store);
  for (const l of lapseListeners) l(returnUrl);
}

/**
 * A registration waiting for its code: the spec keeps the email and phone
 * under `userEmail` and `userPhone` for the OTP screen, which reads them back
 * here (and says "Email not found. Please register first." without them).
 */
export function savePendingRegistration(email: string, phone: string): void {
  const s = storage();
  s?.setItem('userEmail', email);
  s?.setItem('userPhone', phone);
}
export function pendingRegistrationEmail(): string | null {
  return storage()?.getItem('userEmail') || null;
}
