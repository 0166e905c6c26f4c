import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { screen } from '../app/lazy-screen.js';
import type { SessionField } from './guards.js';

/**
 * The shopper's account routes (spec section 2): register, codes, login,
 * reset, and the login-guarded profile and My Orders. Each screen is a lazy
 * route, its own chunk (none is in the first bundle); the worker precaches
 * them, so they open offline too. The guards load beside a guarded screen
 * (no first screen needs them).
 */
const guarded =
  (
    load: () => Promise<{ default: ComponentType }>,
    needs?: readonly SessionField[],
    screenAsksServer = false,
  ) =>
  async () => {
    const [{ default: Screen }, { RequireLogin }] = await Promise.all([load(), import('./guards.js')]);
    return {
      Component: () => (
        <RequireLogin needs={needs} screenAsksServer={screenAsksServer}>
          <Screen />
        </RequireLogin>
      ),
    };
  };

export const accountRoutes: RouteObject[] = [
  { path: '/register', lazy: screen(() => import('./Register.js')) },
  { path: '/otp', lazy: screen(() => import('./Otp.js')) },
  { path: '/login', lazy: screen(() => import('./Login.js')) },
  { path: '/forget-password', lazy: screen(() => import('./ForgetPassword.js')) },
  { path: '/verify-reset-otp', lazy: screen(() => import('./VerifyResetOtp.js')) },
  // My Profile's first call is the profile itself: the guard's check would ask the same again.
  { path: '/my-profile', lazy: guarded(() => import('./MyProfile.js'), undefined, true) },
  // My Orders asks for the history by the session's email.
  { path: '/my-orders', lazy: guarded(() => import('./MyOrders.js'), ['userId', 'email']) },
  // One order, its timeline live (issue 19); the device's copy offline.
  { path: '/my-orders/:id', lazy: guarded(() => import('./MyOrder.js'), ['userId']) },
];
