import { lazy } from 'react';
import { RequireLogin, RequireLoginForCheckout } from '../account/guards.js';
import type { RouteEntry } from '../app/routes.js';

/** Checkout and order success (login-guarded), each its own lazy chunk. */
const Checkout = lazy(() => import('./Checkout.js'));
const OrderSuccess = lazy(() => import('./OrderSuccess.js'));

export const checkoutRoutes: RouteEntry[] = [
  {
    path: '/checkout',
    element: (
      <RequireLoginForCheckout>
        <Checkout />
      </RequireLoginForCheckout>
    ),
  },
  {
    path: '/order-success',
    element: (
      <RequireLogin>
        <OrderSuccess />
      </RequireLogin>
    ),
  },
];
