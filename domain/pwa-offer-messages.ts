/**
 * The PWA's update and install offers (see pwa-messages.ts). A module of their own: their cards
 * are a lazy chunk (web/pwa/PwaCards.tsx), and a module goes whole into the first chunk that imports it.
 */
export const pwaOfferMessages = {
  updateReady: 'A new version is ready',
  updateReload: 'Reload',
  updateLater: 'Later',
  installOffer: (shop: string) => `Install ${shop} for quick access, even offline.`,
  installButton: 'Install app',
  installLater: 'Not now',
  iosInstallSteps: 'To install this app, tap the Share button, then Add to Home Screen.',
  iosInstallDone: 'Got it',
} as const;
