import { liveQuery } from 'dexie';
// Static, not import(): on a first visit the page syncs at once, and a separate chunk would put
// one more round trip between the app's code and the first products (then their images, the LCP).
import { syncCatalogue } from '../../sw/catalogue-sync.js';
import { db } from '../../sw/db.js';
import type { PageMessage, WorkerMessage } from '../../sw/messages.js';
import { isIosSafariOutsideApp } from './ios.js';
import { getPwaState, setPwaState } from './pwa-state.js';

/**
 * Starts the page's half of the offline layer: registers the worker, watches
 * for a waiting update, the install offer and the network, asks for
 * persistent storage, and keeps the catalogue fresh while a page is open.
 * The worker does the syncing when it controls the page; before that (first
 * visit, development, a browser without workers) the page syncs itself.
 */
export interface PwaOptions {
  swUrl?: string;
  /** How often an open page asks for a catalogue sync. */
  syncEveryMs?: number;
}

const DEFAULT_SYNC_EVERY_MS = 5 * 60_000;
/** After "Not now" on the install offer, wait this long before offering again. */
const INSTALL_SNOOZE_MS = 14 * 24 * 3600_000;
export const INSTALL_SNOOZE_KEY = 'pwaInstallSnoozedAt';

export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * Which build this page runs, set at build time (VITE_BUILD_ID, e.g. the commit); shown on
 * the root element so support and tests can tell an old cached version from a new one.
 */
export const BUILD_ID: string = import.meta.env.VITE_BUILD_ID ?? 'dev';

let started = false;
/** The update watch, once loaded (see register). */
let updates: typeof import('./updates.js') | null = null;
let installEvent: BeforeInstallPromptEvent | null = null;

export function startPwa(options: PwaOptions = {}): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  document.documentElement.dataset.build = BUILD_ID;
  const syncEveryMs = options.syncEveryMs ?? DEFAULT_SYNC_EVERY_MS;

  setPwaState({ offline: !navigator.onLine });
  window.addEventListener('offline', () => setPwaState({ offline: true }));
  window.addEventListener('online', () => {
    setPwaState({ offline: false });
    void requestSync();
  });

  window.addEventListener('beforeinstallprompt', (event) => {
    // Our own offer replaces the browser's mini-infobar, shown only when not snoozed.
    event.preventDefault();
    installEvent = event as BeforeInstallPromptEvent;
    if (!installSnoozed()) setPwaState({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = null;
    setPwaState({ canInstall: false, showIosInstallHint: false });
  });
  if (isIosSafariOutsideApp() && !installSnoozed()) setPwaState({ showIosInstallHint: true });

  // After load: it writes to the store, which re-runs live queries, and nothing on the first screen needs it.
  afterLoad(() => void askPersistentStorage());
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event) => {
      const data = event.data as WorkerMessage | null;
      if (data?.type === 'CATALOGUE_SYNCED') syncFinished(data.ok);
    });
  }

  // Never rejects: a failed sync is retried and shown by the status, not thrown.
  const firstSync = requestSync();
  afterLoad(watchOutbox);
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    // After load, after the page's own first sync (a first visit: the products, then their images,
    // are what the shopper waits for) and when the main thread is idle: the new worker's install
    // downloads every screen's code and the card images, which would share a slow link with them.
    afterLoad(() => void firstSync.then(() => whenIdle(() => void register(options.swUrl ?? '/sw.js'))));
  }

  window.setInterval(() => {
    if (document.visibilityState !== 'visible' || !navigator.onLine) return;
    void requestSync();
    void updates?.checkForUpdate();
  }, syncEveryMs);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && navigator.onLine) void updates?.checkForUpdate();
  });
}

function whenIdle(run: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
}

function afterLoad(run: () => void): void {
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

/**
 * A first visit registers the worker with the browser's own call: until a worker controls the page there is
 * nothing to update and no other tab to hear from, so the update watch (`updates.ts`, with workbox-window)
 * joins once the new worker has taken the page, after the first screen and its precache. A page with a
 * worker already in control starts with it.
 */
async function register(swUrl: string): Promise<void> {
  if (navigator.serviceWorker.controller) {
    await watchUpdates(swUrl);
    return;
  }
  navigator.serviceWorker.addEventListener('controllerchange', () => void watchUpdates(swUrl), {
    once: true,
  });
  try {
    await navigator.serviceWorker.register(swUrl, { scope: '/' });
  } catch {
    // Without a worker the shop still runs online; the page syncs itself.
  }
}

async function watchUpdates(swUrl: string): Promise<void> {
  if (updates) return;
  try {
    updates = await import('./updates.js');
  } catch {
    // Its code could not load (offline before the worker kept it): the next page load watches.
    return;
  }
  await updates.watchUpdates(swUrl);
}

/** The browser's install offer, taken once by the install card (`install.ts`). */
export function takeInstallEvent(): BeforeInstallPromptEvent | null {
  const event = installEvent;
  installEvent = null;
  return event;
}

function installSnoozed(): boolean {
  try {
    const at = Number(localStorage.getItem(INSTALL_SNOOZE_KEY));
    return Number.isFinite(at) && at > 0 && Date.now() - at < INSTALL_SNOOZE_MS;
  } catch {
    return false;
  }
}

async function askPersistentStorage(): Promise<void> {
  const storage = navigator.storage;
  if (!storage?.persist) return;
  try {
    const persisted = (await storage.persisted()) || (await storage.persist());
    setPwaState({ persisted });
    await db.meta.put({ key: 'persisted', value: persisted });
  } catch {
    setPwaState({ persisted: false });
  }
}

/**
 * The online event can come a moment before requests get through (and a
 * server can be briefly down), so a failed sync while the browser says it is
 * online is tried again a few times with growing pauses.
 */
const RETRY_AFTER_MS = [1_000, 3_000, 10_000, 30_000];
let retries = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function syncFinished(ok: boolean): void {
  clearTimeout(retryTimer);
  if (ok) {
    retries = 0;
    return;
  }
  const delay = RETRY_AFTER_MS[retries];
  if (delay === undefined || !navigator.onLine) {
    retries = 0;
    return;
  }
  retries += 1;
  retryTimer = setTimeout(() => void requestSync(), delay);
}

let pageSync: Promise<void> | null = null;

/**
 * Asks for a catalogue sync now: the controlling worker does it; with no
 * worker in control the page does it itself (same code, same lock). The page
 * never stores images: only a worker can serve them offline, and the worker
 * stores the card images after its own sync (off the page's main thread).
 */
export async function requestSync(): Promise<void> {
  if (getPwaState().offline) return;
  const controller = 'serviceWorker' in navigator ? navigator.serviceWorker.controller : null;
  if (controller) {
    controller.postMessage({ type: 'SYNC_CATALOGUE' } satisfies PageMessage);
    return;
  }
  if (pageSync) return pageSync;
  pageSync = (async () => {
    try {
      const early = window as Window & { __catalogueFirstPage?: Promise<Response | null> };
      const firstPage = early.__catalogueFirstPage ?? null;
      early.__catalogueFirstPage = undefined;
      // The first page here (the first screen's products, from the request the HTML started), the
      // rest in a worker: on a phone, the page's main thread spent seconds in long tasks storing 10,000.
      const first = await syncCatalogue({ firstPage, maxPages: 1 });
      // Its starter is a chunk of its own, loaded once the first screen has its products: the first
      // screen's JavaScript budget is spent, and a repeat visit (a worker in control) never needs it.
      if (
        first.more &&
        !(await import('./sync-in-worker.js').then(
          (m) => m.syncInWorker(),
          () => false,
        ))
      ) {
        await syncCatalogue();
      }
      syncFinished(true);
    } catch {
      // Offline or server down: the screens keep showing the device's copy; the status shows the last sync.
      syncFinished(false);
    } finally {
      pageSync = null;
    }
  })();
  return pageSync;
}

/**
 * The page's half of the order outbox: while any order waits (queued, being
 * sent, or waiting for a sign-in), the page sender runs (online event,
 * becoming visible, a timer with back-off). It lives in the checkout's lazy
 * chunk and is loaded only then, so a shop with an empty outbox never
 * downloads it. It must work alone: Safari and Firefox have no Background Sync.
 * A payment in progress (its page died in the UPI app) starts it too, and the
 * sender starts the payments' resume, which asks the server what became of it.
 */
let outboxSender: Promise<void> | null = null;
function watchOutbox(): void {
  liveQuery(() =>
    db.outbox
      .where('state')
      .anyOf('queued', 'sending', 'attention')
      .count()
      .then((n) => n || db.payments.count()),
  ).subscribe({
    next: (waiting) => {
      if (!waiting || outboxSender) return;
      outboxSender = import('../checkout/page-sender.js')
        .then((m) => m.startPageSender())
        .catch(() => {
          // The chunk did not load (offline before it was precached): the next change tries again.
          outboxSender = null;
        });
    },
    error: () => undefined,
  });
}
