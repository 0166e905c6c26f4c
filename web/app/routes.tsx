import { lazy, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { Home } from '../storefront/Home.js';

/**
 * Every route of the shop, in one table. Home is in the first bundle (it is
 * the first screen); every other screen is its own chunk, loaded on the way
 * there (and precached by the worker, so it loads offline too). Later issues
 * add their screens here (login, register, checkout, my orders, admin).
 */
const AllProducts = lazy(() => import('../storefront/AllProducts.js'));
const ProductDetails = lazy(() => import('../storefront/ProductDetails.js'));
const CategoryProducts = lazy(() => import('../storefront/CategoryProducts.js'));
const AllCategories = lazy(() => import('../storefront/AllCategories.js'));
const CategoryAlias = lazy(() => import('../storefront/CategoryAlias.js'));
const Search = lazy(() => import('../storefront/Search.js'));
const Cart = lazy(() => import('../storefront/Cart.js'));
const AboutUs = lazy(() => import('../storefront/AboutUs.js'));
const Contact = lazy(() => import('../storefront/Contact.js'));
const NotFound = lazy(() => import('../storefront/NotFound.js'));

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
  { path: '*', element: <NotFound /> },
];
