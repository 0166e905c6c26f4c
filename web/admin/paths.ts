/**
 * The admin area's paths, in the first bundle only as this list: the shell
 * uses it to leave out the storefront's header and footer (the admin layout
 * has its own) without loading any admin code.
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

export function isAdminPath(pathname: string): boolean {
  return ADMIN_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
