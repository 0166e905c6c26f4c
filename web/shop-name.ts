/**
 * The shop's name for the first screen (the header, every tab's title) without waiting for
 * IndexedDB: the server writes the profile's name into each page's HTML
 * (`<meta name="application-name">`, api/pages), and the app keeps the last name it learned, from
 * there or from the catalogue feed's profile (web/hooks/useShopProfile.ts), for the offline shell
 * (the worker's plain `/index.html`, which has no such meta). A rename shows from the next page
 * load; kept this small because it is first-screen code.
 */
import { DEFAULT_SHOP_NAME } from '../domain/shop-name.js';

const KEY = 'shopName';

function read(): string {
  try {
    const meta = document.querySelector('meta[name="application-name"]')?.getAttribute('content');
    if (meta) localStorage.setItem(KEY, meta);
    const name = meta || localStorage.getItem(KEY) || DEFAULT_SHOP_NAME;
    // The worker's shell keeps the build's title; home sets none of its own (other screens do).
    if (!meta) document.title = name;
    return name;
  } catch {
    return DEFAULT_SHOP_NAME;
  }
}

let current = typeof document === 'undefined' ? DEFAULT_SHOP_NAME : read();

export function shopName(): string {
  return current;
}

/** The profile's name as the device learned it from the feed. */
export function learnShopName(name: string): void {
  if (!name || name === current) return;
  current = name;
  try {
    localStorage.setItem(KEY, name);
  } catch {
    // Without storage the name lives as long as the page.
  }
}
