/**
 * The PWA's own texts (offline layer); the spec has no offline mode, so none are its words.
 * Kept apart from `messages.ts` so the status bar on the first screen does not pull in every message.
 */
export const pwaMessages = {
  offline: 'You are offline. Showing the shop saved on this device.',
  catalogueSynced: 'Catalogue synced',
} as const;
