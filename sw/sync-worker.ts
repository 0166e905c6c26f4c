/// <reference lib="webworker" />
/**
 * A dedicated worker that finishes a first visit's catalogue sync off the page's main thread.
 * The page stores the feed's first page itself, for the first screen, and starts this
 * worker for the rest: parsing a big catalogue and cloning it into IndexedDB would cost the page's
 * main thread seconds of long tasks on a phone. No service worker can take it yet: a first visit
 * registers one only after the catalogue is in, so that its precache does not share the phone's
 * link with the feed. The run resumes from the cursor the page stored, under the same Web Lock.
 */
import { SyncError, syncCatalogue } from './catalogue-sync.js';
import type { WorkerMessage } from './messages.js';

declare const self: DedicatedWorkerGlobalScope;

syncCatalogue().then(
  (result) =>
    self.postMessage({
      type: 'CATALOGUE_SYNCED',
      ok: true,
      notModified: result.notModified,
      error: null,
    } satisfies WorkerMessage),
  (err: unknown) => {
    const offline = err instanceof SyncError && err.offline;
    self.postMessage({
      type: 'CATALOGUE_SYNCED',
      ok: false,
      notModified: false,
      error: offline ? 'offline' : err instanceof Error ? err.message : String(err),
    } satisfies WorkerMessage);
  },
);
