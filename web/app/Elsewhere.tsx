import { type ReactNode, Suspense } from 'react';
import { adminRoutes } from '../admin/routes.js';
import { RouteLoading } from '../components/ProgressBar.js';
import NotFound from '../storefront/NotFound.js';
import { StorefrontLayout } from './App.js';
import { RouteErrorBoundary } from './RouteErrorBoundary.js';
import { Route, Routes, useLocation } from './router.js';

/**
 * Every path the storefront's table does not name: an admin screen (with the
 * admin area's own layout, no storefront header or footer) or "Page not
 * found" in the storefront's layout. A lazy chunk, so the admin paths are not
 * in a shopper's first screen; the admin screens' code is lazier still.
 */
export default function Elsewhere({ status }: { status?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Routes>
      {adminRoutes.map((r) => (
        <Route
          key={r.path}
          path={r.path}
          element={
            <>
              {status}
              <RouteErrorBoundary path={pathname}>
                <Suspense fallback={<RouteLoading />}>{r.element}</Suspense>
              </RouteErrorBoundary>
            </>
          }
        />
      ))}
      <Route
        path="*"
        element={
          <StorefrontLayout status={status}>
            <NotFound />
          </StorefrontLayout>
        }
      />
    </Routes>
  );
}
