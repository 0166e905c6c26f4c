/**
 * Every route of the shop, in one table of React Router route objects (a data
 * router: `createBrowserRouter` in main.tsx, `createMemoryRouter` in tests,
 * both with this table and `routerOptions`). Home is in the first bundle (it is
 * the first screen); every other screen is a `lazy` route, its own chunk,
 * loaded on the way there (and precached by the worker, so it loads offline
 * too). The router starts the current route's `lazy` as it is created, while
 * React is still starting: one round trip less before a shared link's screen
 * shows on a first visit.
 */
import {
  matchRoutes,
  Navigate,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
} from 'react-router-dom';
import { accountRoutes } from '../account/routes.js';
import { checkoutRoutes } from '../checkout/routes.js';
import { RouteLoading } from '../components/ProgressBar.js';
import { Home } from '../storefront/Home.js';
import { Root, StorefrontLayout } from './App.js';
import { screen } from './lazy-screen.js';
import { RouteError } from './RouteErrorBoundary.js';

/** The storefront layout's screens; the account and checkout tables add theirs. */
export const storefrontScreens: RouteObject[] = [
  { path: '/', element: <Navigate to="/home" replace /> },
  { path: '/home', element: <Home /> },
  { path: '/products', lazy: screen(() => import('../storefront/AllProducts.js')) },
  // The spec's link, with the product in navigation state (`location.state.product`).
  { path: '/products-details', lazy: screen(() => import('../storefront/ProductDetails.js')) },
  { path: '/products-details/:id', lazy: screen(() => import('../storefront/ProductDetails.js')) },
  {
    path: '/products-by-category/:category',
    lazy: screen(() => import('../storefront/CategoryProducts.js')),
  },
  { path: '/all-categories', lazy: screen(() => import('../storefront/AllCategories.js')) },
  { path: '/search', lazy: screen(() => import('../storefront/Search.js')) },
  { path: '/cart', lazy: screen(() => import('../storefront/Cart.js')) },
  { path: '/about-us', lazy: screen(() => import('../storefront/AboutUs.js')) },
  { path: '/contact', lazy: screen(() => import('../storefront/Contact.js')) },
  ...accountRoutes,
  ...checkoutRoutes,
  // Every path the table does not name (an admin path is patched in beside it, see below).
  { path: '*', lazy: screen(() => import('../storefront/NotFound.js')) },
];

/**
 * The app's routes. Paths match without regard to case (React Router's default: the spec's links
 * mix `/Checkout` and `/checkout`). Each layout has its `errorElement`, which keeps the layout
 * around the failure: a screen that failed, or whose code is not on the device, leaves the header
 * and footer (the storefront) or the PWA strip (the admin area) in place. `extra` screens join the
 * storefront layout (component tests add a failing screen or a bare guard that way).
 */
export function appRoutes(extra: RouteObject[] = []): RouteObject[] {
  return [
    {
      id: 'root',
      element: <Root />,
      children: [
        {
          id: 'storefront',
          element: <StorefrontLayout />,
          errorElement: (
            <StorefrontLayout>
              <RouteError />
            </StorefrontLayout>
          ),
          // Shown while the first screen's code arrives on a first visit to a lazy screen.
          hydrateFallbackElement: (
            <StorefrontLayout>
              <RouteLoading />
            </StorefrontLayout>
          ),
          children: [...extra, ...storefrontScreens],
        },
      ],
    },
  ];
}

export const routes: RouteObject[] = appRoutes();

/**
 * The admin area's routes, and the storefront's screens few visits begin with (`laterScreens`),
 * are not in the shopper's first screen (no admin path, no admin code, and each route in the
 * first table costs the first screen its bytes):
 * the first time a path falls through to "Page not found", the router asks for them (a lazy chunk,
 * `Elsewhere.tsx`, precached for offline like the storefront's screens) and patches them in beside
 * the storefront, where a path of theirs outranks the storefront's `*`. React Router's
 * `patchRoutesOnNavigation` ("fog of war"); it also runs for paths with a parameter, which need
 * nothing.
 */
export function routerOptions(): { patchRoutesOnNavigation: PatchRoutesOnNavigationFunction } {
  let patched = false;
  return {
    async patchRoutesOnNavigation({ path, patch }) {
      if (patched) return;
      // A storefront screen's path (one with a parameter brings the router here too) needs nothing.
      if (matchRoutes(storefrontScreens, path)?.at(-1)?.route.path !== '*') return;
      // The module whole, not destructured: Vite wraps a destructured import() in a function of its own.
      const later = await import('./Elsewhere.js');
      if (patched) return;
      patch('storefront', later.laterScreens);
      patch('root', later.elsewhereRoutes);
      patched = true;
    },
  };
}
