import type { RouteObject } from 'react-router-dom';
import { adminRoutes } from '../admin/routes.js';
import { useStatusSlot } from './App.js';
import { RouteError } from './RouteErrorBoundary.js';

/**
 * The routes the shopper's first screen does not carry: the admin area, with its own layout (no
 * storefront header or footer). `routes.tsx` patches them in (React Router's
 * `patchRoutesOnNavigation`) the first time a path falls through to the storefront's "Page not
 * found". A chunk of its own, precached like the storefront's screens, so an admin path offline
 * still says its code is not on the device; the admin screens' code is lazier still (admin-*
 * chunks, never precached).
 */
function AdminError() {
  return (
    <>
      {useStatusSlot()}
      <RouteError />
    </>
  );
}

export const elsewhereRoutes: RouteObject[] = [{ id: 'admin', errorElement: <AdminError />, ...adminRoutes }];
