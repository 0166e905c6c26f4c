import type { OrderRequestInput, PlacedOrder } from '../domain/orders.js';

/**
 * An order in the device's outbox (Dexie table `outbox`, keyed by its
 * idempotency key). The row format carries `v`: a new app version that
 * changes it upgrades old rows on read, because an update can land while
 * orders wait. The state machine that moves rows lives in `sw/outbox.ts`.
 */
export const OUTBOX_ROW_VERSION = 1;

export type OutboxState = 'queued' | 'sending' | 'attention' | 'sent' | 'cancelled';

export interface OutboxRow {
  v: number;
  /** The Idempotency-Key: a UUID made when the order is first stored, resent unchanged until a definite answer. */
  key: string;
  /** The account that made it; only that account's session sends it. */
  userId: number;
  email: string;
  state: OutboxState;
  request: OrderRequestInput;
  createdAt: number;
  /** Failed attempts so far (drives the back-off). */
  attempts: number;
  /** Not before this time (ms since epoch). */
  nextAttemptAt: number;
  /** The server's order once placed. */
  placed: PlacedOrder | null;
  /** What the shopper must decide, with the server's envelope, while state is 'attention'. */
  problem: { status: number; message: string; data: unknown } | null;
  updatedAt: number;
}
