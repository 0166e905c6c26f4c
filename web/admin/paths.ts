/**
 * The admin area's paths. `routes.tsx` registers exactly these (the two with
 * an id as `/:id`); the shell reaches them only through its lazy `Elsewhere`
 * chunk, so no admin path is in a shopper's first screen (the storefront
 * bench checks for them).
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
  '/backups',
  '/delivery-slots',
] as const;

/** The paths that take an id (`/edit-products/:id`, `/admin-orders/:id`); the others take none. */
export const ADMIN_ID_PATHS: readonly (typeof ADMIN_PATHS)[number][] = ['/edit-products', '/admin-orders'];
