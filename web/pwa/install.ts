import { setPwaState } from './pwa-state.js';
import { INSTALL_SNOOZE_KEY, takeInstallEvent } from './start.js';

/**
 * The install card's actions (PwaCards.tsx, a lazy chunk): the browser's prompt, and "Not now",
 * which snoozes the offer (start.ts reads the snooze when the browser offers again).
 */
export async function install(): Promise<void> {
  const event = takeInstallEvent();
  if (!event) return;
  setPwaState({ canInstall: false });
  await event.prompt();
  const { outcome } = await event.userChoice;
  if (outcome === 'dismissed') snoozeInstall();
}

export function dismissInstall(): void {
  snoozeInstall();
  setPwaState({ canInstall: false, showIosInstallHint: false });
}

function snoozeInstall(): void {
  try {
    localStorage.setItem(INSTALL_SNOOZE_KEY, String(Date.now()));
  } catch {
    // Private mode: the offer comes back next visit, which is acceptable.
  }
}
