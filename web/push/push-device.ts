/**
 * This device's part of order updates (the server's is api/push/README.md): whether
 * the browser can take pushes, the shopper's permission, and the subscription the server
 * keeps per device. The permission is asked only by a tap on the offer shown after an order
 * is placed or queued (`OrderUpdatesOffer`), never on a first visit; with it granted, the
 * device subscribes against the shop's VAPID key and sends the subscription to the server.
 */
import { pushApi } from '../../domain/push.contract.js';
import { storedToken } from '../../sw/session.js';
import { call } from '../api/client.js';
import { isIosSafariOutsideApp } from '../pwa/ios.js';

export type PushSupport =
  /** Service worker, PushManager and notifications: the device can be told. */
  | 'push'
  /** iOS Safari outside the installed app: Web Push exists only in the Home Screen app. */
  | 'install-first'
  | 'none';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'none';
  if ('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window) return 'push';
  return isIosSafariOutsideApp() ? 'install-first' : 'none';
}

export function permission(): NotificationPermission {
  return 'Notification' in window ? Notification.permission : 'denied';
}

/** base64url (the server's key) to the bytes `applicationServerKey` wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  // A page with no worker registered yet (a first visit) has nothing to push to.
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg || reg.active) return reg ?? null;
  // Installing: pushManager.subscribe needs an active worker.
  const wait = new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000));
  return Promise.race([navigator.serviceWorker.ready, wait]);
}

/**
 * Subscribes this device (again if the shop's key changed) and hands the subscription to the
 * server for the signed-in account. Needs the permission; false when the device cannot.
 */
export async function subscribeDevice(): Promise<boolean> {
  if (pushSupport() !== 'push' || permission() !== 'granted') return false;
  const reg = await registration();
  if (!reg) return false;
  const { data } = await call(pushApi.key);
  const serverKey = keyBytes(data?.publicKey ?? '');
  let sub = await reg.pushManager.getSubscription();
  const sameKey = (() => {
    const own = sub?.options.applicationServerKey;
    if (!own) return false;
    const bytes = new Uint8Array(own);
    return bytes.length === serverKey.length && bytes.every((b, i) => b === serverKey[i]);
  })();
  if (sub && !sameKey) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  const posted = postedKey(sub.endpoint);
  if (postedThisSession.has(posted)) return true;
  const json = sub.toJSON();
  await call(pushApi.subscribe, {
    body: {
      endpoint: json.endpoint ?? sub.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    },
  });
  postedThisSession.add(posted);
  return true;
}

/**
 * Subscriptions this page has handed to the server, by session and endpoint. The server ties a
 * subscription to the session that posted it (logout removes it), so one post per session is
 * enough; before this, every visit to an order page posted it again. Kept in memory, not in
 * storage: a reload posts once more, which also repairs a subscription the server dropped.
 */
const postedThisSession = new Set<string>();
const postedKey = (endpoint: string) => `${storedToken() ?? ''} ${endpoint}`;

/** Whether this page already handed the device's current subscription to the server in this session. */
async function alreadyPosted(): Promise<boolean> {
  if (postedThisSession.size === 0) return false;
  const sub = await (await registration())?.pushManager.getSubscription();
  return Boolean(sub && postedThisSession.has(postedKey(sub.endpoint)));
}

/** Forgets this device on the server and in the browser (the switch in My Profile turned off). */
export async function unsubscribeDevice(): Promise<void> {
  const sub = await (await registration())?.pushManager.getSubscription();
  if (!sub) return;
  await call(pushApi.unsubscribe, { body: { endpoint: sub.endpoint } });
  postedThisSession.delete(postedKey(sub.endpoint));
  await sub.unsubscribe();
}

/** Whether this device holds a subscription now. */
export async function deviceSubscribed(): Promise<boolean> {
  return Boolean(await (await registration())?.pushManager.getSubscription());
}

export async function orderUpdatesWanted(): Promise<boolean> {
  return (await call(pushApi.preferences)).data?.orderUpdates ?? true;
}

export async function setOrderUpdates(on: boolean): Promise<void> {
  await call(pushApi.setPreferences, { body: { orderUpdates: on } });
}

/**
 * After an order, with the permission already given: make sure this device is subscribed,
 * unless the shopper turned order updates off in My Profile.
 */
export async function keepDeviceSubscribed(): Promise<boolean> {
  if (pushSupport() !== 'push' || permission() !== 'granted') return false;
  // Nothing to ask the server: the switch in My Profile unsubscribes this page's device itself.
  if (await alreadyPosted()) return true;
  if (!(await orderUpdatesWanted())) return false;
  return subscribeDevice();
}

const OFFER_SNOOZE_KEY = 'orderUpdatesOfferSnoozedAt';
const OFFER_SNOOZE_MS = 14 * 24 * 3600_000;
const NO_PUSH_TOLD_KEY = 'orderUpdatesNoPushTold';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode: the offer may come back next visit, which is acceptable.
  }
}

export function offerSnoozed(now = Date.now()): boolean {
  const at = Number(stored(OFFER_SNOOZE_KEY));
  return Number.isFinite(at) && at > 0 && now - at < OFFER_SNOOZE_MS;
}
export function snoozeOffer(): void {
  store(OFFER_SNOOZE_KEY, String(Date.now()));
}
/** "This browser cannot notify you" is said once per device. */
export function noPushTold(): boolean {
  return stored(NO_PUSH_TOLD_KEY) === '1';
}
export function markNoPushTold(): void {
  store(NO_PUSH_TOLD_KEY, '1');
}
