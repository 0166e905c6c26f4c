/**
 * The page's offline layer after the page has loaded (started by start.ts): nothing here is needed
 * to show the first screen, so it waits for the page's load, in a chunk of its own.
 * - persistent storage, asked once;
 * - the order outbox's watch, which loads the page's sender when an order waits;
 * - the worker's registration, after the first sync and when idle, then its updates;
 * - the periodic catalogue sync and update check while the page is open and visible.
 */
import { liveQuery } from 'dexie';
import { db } from '../../sw/db.js';
import { setPwaState } from './pwa-state.js';

/** The update watch, once loaded (see register). */
let updates: typeof import('./updates.js') | null = null;

export function startLater({
  swUrl,
  syncEveryMs,
  firstSync,
  requestSync,
}: {
  swUrl: string;
  syncEveryMs: number;
  firstSync: Promise<void>;
  /** start.ts's: the worker's sync, or the page's own without one. */
  requestSync: () => Promise<void>;
}): void {
  void askPersistentStorage();
  watchOutbox();
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    // After the page's own first sync (a first visit: the products, then their images, are what the
    // shopper waits for) and when the main thread is idle: the new worker's install downloads every
    // screen's code and the card images, which would share a slow link with them.
    void firstSync.then(() => whenIdle(() => void register(swUrl)));
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
 * The page's half of the order outbox: while any order waits (queued, being
 * sent, or waiting for a sign-in), the page sender runs (online event,
 * becoming visible, a timer with back-off). It lives in the checkout's lazy
 * chunk and is loaded only then, so a shop with an empty outbox never
 * downloads it. It must work alone: Safari and Firefox have no Background Sync.
 * A payment in progress (its page died in the UPI app) starts it too, and the
 * sender starts the payments' resume, which asks the server what became of it; so does a request
 * waiting in the request queue (a cancel asked for offline: `sw/requests.ts`), which the same
 * pass sends.
 */
let outboxSender: Promise<void> | null = null;
function watchOutbox(): void {
  liveQuery(() =>
    db.outbox
      .where('state')
      .anyOf('queued', 'sending', 'attention')
      .count()
      .then((n) => n || db.payments.count())
      .then((n) => n || db.requests.count()),
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
