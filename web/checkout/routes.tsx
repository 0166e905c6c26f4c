import type { RouteObject } from 'react-router-dom';
import { RequireLogin, RequireLoginForCheckout } from '../account/guards.js';

/** Checkout and order success (login-guarded), each a lazy route of its own chunk. */
export const checkoutRoutes: RouteObject[] = [
  {
    // Also the spec's `/Checkout` (paths match without regard to case).
    path: '/checkout',
    async lazy() {
      const { default: Checkout } = await import('./Checkout.js');
      return {
        Component: () => (
          <RequireLoginForCheckout>
            <Checkout />
          </RequireLoginForCheckout>
        ),
      };
    },
  },
  {
    path: '/order-success',
    async lazy() {
      const { default: OrderSuccess } = await import('./OrderSuccess.js');
      return {
        Component: () => (
          <RequireLogin>
            <OrderSuccess />
          </RequireLogin>
        ),
      };
    },
  },
];
