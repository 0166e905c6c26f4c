import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { outboxLogoutMessages as t } from '../../domain/outbox-logout-messages.js';
import { ownWaitingOrders } from '../../sw/account-data.js';
import { endSessionOnDevice } from '../../sw/session-writes.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useDismissDetails } from '../hooks/useDismissDetails.js';

/**
 * A signed-in shopper's Account menu: My Orders, My Profile and Logout. The
 * logout itself (the API client, the spec's messages) is loaded when the
 * shopper asks for it. With orders still waiting to be sent, Logout first says
 * they stay for this account (a modal `<dialog>` in the page, never
 * `window.confirm`), and the shopper may stay.
 */
export default function AccountMenu({ userId }: { userId: number }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  /** Orders the logout question names; 0 while it is not asked. */
  const [waiting, setWaiting] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const dialogId = useId();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (waiting && !d.open) d.showModal();
    else if (!waiting && d.open) d.close();
  }, [waiting]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of page is the trigger.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  useDismissDetails(menu);

  const logout = async () => {
    setBusy(true);
    try {
      const { logout: run } = await import('../account/logout.js');
      await run({ notify, navigate });
    } catch {
      // The logout code itself could not load (offline before the worker saved it): the spec's other
      // path, ending the session on this device (the cart and waiting orders stay), still signs out.
      navigate('/login');
      await endSessionOnDevice();
    } finally {
      setBusy(false);
    }
  };
  const askFirst = async () => {
    // Waiting orders stay on the phone, hidden, and leave only with this account's next login: the
    // shopper hears so before the screens stop showing them.
    const count = (await ownWaitingOrders(userId)).length;
    if (count) setWaiting(count);
    else await logout();
  };

  return (
    <>
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
            <button type="button" className="account-nav__logout" onClick={askFirst} disabled={busy}>
              Logout
            </button>
          </li>
        </ul>
      </details>
      {/* Outside the menu: a closed <details> hides what it holds, a modal dialog included. */}
      <dialog
        ref={dialog}
        className="account-dialog"
        aria-labelledby={`${dialogId}-title`}
        aria-describedby={`${dialogId}-text`}
        onCancel={(e) => {
          e.preventDefault();
          setWaiting(0);
        }}
      >
        <h2 id={`${dialogId}-title`}>{t.title}</h2>
        <p id={`${dialogId}-text`}>{t.waiting(waiting)}</p>
        <div className="account-dialog__actions">
          {/* First, so the dialog opens on it: staying is the choice that loses nothing. */}
          <button type="button" className="btn btn--outline" onClick={() => setWaiting(0)}>
            {t.stay}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              setWaiting(0);
              void logout();
            }}
          >
            {t.confirm}
          </button>
        </div>
      </dialog>
    </>
  );
}
