/**
 * The shopper's delivery pincode, remembered on the device: the header's chip shows it, the product
 * page's "Check delivery" answers for it and the checkout fills its address with it. One key in
 * localStorage (read synchronously, so the first render already shows it, online or not) and one
 * set of listeners, so a change anywhere (or in another tab) re-renders every reader at once.
 *
 * Only a valid pincode is kept: a stored value that is not one (edited by hand, or written by an
 * older page) reads as none rather than being shown as a promise.
 *
 * The header imports this module, so it is on the first screen: every byte here is paid by every
 * first visit (keep it small and free of heavy imports).
 */
import { useSyncExternalStore } from 'react';
import { isValidPincode } from '../../domain/pincode.js';

export const PINCODE_KEY = 'deliveryPincode';

const listeners = new Set<() => void>();

/** The saved pincode, or null when none (or an invalid one) is saved. */
export function readPincode(): string | null {
  try {
    const value = localStorage.getItem(PINCODE_KEY);
    return value && isValidPincode(value) ? value : null;
  } catch {
    // No storage here (a worker, a browser refusing it): nothing is saved.
    return null;
  }
}

/**
 * Saves the pincode (null forgets it) and tells every reader. An invalid pincode is not saved: the
 * callers validate first and show their own message, so this only guards the stored value.
 */
export function savePincode(pincode: string | null): void {
  if (pincode !== null && !isValidPincode(pincode)) return;
  try {
    if (pincode) localStorage.setItem(PINCODE_KEY, pincode);
    else localStorage.removeItem(PINCODE_KEY);
  } catch {
    // Storage full or refused (private mode): the pincode is simply not remembered.
    return;
  }
  for (const l of listeners) l();
}

/**
 * Calls the listener when the saved pincode may have changed, in this tab or another (any storage
 * change: the readers compare the pincode itself, so another key's change re-renders nothing).
 */
export function onPincodeChange(listener: () => void): () => void {
  listeners.add(listener);
  addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    removeEventListener('storage', listener);
  };
}

/** The saved pincode and its setter, re-rendering whenever it changes anywhere. */
export function usePincode(): [string | null, (pincode: string | null) => void] {
  return [useSyncExternalStore(onPincodeChange, readPincode, () => null), savePincode];
}
