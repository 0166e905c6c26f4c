import { useEffect, useRef, useState } from 'react';
import { clearSession } from '../../sw/session.js';
import { Link, useLocation, useNavigate } from '../app/router.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import './account-nav.css';

/**
 * The header's account controls (spec section 2): Login when logged out; when
 * logged in, Account, a small menu with My Orders, My Profile and Logout (one
 * button on a phone's narrow header instead of four). It is in the first
 * bundle, so the logout itself (the API client, the spec's messages) is
 * loaded when the shopper asks for it.
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
  return <AccountMenu />;
}

function AccountMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of page is the trigger.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  useEffect(() => {
    // <details> stays open by itself; a menu closes on a tap elsewhere or Escape.
    const close = (e: Event) => {
      const el = menu.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);

  const logout = async () => {
    setBusy(true);
    try {
      const { logout: run } = await import('../account/logout.js');
      await run({ notify, navigate });
    } catch {
      // The logout code itself could not load (offline before the worker saved it): the spec's other
      // path, ending the session on this device (the cart and queued orders stay), still signs out.
      navigate('/login');
      await clearSession();
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="account-nav" ref={menu}>
      <summary className="btn btn--outline account-nav__toggle">Account</summary>
      <ul className="account-nav__list">
        <li>
          <Link to="/my-orders">My Orders</Link>
        </li>
        <li>
          <Link to="/my-profile">My Profile</Link>
        </li>
        <li>
          <button type="button" className="account-nav__logout" onClick={logout} disabled={busy}>
            Logout
          </button>
        </li>
      </ul>
    </details>
  );
}
