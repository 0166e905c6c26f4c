import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../hooks/useSession.js';
import './account-nav.css';

// A signed-in shopper's menu and logout question: a first visit is signed out, so they load with a session.
const AccountMenu = lazy(() => import('./AccountMenu.js'));

/**
 * The header's account controls (spec section 2): Login when logged out; when
 * logged in, Account, a small menu with My Orders, My Profile and Logout (one
 * button on a phone's narrow header instead of four; `AccountMenu.tsx`).
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
    // The same button, inert, for the moment the menu's code takes to arrive (precached by the worker).
    <Suspense fallback={<span className="btn btn--outline account-nav__toggle">Account</span>}>
      <AccountMenu userId={session.userId} />
    </Suspense>
  );
}
