/**
 * The shopper's delivery pincode, remembered on the device: the header's chip shows it, the product
 * page's "Check delivery" answers for it and the checkout fills its address with it. One key in
 * localStorage (read synchronously, so the first render already shows it, online or not) and one
 * set of listeners, so a change anywhere (or in another tab) re-renders every reader at once.
 *
 * Only a valid pincode is kept: a stored value that is not one (edited by hand, or written by an
 * older page) reads as none rather than being shown as a promise.
 *
 * This module is on the first screen (the header imports it): keep it free of heavy imports.
 */
import { useSyncExternalStore } from 'react';
import { isValidPincode } from '../../domain/delivery.js';

export const PINCODE_KEY = 'deliveryPincode';

type Listener = () => void;
const listeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The saved pincode, or null when none (or an invalid one) is saved. */
export function readPincode(): string | null {
  try {
    const value = storage()?.getItem(PINCODE_KEY) ?? null;
    return value !== null && isValidPincode(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Saves the pincode (null forgets it) and tells every reader. An invalid pincode is not saved: the
 * callers validate first and show their own message, so this only guards the stored value.
 */
export function savePincode(pincode: string | null): void {
  const value = pincode?.trim() ?? null;
  if (value !== null && !isValidPincode(value)) return;
  if (value === readPincode()) return;
  try {
    if (value === null) storage()?.removeItem(PINCODE_KEY);
    else storage()?.setItem(PINCODE_KEY, value);
  } catch {
    // Storage full or refused (private mode): the pincode is simply not remembered.
    return;
  }
  for (const l of [...listeners]) l();
}

/** Calls the listener when the saved pincode changes, in this tab or another. */
export function onPincodeChange(listener: Listener): () => void {
  listeners.add(listener);
  const fromOtherTab = (e: StorageEvent) => {
    if (e.key === null || e.key === PINCODE_KEY) listener();
  };
  globalThis.addEventListener?.('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', fromOtherTab);
  };
}

/** The saved pincode and its setter, re-rendering whenever it changes anywhere. */
export function usePincode(): [string | null, (pincode: string | null) => void] {
  const pincode = useSyncExternalStore(onPincodeChange, readPincode, () => null);
  return [pincode, savePincode];
}
