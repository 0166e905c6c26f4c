/**
 * The session's writes and the worker's read (see `session.ts`, the half the first screen reads):
 * a login saves it, a profile change updates its phone, a server's 401 ends it (a lapse), a
 * registration keeps its email for the code screen, a logout ends it and takes the account's
 * personal data off the device (`keepOnlyAccount`), and the worker reads the Dexie copy. Apart from
 * `session.ts` so that none of this is in the first screen's JavaScript.
 */
import type { LoginData } from '../domain/accounts.js';
import { isOwnedBy } from '../domain/ownership.js';
import { isAdmin } from '../domain/roles.js';
import { decodeToken, isTokenLive } from '../domain/session.js';
import { isWaiting } from './account-data.js';
import { checkoutDrafts } from './checkout-drafts.js';
import { db, type ShopDatabase } from './db.js';
import type { SessionRow } from './db-rows.js';
import { changed, KEYS, lapseListeners, RETURN_URL, type Session, storage, storedToken } from './session.js';

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
 * After a good login (a password, a login code or a registration code): the session stored, another
 * account's personal data still on the phone (its session ended without a logout) gone, and where
 * to go, as the spec says: role 1 to /dashboard, anyone else back to the URL the login guard saved
 * (checkout, My Orders; only a path of this site), or /home.
 */
export async function startSession(data: LoginData, store: ShopDatabase = db): Promise<string> {
  await saveSession(data, store);
  await keepOnlyAccount(data.veryOtpLoginID, store);
  const back = takeReturnUrl();
  if (isAdmin(data.role)) return '/dashboard';
  return back?.startsWith('/') && !back.startsWith('//') ? back : '/home';
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

/** A session the server refused (see `onSessionLapsed`): ended, the URL kept, the app told. */
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

/**
 * Keeps the personal data of `userId` only (of nobody: null): every other
 * account's sent and cancelled orders and history copy go; orders still
 * waiting to be sent stay for their own account. Run at logout (null) and at
 * a sign-in, which also catches what an ended session or a send finished after
 * a logout left behind.
 */
export async function keepOnlyAccount(userId: number | null, store: ShopDatabase = db): Promise<void> {
  const { outbox, orderHistory, orderDetails, recipients } = store;
  const drafts = checkoutDrafts(store);
  await store.transaction('rw', [outbox, orderHistory, orderDetails, recipients, drafts], async () => {
    await outbox.filter((r) => !isOwnedBy(r, userId) && !isWaiting(r)).delete();
    for (const t of [orderHistory, orderDetails, recipients, drafts])
      await t.filter((h) => !isOwnedBy(h, userId)).delete();
  });
}

/** A logout on this device: the session ends, then the account's personal data leaves. */
export async function endSessionOnDevice(store: ShopDatabase = db): Promise<void> {
  await clearSession({}, store);
  await keepOnlyAccount(null, store);
}
