import { Link } from 'react-router-dom';

/** The header's account controls: Login when logged out (the accounts work adds the signed-in menu). */
export function AccountNav() {
  return (
    <Link to="/login" className="btn btn--outline">
      Login
    </Link>
  );
}
