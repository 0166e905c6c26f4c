/**
 * The outbox in the shell: a header badge while orders wait, and a notice on
 * every screen while one needs the shopper (built with the checkout).
 */
export function OutboxBadge() {
  return null;
}
export function OutboxNotice() {
  return null;
}
