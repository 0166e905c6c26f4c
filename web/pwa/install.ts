import { setPwaState } from './pwa-state.js';
import { INSTALL_SNOOZE_KEY, takeInstallEvent } from './start.js';

/**
 * The install card's actions (PwaCards.tsx, a lazy chunk): the browser's prompt, and "Not now",
 * which snoozes the offer (start.ts reads the snooze when the browser offers again); and when the
 * card may show at all.
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

const LOOKED_KEY = 'pwaLookedAround';
let lookedAround = false;

/**
 * Whether the install offer may show: only in the shop (never in the admin area, which an admin
 * opens to work, not to install a shop), and only once the shopper has looked around: a second
 * page of this visit, or something in the cart. A card before the first screen is even read asks
 * a stranger for a commitment; after a look around, it is an offer to someone interested.
 * `movedOn`: the shopper followed a link within the shop (a redirect, such as / to /home, is not
 * one). Kept for the tab (sessionStorage), so Back to the first page and a reload keep it.
 */
export function installOfferWanted(inShop: boolean, movedOn: boolean, cartLines: number): boolean {
  if (!lookedAround) {
    try {
      lookedAround = sessionStorage.getItem(LOOKED_KEY) === '1';
    } catch {
      // No storage: this page's memory only.
    }
  }
  if (!lookedAround && (movedOn || cartLines > 0)) {
    lookedAround = true;
    try {
      sessionStorage.setItem(LOOKED_KEY, '1');
    } catch {
      // As above.
    }
  }
  return inShop && lookedAround;
}
