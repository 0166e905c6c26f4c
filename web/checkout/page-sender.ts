/**
 * The page's sender of the order outbox (the worker has its own; both take
 * the same Web Lock, so only one sends at a time). It does everything alone
 * where there is no worker or no Background Sync (Safari, Firefox):
 * - on the `online` event, every queued order goes now, whatever its back-off;
 * - when the page becomes visible, on app start and after a sign-in;
 * - on a timer at the next row's due time (back-off 2 s doubling to 5 min,
 *   with jitter) while something is queued and the browser says it is online.
 */
import { defaultEnv, sendDue } from '../../sw/outbox.js';
import { onSessionChange } from '../../sw/session.js';
import { startPaymentResume } from './payment-resume.js';

let started = false;
let running = false;
let again: { force: boolean } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** A failed pass (IndexedDB closed by an upgrade in another tab, say) is tried again after this. */
const AFTER_ERROR_MS = 5_000;

export function startPageSender(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => void kick(true));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void kick(false);
  });
  // A new sign-in resumes the orders a 401 stopped.
  onSessionChange(() => void kick(true));
  void kick(false);
  // Payments whose page died before their order was queued: the server is asked what became of them.
  startPaymentResume();
}

/** One pass now (or right after the running one); `force` ignores back-off. */
export async function kick(force: boolean): Promise<void> {
  if (running) {
    again = { force: force || (again?.force ?? false) };
    return;
  }
  if (!navigator.onLine) {
    // The online event will come; no timer meanwhile.
    clearTimeout(timer);
    return;
  }
  running = true;
  try {
    const result = await sendDue(defaultEnv(), { force });
    schedule(result.nextWakeAt);
  } catch (err) {
    console.error('outbox pass failed', err);
    schedule(Date.now() + AFTER_ERROR_MS);
  } finally {
    running = false;
    const next = again;
    again = null;
    if (next) void kick(next.force);
  }
}

function schedule(at: number | null): void {
  clearTimeout(timer);
  if (at === null) return;
  timer = setTimeout(() => void kick(false), Math.max(250, at - Date.now()));
}

/** Asks the worker to send too when the browser brings the network back (Chromium's Background Sync). */
export async function registerBackgroundSync(): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const registration = await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000)),
    ]);
    const sync = (
      registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | null
    )?.sync;
    await sync?.register('outbox');
  } catch {
    // Not offered here (Safari, Firefox, no worker yet): the page sender does it alone.
  }
}
