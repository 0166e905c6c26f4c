/**
 * Whether a shopper is signed in. The accounts screens (a later issue) store
 * the session under the spec's `token` key; until then this only reads it, so
 * the cart's checkout action already follows the spec's rule.
 */
export function hasSession(): boolean {
  return Boolean(storedToken());
}

/** The session token under the spec's `token` key; null where storage is absent or refused. */
export function storedToken(): string | null {
  try {
    return globalThis.localStorage?.getItem('token') ?? null;
  } catch {
    return null;
  }
}
