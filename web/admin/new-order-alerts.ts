/**
 * New-order notifications on this admin's device (the server's half: api/push/README.md, "New
 * orders on the admins' devices"). The device subscribes against the shop's VAPID key (`GET
 * /api/admin/new-order-alerts`), then hands its subscription to `PUT /api/admin/new-order-alerts`,
 * which keeps it as a shopper's subscribe does (the allow-list and limits) and marks it. The
 * choice is kept on the device too and said to the server again once per page and session: a new
 * login on the device makes a new subscription row (logout forgets the old one).
 *
 * The shopper's `web/push/push-device.ts` and `domain/push.contract.ts` are not imported here on
 * purpose: a module the admin's chunks and the shop's share becomes a chunk of its own, whose name
 * every storefront page's route map then carries (the first screen's bytes).
 */
import { adminApi } from '../../domain/admin.contract.js';
import { liveMessages } from '../../domain/admin-live.js';
import { storedToken } from '../../sw/session.js';
import type { AdminCall } from './connection.js';

const ALERTS_KEY = 'adminNewOrderPush';

/** A refusal worth saying in words next to the switch. */
export class AlertsProblem extends Error {}

const canPush = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** On when the admin turned it on here and the browser still lets the shop notify. */
export function alertsOn(): boolean {
  try {
    return localStorage.getItem(ALERTS_KEY) === 'on' && canPush() && Notification.permission === 'granted';
  } catch {
    return false;
  }
}

function remember(on: boolean): void {
  try {
    if (on) localStorage.setItem(ALERTS_KEY, 'on');
    else localStorage.removeItem(ALERTS_KEY);
  } catch {
    // Private mode: the server still knows, for this session.
  }
}

/** Why the switch cannot be on here, in words, or null. */
export function alertsBlocked(): string | null {
  if (!canPush()) return liveMessages.pushUnsupported;
  return Notification.permission === 'denied' ? liveMessages.pushBlocked : null;
}

/** The bytes of an applicationServerKey, as the shop writes its key (base64url). */
function base64url(key: ArrayBuffer | null | undefined): string {
  if (!key) return '';
  return btoa(String.fromCharCode(...new Uint8Array(key)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * This device's subscription; with `adminCall`, made against the shop's key if there is none (a
 * subscription to another key is replaced).
 */
async function deviceSubscription(adminCall?: AdminCall): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.active) return null;
  const current = await registration.pushManager.getSubscription();
  if (!adminCall) return current;
  const { data } = await adminCall(adminApi.newOrderAlertsState);
  const key = data?.publicKey ?? '';
  if (current && base64url(current.options.applicationServerKey) === key) return current;
  await current?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Sessions and endpoints this page has told the server about. */
const told = new Set<string>();
const toldKey = (endpoint: string) => `${storedToken() ?? ''} ${endpoint}`;

/** On: the subscription with its keys (kept as a shopper's subscribe keeps it) and the mark; off: the mark. */
async function tell(adminCall: AdminCall, sub: PushSubscription, on: boolean): Promise<void> {
  const keys = sub.toJSON().keys;
  await adminCall(adminApi.newOrderAlerts, {
    body: {
      endpoint: sub.endpoint,
      on,
      ...(on ? { keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } } : {}),
    },
  });
  if (on) told.add(toldKey(sub.endpoint));
  else told.delete(toldKey(sub.endpoint));
}

/** The switch turned on: the browser's permission (asked from this tap), the subscription, the mark. */
export async function turnAlertsOn(adminCall: AdminCall): Promise<void> {
  const blocked = alertsBlocked();
  if (blocked) throw new AlertsProblem(blocked);
  if (Notification.permission === 'default') await Notification.requestPermission();
  if (Notification.permission !== 'granted') throw new AlertsProblem(liveMessages.pushBlocked);
  const sub = await deviceSubscription(adminCall);
  if (!sub) throw new AlertsProblem(liveMessages.pushUnsupported);
  await tell(adminCall, sub, true);
  remember(true);
}

/** Off on this device; the subscription stays (the admin's own orders' updates may use it). */
export async function turnAlertsOff(adminCall: AdminCall): Promise<void> {
  // Off here first: a `keepAlertsOn` still on its way then sends nothing more.
  remember(false);
  try {
    const sub = await deviceSubscription();
    if (sub) await tell(adminCall, sub, false);
  } catch (err) {
    remember(true);
    throw err;
  }
}

/** Once per page and session, with the switch on: the server hears it again (a new login made a new row). */
export async function keepAlertsOn(adminCall: AdminCall): Promise<void> {
  if (!alertsOn()) return;
  const current = await deviceSubscription();
  if (current && told.has(toldKey(current.endpoint))) return;
  // The subscription the device holds, said again; made again only if the browser dropped it.
  const sub = current ?? (await deviceSubscription(adminCall));
  if (!sub || !alertsOn()) return;
  await tell(adminCall, sub, true);
}
