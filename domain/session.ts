/**
 * Reading a session token on the device (spec section 6). The device never
 * verifies the signature (it has no key): it only decides whether a token is
 * worth sending. The server decides everything else and answers 401 when the
 * device was wrong.
 */
import { roleOf } from './roles.js';

export interface TokenClaims {
  /** Expiry in ms since epoch, or null when the token carries no `exp`. */
  expiresAt: number | null;
  role: string | null;
  raw: Record<string, unknown>;
}

function base64UrlDecode(part: string): string | null {
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/** The claims of a JWT, or null when it is not one (the spec's "undecodable"). */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  const json = base64UrlDecode(parts[1]);
  if (json === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const claims = raw as Record<string, unknown>;
  const exp = claims.exp;
  if (exp !== undefined && (typeof exp !== 'number' || !Number.isFinite(exp))) return null;
  return { expiresAt: typeof exp === 'number' ? exp * 1000 : null, role: roleOf(claims), raw: claims };
}

/** The spec's login guard: a token that decodes and whose `exp` x 1000 is still ahead of now. */
export function isTokenLive(token: string | null | undefined, now: number = Date.now()): boolean {
  const claims = decodeToken(token);
  if (!claims) return false;
  return claims.expiresAt === null || claims.expiresAt > now;
}
