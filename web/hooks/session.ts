/**
 * Whether a shopper is signed in. The accounts screens (a later issue) store
 * the session under the spec's `token` key; until then this only reads it, so
 * the cart's checkout action already follows the spec's rule.
 */
export function hasSession(): boolean {
  try {
    return Boolean(globalThis.localStorage?.getItem('token'));
  } catch {
    return false;
  }
}
