/**
 * The update watch (workbox-window), loaded by `start.ts` once a worker controls the page: a
 * waiting worker becomes "A new version is ready", and the new version takes over only when the
 * shopper chooses Reload. Periodic Background Sync is asked for here too (only an installed app,
 * with a worker in place, can have it).
 */
import { Workbox } from 'workbox-window';
import { SYNC_TAG } from '../../sw/messages.js';
import { setPwaState } from './pwa-state.js';

let wb: Workbox | null = null;
/** This tab asked the waiting worker to take over. */
let accepting = false;
/** A new worker took over from another tab while this one runs the old code. */
let takenOver = false;

export async function watchUpdates(swUrl: string): Promise<void> {
  if (wb) return;
  wb = new Workbox(swUrl, { scope: '/' });
  // Fires for a worker that installed while this page was open, and for one
  // already waiting when the page loaded (the shopper chose Later before).
  wb.addEventListener('waiting', () => setPwaState({ updateReady: true }));
  // Another tab's Reload activated the new worker: this tab still runs the old code (whose
  // screens the new worker no longer precaches), so it offers the reload too.
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate && !accepting) {
      takenOver = true;
      setPwaState({ updateReady: true });
    }
  });
  try {
    // The registration the browser already has, when it has one: workbox-window takes it over.
    const registration = await wb.register();
    if (registration) await registerPeriodicSync(registration);
  } catch {
    // Without a worker the shop still runs online; the page syncs itself.
  }
}

/** The shopper chose Reload on "A new version is ready". */
export function acceptUpdate(): void {
  if (!wb || takenOver) {
    window.location.reload();
    return;
  }
  accepting = true;
  wb.addEventListener('controlling', () => window.location.reload());
  wb.messageSkipWaiting();
}

/** The shopper chose Later: the new version waits until every tab of the shop is closed. */
export function dismissUpdate(): void {
  setPwaState({ updateReady: false });
}

/** Asks the browser to look for a new `sw.js` (every few minutes, and when the page is shown again). */
export function checkForUpdate(): Promise<void> | undefined {
  return wb?.update();
}

interface PeriodicSyncManager {
  register(tag: string, options: { minInterval: number }): Promise<void>;
}

/** Chromium grants periodic sync to installed apps only; elsewhere this quietly does nothing. */
async function registerPeriodicSync(registration: ServiceWorkerRegistration): Promise<void> {
  const periodic = (registration as ServiceWorkerRegistration & { periodicSync?: PeriodicSyncManager })
    .periodicSync;
  if (!periodic) return;
  try {
    const status = await navigator.permissions.query({
      name: 'periodic-background-sync' as PermissionName,
    });
    if (status.state === 'granted') await periodic.register(SYNC_TAG, { minInterval: 6 * 3600_000 });
  } catch {
    // Not supported here.
  }
}
