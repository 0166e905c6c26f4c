/** The top bar's account menu: who is signed in, and Logout. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { accountsApi } from '../../domain/accounts.contract.js';
import { messages } from '../../domain/messages.js';
import { clearSession } from '../../sw/session-writes.js';
import { ApiError, call, serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import { Dropdown } from './Dropdown.js';

export function Profile() {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const navigate = useNavigate();
  const logout = async () => {
    const email = session?.email;
    if (!email) {
      notify(messages.noUserLoggedIn, 'error');
      return;
    }
    try {
      const res = await call(accountsApi.logout, { body: { email }, endSessionOn401: false });
      notify(res.sys_message || messages.loggedOut, 'success');
    } catch (err) {
      // 401: the server had already ended this session. Otherwise the device forgets the session
      // anyway: an admin who taps Logout on a shared laptop must not stay signed in because the
      // network failed.
      if (!(err instanceof ApiError && err.status === 401))
        notify(serverMessageOr(err, messages.logoutFailed), 'error');
    }
    // Away first: a guarded admin screen that saw the session end would keep itself as the URL
    // to come back to, and the next person to log in would land there.
    navigate('/login', { replace: true });
    await clearSession();
  };
  if (!session) return null;
  return (
    <Dropdown
      id="admin-profile"
      label={
        <>
          <span aria-hidden="true" className="admin-avatar">
            {session.email.charAt(0).toUpperCase()}
          </span>
          <span className="visually-hidden">Profile</span>
        </>
      }
      open={open}
      setOpen={setOpen}
    >
      <p className="admin-drop__title">{session.email}</p>
      <button type="button" className="btn btn--outline admin-logout" onClick={logout}>
        Logout
      </button>
    </Dropdown>
  );
}
