import { lazy, type ReactNode } from 'react';
import { accountRoutes } from '../account/routes.js';
import { checkoutRoutes } from '../checkout/routes.js';
import { Home } from '../storefront/Home.js';
import { Navigate } from './router.js';

/**
 * Every route of the shop, in one table. Home is in the first bundle (it is
 * the first screen); every other screen is its own chunk, loaded on the way
 * there (and precached by the worker, so it loads offline too). Later issues
 * add their screens here (login, register, checkout, my orders, admin).
 */
const loadAllProducts = () => import('../storefront/AllProducts.js');
const loadProductDetails = () => import('../storefront/ProductDetails.js');
const loadCategoryProducts = () => import('../storefront/CategoryProducts.js');
const loadAllCategories = () => import('../storefront/AllCategories.js');
const loadSearch = () => import('../storefront/Search.js');

/**
 * When the page starts on a lazy screen (a shared link to a product, a search),
 * its chunk is requested now, while React is still starting, rather than after
 * the first render reaches the lazy element: one round trip less before that
 * screen shows on a first visit. The browser keeps one module per URL, so
 * lazy()'s own import later gets this same promise.
 */
function preloadCurrentRoute(): void {
  if (typeof location === 'undefined') return;
  const path = location.pathname;
  const loader = path.startsWith('/products-details')
    ? loadProductDetails
    : path.startsWith('/products-by-category/')
      ? loadCategoryProducts
      : path === '/search'
        ? loadSearch
        : path === '/products'
          ? loadAllProducts
          : path === '/all-categories'
            ? loadAllCategories
            : undefined;
  // A failed preload is not an error here: lazy() imports again when the screen renders, and a
  // failure there is thrown in render, for the routes' error boundary (web/app/README.md).
  loader?.().catch(() => undefined);
}
preloadCurrentRoute();

const AllProducts = lazy(loadAllProducts);
const ProductDetails = lazy(loadProductDetails);
const CategoryProducts = lazy(loadCategoryProducts);
const AllCategories = lazy(loadAllCategories);
const CategoryAlias = lazy(() => import('../storefront/CategoryAlias.js'));
const Search = lazy(loadSearch);
const Cart = lazy(() => import('../storefront/Cart.js'));
const AboutUs = lazy(() => import('../storefront/AboutUs.js'));
const Contact = lazy(() => import('../storefront/Contact.js'));

export interface RouteEntry {
  path: string;
  element: ReactNode;
}

export const storefrontRoutes: RouteEntry[] = [
  { path: '/', element: <Navigate to="/home" replace /> },
  { path: '/home', element: <Home /> },
  { path: '/products', element: <AllProducts /> },
  { path: '/products-details', element: <ProductDetails /> },
  { path: '/products-details/:id', element: <ProductDetails /> },
  { path: '/products-by-category/:category', element: <CategoryProducts /> },
  { path: '/all-categories', element: <AllCategories /> },
  { path: '/category/:name', element: <CategoryAlias /> },
  { path: '/search', element: <Search /> },
  { path: '/cart', element: <Cart /> },
  { path: '/about-us', element: <AboutUs /> },
  { path: '/contact', element: <Contact /> },
  ...accountRoutes,
  ...checkoutRoutes,
];
