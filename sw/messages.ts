/**
 * Messages between the page and the worker. `SKIP_WAITING` is the one
 * workbox-window's `messageSkipWaiting()` sends; the page sends it only after
 * the shopper chose Reload on "A new version is ready".
 */
export type PageMessage = { type: 'SKIP_WAITING' } | { type: 'SYNC_CATALOGUE' };

export interface WorkerMessage {
  type: 'CATALOGUE_SYNCED';
  ok: boolean;
  notModified: boolean;
  /** 'offline' when the network failed, the reason otherwise, null on success. */
  error: string | null;
}

/** The tag of the periodic (and one-off) background sync that refreshes the catalogue. */
export const SYNC_TAG = 'catalogue-sync';

/** The one-off Background Sync tag the page registers when an order waits; the worker sends the outbox on it. */
export const OUTBOX_SYNC_TAG = 'outbox';

/**
 * The worker to open pages when a push says an order moved: the order page and My
 * Orders refresh at once instead of at their next poll.
 */
export interface OrderMovedMessage {
  type: 'ORDER_MOVED';
  orderID: number;
}
