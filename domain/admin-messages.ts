import { formatRupees } from './money.js';
import type { RefundKind, RefundStatus } from './refunds.js';

/** Cancelling an order paid online refunds what is left of the payment (`left`; unknown on the list). */
function cancelPaidConfirm(id: number, left?: number, paid?: number): string {
  return left === undefined || paid === undefined
    ? `Cancel order #${id}? It was paid online: the payment will be refunded in full.`
    : left === paid
      ? `Cancel order #${id}? It was paid online: the payment of ${formatRupees(paid)} will be refunded in full.`
      : `Cancel order #${id}? It was paid online: the ${formatRupees(left)} not refunded yet will be refunded, so all ${formatRupees(paid)} goes back.`;
}

/**
 * The admin area's own texts. The spec's texts stay in
 * `messages.ts`; these are ours, for what the spec does not word.
 */
export const adminMessages = {
  titleSuffix: (shop: string) => `${shop} Admin`,
  defaultTitle: 'Welcome',
  needsConnection:
    'This screen needs a connection. You are offline: nothing here is saved or queued until you are back online.',
  offlineBadge: 'Offline',
  sessionEnded: 'Your session has ended. Sign in again to continue: what you typed is kept.',
  signInAgain: 'Sign in again',
  signedInAgain: 'Signed in again. You can carry on.',
  unsavedChanges: 'You have unsaved changes. Leave this page and lose them?',
  categoryRenamed: 'Category renamed.',
  categoryDeleteConfirm: (name: string) =>
    `Delete the category "${name}"? Its products stay on sale under their other categories.`,
  bulkDeleteConfirm: (n: number) => `Are you sure you want to delete these ${n} products?`,
  bulkDeleted: (n: number) => `${n} products deleted.`,
  statusMoved: (id: number, status: string) => `Order #${id} is now ${status}.`,
  statusMoveConfirm: (id: number, status: string) => `Move order #${id} to "${status}"?`,
  // An account's unpaid open orders, cancelled in one step (an account holding slots it will not pay for).
  accountNotFound: (id: number) => `Account ${id} was not found.`,
  unpaidOrders: (n: number) => (n === 1 ? '1 unpaid open order' : `${n} unpaid open orders`),
  cancelUnpaidButton: (n: number) => (n === 1 ? 'Cancel its unpaid order' : `Cancel its ${n} unpaid orders`),
  cancelUnpaidConfirm: (n: number, email: string) =>
    `Cancel ${n === 1 ? 'the 1 unpaid open order' : `all ${n} unpaid open orders`} of ${email}? Their delivery slot places and coupons are given back, and the shopper is told. Paid orders are not touched.`,
  // Both buttons say what they do: nothing is a bare "Cancel".
  cancelUnpaidConfirmLabel: (n: number) => (n === 1 ? 'Yes, cancel it' : `Yes, cancel all ${n}`),
  cancelUnpaidKeepLabel: (n: number) => (n === 1 ? 'Keep it' : 'Keep them'),
  /** Beside the one-step cancel: why it is offered (an account holding places on one date). */
  unpaidOnOneDate: (n: number, of: number) =>
    n < of
      ? `${n} of them for one delivery date`
      : `${of === 2 ? 'both' : `all ${of}`} for one delivery date`,
  unpaidCancelled: (n: number) =>
    n === 0 ? 'No unpaid open orders to cancel.' : n === 1 ? '1 order cancelled.' : `${n} orders cancelled.`,
  /** The day's print, with how many slips it prints (cancelled orders are never among them). */
  printSlips: (n: number | undefined) =>
    n === undefined
      ? 'Print packing slips'
      : n === 1
        ? 'Print 1 slip'
        : n === 0
          ? 'No slips to print'
          : `Print ${n} slips`,
  noNotifications: 'No new orders since you last looked.',
  newOrders: (n: number) => (n === 1 ? '1 new order' : `${n} new orders`),
  noSearchResults: 'Nothing found.',
  imagesRequired: 'Please select an image.',
  imagesLimit: (n: number) => `At most ${n} images.`,
  imagesSaved: 'Images saved.',
  exportReady: (n: number) => `Exported ${n} orders.`,
  loadFailed: 'Could not load this screen. Please try again.',
  loading: 'Loading...',
  backupMade: (name: string) => `Backup made: ${name}.`,
  backupDownloaded: (name: string) => `Downloading ${name}.`,
  noBackups: 'No backups yet.',
  lastBackup: (ago: string) => `Last backup: ${ago}`,
  lastBackupNone: 'Last backup: none yet',
  // An order's online payment and its refunds (the rules and the server's refusals: domain/refunds.ts).
  providerName: (p: string) =>
    p === 'razorpay' ? 'Razorpay' : p === 'test' ? 'Test provider (no money moves)' : p,
  refundKind: {
    cancel: 'Full: order cancelled',
    partial: 'Part',
    unplaceable: 'Full: order could not be placed',
    late: 'Full: paid after the payment window closed',
  } satisfies Record<RefundKind, string>,
  refundState: { pending: 'In progress', processed: 'Processed', failed: 'Failed' } satisfies Record<
    RefundStatus,
    string
  >,
  /** A failed refund gave nothing back: said in words, not only in red. */
  refundFailedReason: (reason: string | null) => reason ?? 'Razorpay gave no reason.',
  refundableHint: (left: number) =>
    left === 0 ? 'Nothing is left to refund.' : `At most ${formatRupees(left)} can still be refunded.`,
  /** Cancelling an order paid online refunds what is left of the payment (`left`; unknown on the list). */
  cancelPaidConfirm,
  /**
   * The cancel dialog (the order's page and the list): the question, a yes that says what it does
   * ("Cancel and refund ₹1,689", or "Cancel the order" when no money was taken online) and a way
   * out that says it keeps the order, never a bare "Cancel". `refund`: what was paid online and
   * what is left to give back; null for Cash on Delivery.
   */
  cancelDialog: (id: number, refund: { left: number; paid: number } | null) => ({
    question: refund
      ? cancelPaidConfirm(id, refund.left, refund.paid)
      : `Cancel order #${id}? Its delivery slot place and any coupon are given back, and the shopper is told.`,
    yes: refund && refund.left > 0 ? `Cancel and refund ${formatRupees(refund.left)}` : 'Cancel the order',
    keep: 'Keep the order',
  }),
  // The dashboard's money block.
  moneyTitle: 'Money',
  paymentsWithoutOrder: 'Payments without an order',
  paymentsWithoutOrderWarn: 'Money was taken with no order and no refund: find it in the payment provider.',
  refundsPending: 'Refunds in progress',
  refundsFailed: 'Refunds failed',
  refundsFailedWarn:
    'The provider refused these refunds. Open each order: unless another refund replaced it, the money is still owed to the shopper.',
  refunds30: 'Refunds, last 30 days',
  refunds30Value: (n: number, amount: number) =>
    `${n === 1 ? '1 refund' : `${n} refunds`}, ${formatRupees(amount)}`,
  coupons30: 'Coupons, last 30 days',
  coupons30Value: (n: number, amount: number) =>
    `${n === 1 ? '1 order' : `${n} orders`}, ${formatRupees(amount)} off`,
} as const;
