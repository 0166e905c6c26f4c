/**
 * What the PWA plumbing knows that screens show: offline or not, whether a
 * new version waits, whether the app can be installed. A tiny store outside
 * React (the service worker's events arrive before and outside any render),
 * read with `usePwaState()`.
 */
import { useSyncExternalStore } from 'react';

export interface PwaState {
  offline: boolean;
  /** A new worker is installed and waiting for the shopper's agreement. */
  updateReady: boolean;
  /** The browser offered installation (beforeinstallprompt) and the shopper has not answered. */
  canInstall: boolean;
  /** iOS Safari outside the installed app: it has no install prompt, so we explain the steps. */
  showIosInstallHint: boolean;
  /** The answer of navigator.storage.persist(), or null before asking / where unsupported. */
  persisted: boolean | null;
}

let state: PwaState = {
  offline: typeof navigator !== 'undefined' && navigator.onLine === false,
  updateReady: false,
  canInstall: false,
  showIosInstallHint: false,
  persisted: null,
};
const listeners = new Set<() => void>();

export function getPwaState(): PwaState {
  return state;
}

export function setPwaState(patch: Partial<PwaState>): void {
  const next = { ...state, ...patch };
  if ((Object.keys(patch) as (keyof PwaState)[]).every((k) => next[k] === state[k])) return;
  state = next;
  for (const l of listeners) l();
}

export function subscribePwaState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribePwaState, getPwaState, getPwaState);
}
