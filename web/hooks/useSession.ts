import { useMemo, useSyncExternalStore } from 'react';
import { currentSession, onSessionChange, type Session, storedToken } from '../../sw/session.js';

/**
 * The page's session, re-rendering when it changes in this tab or another. The snapshot is the
 * stored token (a string, so React compares it cheaply); the session is derived from it once per
 * token, so it is the same object while the session is the same and an effect may depend on it
 * (a new object at every render made the checkout fetch the saved recipients in a loop).
 */
export function useSession(): Session | null {
  const token = useSyncExternalStore(onSessionChange, storedToken, () => null);
  return useMemo(() => (token ? currentSession() : null), [token]);
}
