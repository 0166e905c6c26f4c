/** Checkout and order success (login-guarded), each a lazy route of its own chunk, its guard loaded beside it. */
import type { RouteObject } from 'react-router-dom';

export const checkoutRoutes: RouteObject[] = [
  {
    // Also the spec's `/Checkout` (paths match without regard to case).
    path: '/checkout',
    async lazy() {
      const [{ default: Checkout }, { RequireLoginForCheckout }] = await Promise.all([
        import('./Checkout.js'),
        import('../account/guards.js'),
      ]);
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
      const [{ default: OrderSuccess }, { RequireLogin }] = await Promise.all([
        import('./OrderSuccess.js'),
        import('../account/guards.js'),
      ]);
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
