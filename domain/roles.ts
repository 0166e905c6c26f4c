/**
 * Roles as the spec's tokens carry them. The old client read the role from the
 * long claim URI or from a plain `role` claim, compared after trimming and
 * lower-casing; "1" is the admin (manufacturer). Both claims are issued.
 */
export const ROLE_CLAIM = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role';
export const ADMIN_ROLE = '1';
export const SHOPPER_ROLE = '0';

export function roleOf(claims: Record<string, unknown>): string | null {
  const raw = claims[ROLE_CLAIM] ?? claims.role;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim().toLowerCase() : null;
}

export function isAdmin(role: string | null | undefined): boolean {
  return (role ?? '').trim().toLowerCase() === ADMIN_ROLE;
}
