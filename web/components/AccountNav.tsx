import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../hooks/useSession.js';

/** Its own chunk: a first visit (logged out) never runs it; a signed-in shopper's device has it precached. */
const AccountMenu = lazy(() => import('./AccountMenu.js'));

/**
 * The header's account controls (spec section 2): Login when logged out; when
 * logged in, Account, a small menu with My Orders, My Profile and Logout (one
 * button on a phone's narrow header instead of four). Only the Login link is
 * in the first bundle: the menu is a chunk of its own, and the logout itself
 * (the API client, the spec's messages) loads when the shopper asks for it.
 */
export function AccountNav() {
  const session = useSession();
  if (!session) {
    return (
      <Link to="/login" className="btn btn--outline">
        Login
      </Link>
    );
  }
  return (
    <Suspense
      fallback={
        <span className="btn btn--outline" aria-hidden="true">
          Account
        </span>
      }
    >
      <AccountMenu />
    </Suspense>
  );
}
