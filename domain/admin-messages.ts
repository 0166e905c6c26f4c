/**
 * The admin area's own texts. The spec's texts stay in
 * `messages.ts`; these are ours, for what the spec does not word.
 */
export const adminMessages = {
  titleSuffix: 'Bakery & Blooms Admin',
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
  // The dialog's own way out is labelled Cancel: the yes says what it does.
  cancelUnpaidConfirmLabel: (n: number) => (n === 1 ? 'Yes, cancel it' : `Yes, cancel all ${n}`),
  unpaidCancelled: (n: number) =>
    n === 0 ? 'No unpaid open orders to cancel.' : n === 1 ? '1 order cancelled.' : `${n} orders cancelled.`,
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
} as const;
