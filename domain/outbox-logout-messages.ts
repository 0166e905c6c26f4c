/**
 * What the account menu asks before logging out while orders wait in the outbox. Apart from
 * `outbox-messages.ts` (the shell's badge and notice, on every first screen) because only the
 * lazy account menu says it.
 */
export const outboxLogoutMessages = {
  title: 'Log out?',
  waiting: (n: number) =>
    n === 1
      ? '1 order is still waiting to be sent; it will be sent when you log in again.'
      : `${n} orders are still waiting to be sent; they will be sent when you log in again.`,
  confirm: 'Log out',
  stay: 'Stay logged in',
} as const;
