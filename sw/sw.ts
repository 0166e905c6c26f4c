/// <reference lib="webworker" />
/**
 * The shop's service worker. Boring on purpose (see sw/README.md): precache
 * the build, answer navigations with the cached shell, take updates only when
 * the shopper agreed. The catalogue itself is not in the Cache API but in
 * IndexedDB (sw/db.ts), filled from the delta feed; product images too.
 */
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { isVideo, PLACEHOLDER_IMAGE } from '../domain/catalogue-media.js';
import { checkoutMessages } from '../domain/checkout-messages.js';
import { formatRupees } from '../domain/money.js';
import { SyncError, syncCatalogue } from './catalogue-sync.js';
import { db } from './db.js';
import { imageOwner, keepImage, storeThumbnails } from './images.js';
import {
  type OrderMovedMessage,
  OUTBOX_SYNC_TAG,
  type PageMessage,
  SYNC_TAG,
  type WorkerMessage,
} from './messages.js';
import { fallbackText, type OrderUpdate, readOrderUpdate, refreshOrderCopies } from './order-updates.js';
import { defaultEnv, sendDue } from './outbox.js';
import type { OutboxRow } from './outbox-row.js';
import { markAnnounced } from './outbox-shopper.js';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// On the first install there is no older worker, so taking the open page at
// once lets its images and catalogue work offline without a reload. An update
// only activates after the shopper agreed (SKIP_WAITING), and the page reloads then.
clientsClaim();

// Every page route is the single-page shell; the API and media are never the shell.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/media\//, /^\/sw\.js$/],
  }),
);

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    url.pathname.startsWith('/media/') &&
    request.method === 'GET' &&
    !isVideo(url.pathname),
  ({ url, request }) => serveImage(url.pathname, request),
);

/**
 * From IndexedDB when stored; else the network, stored on the way; else
 * another stored width of the same image (a `srcset` may pick the 640 px
 * variant on a dense screen while the device keeps the 320 px one); else the
 * placeholder.
 */
async function serveImage(path: string, request: Request): Promise<Response> {
  const stored = await db.images.get(path).catch(() => undefined);
  if (stored) return fromStore(stored.blob);
  try {
    const response = await fetch(request);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('image/')) return (await otherWidth(path)) ?? placeholder();
    const blob = await response.clone().blob();
    const owner = await imageOwner(path).catch(() => null);
    // Images of unknown owners (an admin preview) count as page images, so they fall out of the bound.
    keepImage(path, blob, owner?.productID ?? 0, owner?.kind ?? 'src').catch(() => undefined);
    return response;
  } catch {
    return (await otherWidth(path)) ?? placeholder();
  }
}

function fromStore(blob: Blob): Response {
  return new Response(blob, {
    headers: {
      'content-type': blob.type || 'image/webp',
      'cache-control': 'no-cache',
      'x-served-from': 'indexeddb',
    },
  });
}

const VARIANT = /^(.*)-(\d+)\.(webp|avif|jpe?g|png)$/i;

/** The widest stored variant of the same image (`/media/<name>-<width>.<ext>`), if any. */
async function otherWidth(path: string): Promise<Response | null> {
  const m = VARIANT.exec(path);
  if (!m) return null;
  const prefix = `${m[1]}-`;
  const rows = await db.images
    .where('url')
    .startsWith(prefix)
    .filter((row) => VARIANT.exec(row.url)?.[1] === m[1])
    .toArray()
    .catch(() => []);
  const widest = rows.sort((a, b) => Number(VARIANT.exec(b.url)?.[2]) - Number(VARIANT.exec(a.url)?.[2]))[0];
  return widest ? fromStore(widest.blob) : null;
}

const FALLBACK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#eee"/></svg>';

async function placeholder(): Promise<Response> {
  const cached = await matchPrecache(PLACEHOLDER_IMAGE);
  return cached ?? new Response(FALLBACK_SVG, { headers: { 'content-type': 'image/svg+xml' } });
}

/**
 * A sync whenever one is asked for (one runs at a time; see syncCatalogue), then the card images of what
 * changed. `images: 'after'` answers once the catalogue is in and leaves the images outside the event: an
 * event still open holds back an update the shopper accepted (Chromium activates a waiting worker only when
 * the old one has no event in flight), and images can take minutes on a slow link.
 */
async function refresh(images: 'within' | 'after' = 'within'): Promise<WorkerMessage> {
  try {
    const result = await syncCatalogue();
    const stored = storeThumbnails().catch(() => 0);
    if (images === 'within') await stored;
    return { type: 'CATALOGUE_SYNCED', ok: true, notModified: result.notModified, error: null };
  } catch (err) {
    const offline = err instanceof SyncError && err.offline;
    return {
      type: 'CATALOGUE_SYNCED',
      ok: false,
      notModified: false,
      error: offline ? 'offline' : err instanceof Error ? err.message : String(err),
    };
  }
}

/** A worker start with a stale catalogue syncs; one started a moment ago by a fetch does not. */
const START_SYNC_AFTER_MS = 60_000;
async function refreshIfStale(): Promise<void> {
  const row = await db.meta.get('lastSyncedAt');
  const last = typeof row?.value === 'number' ? row.value : 0;
  if (Date.now() - last > START_SYNC_AFTER_MS) await refresh();
}

self.addEventListener('install', (event) => {
  // Fill the catalogue before the first activation, so the shop works offline right after the
  // first visit. A failure (offline, server down) must not fail the install: the shell still works.
  event.waitUntil(syncCatalogue({ timeoutMs: 20_000 }).catch(() => undefined));
});

self.addEventListener('activate', () => {
  // Not passed to waitUntil: fetches wait for an activating worker, and images can take a while.
  void refresh();
});

self.addEventListener('message', (event) => {
  const data = event.data as PageMessage | null;
  if (!data || typeof data !== 'object') return;
  if (data.type === 'SKIP_WAITING') {
    void self.skipWaiting();
  } else if (data.type === 'SYNC_CATALOGUE') {
    const source = event.source;
    event.waitUntil(
      refresh('after').then((answer) => {
        source?.postMessage(answer);
      }),
    );
  }
});

interface TaggedSyncEvent extends ExtendableEvent {
  readonly tag: string;
}
// Periodic Background Sync (installed apps in Chromium) and one-off Background Sync share the tag.
for (const type of ['periodicsync', 'sync']) {
  self.addEventListener(type, (event) => {
    const e = event as TaggedSyncEvent;
    if (e.tag === SYNC_TAG) e.waitUntil(refresh());
    else if (e.tag === OUTBOX_SYNC_TAG) e.waitUntil(sendOutboxForSync());
  });
}

/**
 * The worker's sender of the order outbox (see sw/outbox.ts; the page has its
 * own, and the Web Lock keeps them from sending at once). It runs on start
 * and on the Background Sync tag `outbox` where the browser has it.
 */
function sendOutbox() {
  return sendDue(defaultEnv({ onPlaced: announce }));
}

/** Rejects while orders (or requests) still wait for the network, so the browser fires the sync again later. */
async function sendOutboxForSync(): Promise<void> {
  const result = await sendOutbox();
  if (result.nextWakeAt !== null) throw new Error('orders still queued');
}

/**
 * "Order #N placed", when no page of the shop is open to show it and the
 * shopper allowed notifications (asked when the order was queued).
 */
async function announce(row: OutboxRow): Promise<void> {
  if (row.announced || !row.placed) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.length) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  await self.registration.showNotification(checkoutMessages.notificationTitle(row.placed.orderID), {
    body: checkoutMessages.notificationBody(formatRupees(row.placed.totalAmount)),
    tag: `order-${row.key}`,
    icon: '/icons/icon-192.png',
    data: { url: `/order-success?order=${encodeURIComponent(row.key)}` },
  });
  await markAnnounced(row.key);
}

/**
 * An order moved (the server's queue is api/push/README.md). Every push shows a
 * notification (`userVisibleOnly`), one per order by its tag, `renotify` so the newer status
 * replaces the older one and still sounds. The device's copies of the order are refreshed and
 * open pages told, so the order page and My Orders show the move at once.
 */
self.addEventListener('push', (event) => {
  let update: OrderUpdate | null = null;
  try {
    update = readOrderUpdate(event.data?.json());
  } catch {
    // Not JSON: still shown, with the general text.
  }
  const text = fallbackText(update);
  const shown = self.registration.showNotification(text.title, {
    body: text.body,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    tag: update?.tag ?? 'order-update',
    renotify: true,
    data: { url: update?.url ?? '/my-orders' },
  } as NotificationOptions);
  // A notice with no order (orderID 0) is only shown: there is no order to refresh or announce.
  const refreshed = update?.orderID
    ? refreshOrderCopies(update)
        .catch(() => undefined)
        .then(() => tellPages(update))
    : Promise.resolve();
  event.waitUntil(Promise.all([shown, refreshed]));
});

async function tellPages(update: OrderUpdate): Promise<void> {
  const message: OrderMovedMessage = { type: 'ORDER_MOVED', orderID: update.orderID };
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage(message);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? '/my-orders';
  const opened = openOnShop(url);
  try {
    event.waitUntil(opened);
  } catch {
    // A click dispatched by a test or DevTools is not the browser's own and cannot be extended.
  }
});

/**
 * Opens or focuses the shop on `path`: a window already there is focused; another window of the
 * shop is taken there; with none open, a new one opens. Only paths of this shop.
 */
async function openOnShop(path: string): Promise<void> {
  const origin = self.location.origin;
  const asked = new URL(path, origin);
  const href = asked.origin === origin ? asked.href : `${origin}/my-orders`;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const there = windows.find((w) => w.url === href);
  const other = there ?? windows.find((w) => w.focused) ?? windows[0];
  if (!other) {
    await self.clients.openWindow(href);
    return;
  }
  const target = there ?? (await other.navigate(href).catch(() => null));
  if (!target) {
    await self.clients.openWindow(href);
    return;
  }
  // Focusing needs the click's user activation; without it (a synthetic click) the window still moved.
  await target.focus().catch(() => undefined);
}

void refreshIfStale().catch(() => undefined);
// A worker started by anything (a fetch, a push of the browser) sends what waits: a tab closed offline
// leaves its orders to the next start of either sender.
void sendOutbox().catch(() => undefined);
