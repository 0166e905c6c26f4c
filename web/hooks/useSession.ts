import { useSyncExternalStore } from 'react';
import { currentSession, onSessionChange, type Session, storedToken } from '../../sw/session.js';

/**
 * The page's session, re-rendering when it changes in this tab or another.
 * The snapshot is the stored token (a string, so React compares it cheaply);
 * the session is derived from it.
 */
export function useSession(): Session | null {
  const token = useSyncExternalStore(onSessionChange, storedToken, () => null);
  return token ? currentSession() : null;
}
