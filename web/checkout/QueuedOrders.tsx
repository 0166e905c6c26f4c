/**
 * The outbox's orders for My Orders: queued, sending, needing attention, and
 * sent ones the server's history does not list yet (built with the checkout).
 */
export function QueuedOrders(_props: { userId: number; knownOrderIds: ReadonlySet<number> }) {
  return null;
}
