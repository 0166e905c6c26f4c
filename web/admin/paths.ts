/**
 * The admin area's paths, in the first bundle only as this list: the shell
 * uses it to leave out the storefront's header and footer (the admin layout
 * has its own) without loading any admin code. `routes.tsx` registers
 * exactly these (the two with an id as `/:id`).
 */
export const ADMIN_PATHS = [
  '/dashboard',
  '/add-new-category',
  '/add-product',
  '/category-list',
  '/product-list',
  '/all-admin-orders',
  '/edit-products',
  '/admin-orders',
] as const;

/** The paths that take an id (`/edit-products/:id`, `/admin-orders/:id`); the others take none. */
export const ADMIN_ID_PATHS: readonly (typeof ADMIN_PATHS)[number][] = ['/edit-products', '/admin-orders'];

export function isAdminPath(pathname: string): boolean {
  return ADMIN_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
