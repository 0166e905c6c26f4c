// Static, not import(): on a first visit the page syncs at once, and a separate chunk would put
// one more round trip between the app's code and the first products (then their images, the LCP).
import { nextCursor, syncCatalogue } from '../../sw/catalogue-sync.js';
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

  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event) => {
      const data = event.data as WorkerMessage | null;
      if (data?.type === 'CATALOGUE_SYNCED') syncFinished(data.ok);
    });
  }

  // Never rejects: a failed sync is retried and shown by the status, not thrown.
  const firstSync = requestSync();
  // The rest waits for the page's load (later.ts): the persistent storage, the outbox's watch, the
  // worker's registration and updates, the periodic sync. None of it is needed to show the first
  // screen, so it is a chunk of its own, loaded then: in the entry it was first-screen code (about
  // 700 bytes of the budget), though alone it compresses about 300 bytes worse.
  afterLoad(
    () =>
      void import('./later.js').then(
        (m) => m.startLater({ swUrl: options.swUrl ?? '/sw.js', syncEveryMs, firstSync, requestSync }),
        // Its chunk did not arrive (the link dropped at that moment): the page's next load tries again.
        () => undefined,
      ),
  );
}

function afterLoad(run: () => void): void {
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
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
      // Its starter is a chunk of its own: the first screen's JavaScript budget is spent, and a repeat
      // visit (a worker in control) never needs it. It starts as soon as the first page says more
      // follows, so the worker's code loads while the page stores that page; the worker's run waits
      // for this one's lock, then resumes from the cursor it stored.
      let rest: Promise<boolean> | null = null;
      const inWorker = () =>
        (rest ??= import('./sync-in-worker.js').then(
          (m) => m.syncInWorker(),
          () => false,
        ));
      const firstRun = syncCatalogue({ firstPage, maxPages: 1, onMore: inWorker });
      // Sooner still: the HTML's request already has its headers, and a `Link: rel="next"` says more
      // follows, before this run has opened the database and read that page (this run asked for the
      // lock first, so the worker's run still waits for it).
      void firstPage?.then((response) => {
        if (response && nextCursor(response) !== null) inWorker().catch(() => undefined);
      });
      const first = await firstRun;
      if (first.more && !(await inWorker())) await syncCatalogue();
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
