/**
 * The routes the shopper's first screen does not carry: storefront screens that are rarely where a
 * visit starts (`laterScreens`, in the storefront's layout), and the admin area, with its own
 * layout (no storefront header or footer). `routes.tsx` patches them in (React Router's
 * `patchRoutesOnNavigation`) the first time a path falls through to the storefront's "Page not
 * found". A chunk of its own, precached like the storefront's screens, so an admin path offline
 * still says its code is not on the device; the admin screens' code is lazier still (admin-*
 * chunks, never precached).
 */
import type { RouteObject } from 'react-router-dom';
import { POLICIES, POLICY_KEYS } from '../../domain/policies.js';
import { adminRoutes } from '../admin/routes.js';
import { useStatusSlot } from './App.js';
import { screen } from './lazy-screen.js';
import { RouteError } from './RouteErrorBoundary.js';

function AdminError() {
  return (
    <>
      {useStatusSlot()}
      <RouteError />
    </>
  );
}

export const elsewhereRoutes: RouteObject[] = [{ id: 'admin', errorElement: <AdminError />, ...adminRoutes }];

/** Storefront screens a visit seldom starts on; patched into the storefront layout (routes.tsx). */
export const laterScreens: RouteObject[] = [
  // The policies (Privacy keeps its old address): one screen for the four (domain/policies.ts).
  ...POLICY_KEYS.map((key) => ({
    path: POLICIES[key].path,
    lazy: screen(() => import('../storefront/Policy.js')),
  })),
  // Where the mailing list's mails lead: confirm and unsubscribe.
  { path: '/newsletter/:action', lazy: screen(() => import('../storefront/Subscription.js')) },
  { path: '/otp', lazy: screen(() => import('../account/Otp.js')) },
  { path: '/forget-password', lazy: screen(() => import('../account/ForgetPassword.js')) },
  { path: '/verify-reset-otp', lazy: screen(() => import('../account/VerifyResetOtp.js')) },
  // Where the spec's All Categories list pointed: redirected to the category.
  { path: '/category/:name', lazy: screen(() => import('../storefront/CategoryAlias.js')) },
];
