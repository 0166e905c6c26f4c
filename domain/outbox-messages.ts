/**
 * The shell's outbox texts (header badge, notice). A module of their own: the
 * header is in the first bundle, and a module shared with the checkout's lazy
 * chunks would be placed there whole (the checkout's whole catalogue of texts).
 */
export const outboxShellMessages = {
  badgeLabel: (n: number) => `${n} ${n === 1 ? 'order' : 'orders'} waiting to be sent`,
  noticeAttention: (n: number) =>
    n === 1
      ? 'An order needs your attention before it can be placed.'
      : `${n} orders need your attention before they can be placed.`,
  noticeReview: 'Review order',
} as const;
