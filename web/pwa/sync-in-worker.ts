import type { WorkerMessage } from '../../sw/messages.js';

/**
 * The rest of a sync in a dedicated worker (`sw/sync-worker.ts`), resuming from the stored cursor.
 * Resolves true when the worker synced, false when it could not run (no Worker, its script did not
 * load): the page then goes on itself. Rejects when the sync itself failed, as a page run would.
 */
export function syncInWorker(): Promise<boolean> {
  if (typeof Worker === 'undefined') return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('../../sw/sync-worker.ts', import.meta.url), { name: 'catalogue-sync' });
    } catch {
      resolve(false);
      return;
    }
    worker.addEventListener('message', (event) => {
      const data = event.data as WorkerMessage | null;
      if (data?.type !== 'CATALOGUE_SYNCED') return;
      worker.terminate();
      if (data.ok) resolve(true);
      else reject(new Error(data.error ?? 'sync failed'));
    });
    worker.addEventListener('error', (event) => {
      // Its script failed to load or run before any answer; the page's own sync resumes from the cursor.
      event.preventDefault();
      worker.terminate();
      resolve(false);
    });
  });
}
