import { useSyncExternalStore } from 'react';
import { onSessionChange, type Session, sessionSnapshot } from '../../sw/session.js';

/**
 * The page's session, re-rendering when it changes in this tab or another. The same object
 * while the session is the same, so an effect may depend on it without running at every render.
 */
export function useSession(): Session | null {
  return useSyncExternalStore(onSessionChange, sessionSnapshot, () => null);
}
