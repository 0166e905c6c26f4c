/**
 * The shop's name for the first screen (the header, every tab's title) without waiting for
 * IndexedDB: the server writes the profile's name into each page's HTML
 * (`<meta name="application-name">`, api/pages), and the app keeps the last name it learned, from
 * there or from the catalogue feed's profile, for the offline shell (the worker's plain
 * `/index.html`, which has no such meta). A rename reaches an open tab with the next sync.
 */
import { useSyncExternalStore } from 'react';
import { SITE_NAME } from '../domain/page-head.js';

const KEY = 'shopName';
const listeners = new Set<() => void>();

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function fromPage(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector('meta[name="application-name"]')?.getAttribute('content') || null;
}

let current = fromPage() ?? stored() ?? SITE_NAME;
if (current !== stored()) remember(current);

function remember(name: string): void {
  try {
    localStorage.setItem(KEY, name);
  } catch {
    // Without storage the name lives as long as the page.
  }
}

export function shopName(): string {
  return current;
}

/** The profile's name as the device learned it (web/hooks/useShopProfile.ts). */
export function learnShopName(name: string): void {
  if (!name || name === current) return;
  current = name;
  remember(name);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useShopName(): string {
  return useSyncExternalStore(subscribe, shopName, shopName);
}
