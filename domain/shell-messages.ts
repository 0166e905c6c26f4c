/**
 * The app shell's own words (not the spec's): what the error boundary around
 * the screens says. A file of its own because the shell is in the first
 * bundle, where every byte of an imported module is paid on every first visit.
 */
export const shellMessages = {
  screenNotOnDevice: 'This page has not been saved on this device yet, and you are offline.',
  retryWhenOnline: 'It can load once you are back online.',
  screenLoadFailed: 'This page could not be loaded.',
  screenFailed: 'Something went wrong on this page.',
  tryAgain: 'Try again',
  reload: 'Reload',
  home: 'Go to the home page',
} as const;
