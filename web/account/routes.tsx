/**
 * The shopper's account routes (spec section 2): register, codes, login,
 * reset, and the login-guarded profile and My Orders. Each screen is a lazy
 * route, its own chunk (none is in the first bundle); the worker precaches
 * them, so they open offline too. The guards load beside a guarded screen
 * (no first screen needs them).
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { screen } from '../app/lazy-screen.js';
import type { SessionField } from './guards.js';

const guarded =
  (load: () => Promise<{ default: ComponentType; asksServer?: boolean }>, needs?: readonly SessionField[]) =>
  async () => {
    const [{ default: Screen, asksServer }, { RequireLogin }] = await Promise.all([
      load(),
      import('./guards.js'),
    ]);
    return {
      Component: () => (
        <RequireLogin needs={needs} screenAsksServer={asksServer}>
          <Screen />
        </RequireLogin>
      ),
    };
  };

export const accountRoutes: RouteObject[] = [
  { path: '/register', lazy: screen(() => import('./Register.js')) },
  { path: '/login', lazy: screen(() => import('./Login.js')) },
  // The registration's code, "Forgot password" and its code are in `web/app/Elsewhere.tsx`'s later
  // screens: a visit seldom starts there, and the first screen's table pays for every route it names.
  { path: '/my-profile', lazy: guarded(() => import('./MyProfile.js')) },
  // My Orders asks for the history by the session's email.
  { path: '/my-orders', lazy: guarded(() => import('./MyOrders.js'), ['userId', 'email']) },
  // One order, its timeline live; the device's copy offline.
  { path: '/my-orders/:id', lazy: guarded(() => import('./MyOrder.js'), ['userId']) },
];
