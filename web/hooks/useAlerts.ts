/**
 * The in-page alert region (a deliberate fix of the spec's `window.alert`):
 * screens call `notify(text)` with the spec's texts; the region announces
 * them to screen readers (role=status, or role=alert for errors) and lets the
 * shopper dismiss them.
 */
import { createContext, useContext } from 'react';

/** `announce`: said to screen readers only, for news already shown on the screen another way (a popup). */
export type AlertKind = 'info' | 'success' | 'error' | 'announce';
export interface AlertItem {
  id: number;
  text: string;
  kind: AlertKind;
}
export type Notify = (text: string, kind?: AlertKind) => void;

/** What a step tells the shopper when it is done, and how (`notify(said.message, said.tone)`). */
export interface Said {
  message: string;
  tone: Exclude<AlertKind, 'announce'>;
}

export const AlertsContext = createContext<Notify>(() => {
  // Outside the provider (a screen rendered alone in a test) messages have nowhere to go.
});

export function useNotify(): Notify {
  return useContext(AlertsContext);
}
