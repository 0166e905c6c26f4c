import { lazy } from 'react';
import type { RouteEntry } from '../app/routes.js';
import { RequireLogin } from './guards.js';

/**
 * The shopper's account routes (spec section 2): register, codes, login,
 * reset, and the login-guarded profile and My Orders. Each screen is its own
 * chunk (none is in the first bundle); the worker precaches them, so they
 * open offline too.
 */
const Register = lazy(() => import('./Register.js'));
const Otp = lazy(() => import('./Otp.js'));
const Login = lazy(() => import('./Login.js'));
const ForgetPassword = lazy(() => import('./ForgetPassword.js'));
const VerifyResetOtp = lazy(() => import('./VerifyResetOtp.js'));
const MyProfile = lazy(() => import('./MyProfile.js'));
const MyOrders = lazy(() => import('./MyOrders.js'));

export const accountRoutes: RouteEntry[] = [
  { path: '/register', element: <Register /> },
  { path: '/otp', element: <Otp /> },
  { path: '/login', element: <Login /> },
  { path: '/forget-password', element: <ForgetPassword /> },
  { path: '/verify-reset-otp', element: <VerifyResetOtp /> },
  {
    path: '/my-profile',
    element: (
      <RequireLogin>
        <MyProfile />
      </RequireLogin>
    ),
  },
  {
    path: '/my-orders',
    element: (
      <RequireLogin>
        <MyOrders />
      </RequireLogin>
    ),
  },
];
