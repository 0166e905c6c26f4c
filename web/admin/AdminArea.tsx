/**
 * The admin layout (spec section 2, "Admin layout"), the parent route of every admin screen
 * (screens.tsx): the PWA's strip, then, for an admin, the top bar (menu toggle, search,
 * notifications, profile), the sidebar from the menu, breadcrumbs, the screen, footer. The sidebar
 * and the breadcrumbs read the screens' handles (menu.ts); the screen is the route's outlet.
 */
import { Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useMatches } from 'react-router-dom';
import { adminMessages } from '../../domain/admin-messages.js';
import { RequireAdmin } from '../account/guards.js';
import { useStatusSlot } from '../app/App.js';
import { RouteLoading } from '../components/ProgressBar.js';
import './admin.css';
import { shopName } from '../shop-name.js';
import { AdminSearch } from './AdminSearch.js';
import { useOnline } from './connection.js';
import { ConfirmHost, SignInAgain } from './dialogs.js';
import { LeaveGuardProvider } from './leave-guard.js';
import { ADMIN_MENU, crumbsOf, titleOf } from './menu.js';
import { Notifications } from './Notifications.js';
import { Profile } from './Profile.js';
import type { AdminHandle } from './screens.js';

/** Wider than this the sidebar sits beside the page (expanded or collapsed); narrower it is a drawer. */
const WIDE = '(min-width: 1025px)';
const COLLAPSED_KEY = 'adminSidebarCollapsed';

function useWide(): boolean {
  const [wide, setWide] = useState(() => globalThis.matchMedia?.(WIDE).matches ?? true);
  useEffect(() => {
    const mq = globalThis.matchMedia?.(WIDE);
    if (!mq) return;
    const on = () => setWide(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return wide;
}

export default function AdminArea() {
  return (
    <>
      {useStatusSlot()}
      <RequireAdmin>
        <LeaveGuardProvider>
          <SignInAgain>
            <Layout />
            <ConfirmHost />
          </SignInAgain>
        </LeaveGuardProvider>
      </RequireAdmin>
    </>
  );
}

function Layout() {
  const { pathname } = useLocation();
  // The deepest match is the screen; its handle names it (the layout route has no handle).
  const screen = useMatches().at(-1);
  const crumbs = crumbsOf(screen?.handle as AdminHandle | undefined, screen?.params.id);
  const title = titleOf(crumbs);
  const wide = useWide();
  const online = useOnline();
  const [collapsed, setCollapsed] = useState(() => globalThis.localStorage?.getItem(COLLAPSED_KEY) === '1');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggle = () => {
    if (wide) {
      const next = !collapsed;
      setCollapsed(next);
      globalThis.localStorage?.setItem(COLLAPSED_KEY, next ? '1' : '0');
    } else setDrawerOpen((o) => !o);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is the trigger (focus moves only then).
  useEffect(() => {
    setDrawerOpen(false);
    document.title = title;
    document.getElementById('admin-main')?.focus({ preventScroll: true });
  }, [pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setDrawerOpen(false);
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const sidebarShown = wide ? !collapsed : drawerOpen;
  return (
    <div
      className={`admin ${wide ? 'admin--wide' : 'admin--narrow'} ${wide && collapsed ? 'admin--collapsed' : ''} ${
        drawerOpen ? 'admin--drawer-open' : ''
      }`}
    >
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-top">
        <button
          type="button"
          className="admin-top__toggle"
          aria-expanded={sidebarShown}
          aria-controls="admin-sidebar"
          onClick={toggle}
        >
          <span aria-hidden="true" className="admin-burger" />
          <span className="visually-hidden">{sidebarShown ? 'Hide menu' : 'Show menu'}</span>
        </button>
        <Link to="/dashboard" className="admin-top__brand">
          {shopName()} <span>Admin</span>
        </Link>
        <AdminSearch />
        {!online && <span className="admin-top__offline">{adminMessages.offlineBadge}</span>}
        <Notifications />
        <Profile />
      </header>
      <nav
        id="admin-sidebar"
        className="admin-side"
        aria-label="Admin menu"
        // Collapsed beside the page, its marks are still links; only a closed drawer is out of reach.
        inert={!wide && !drawerOpen ? true : undefined}
      >
        <button type="button" className="btn admin-side__close" onClick={() => setDrawerOpen(false)}>
          Close menu
        </button>
        {ADMIN_MENU.map((group) => (
          <div key={group.title} className="admin-side__group">
            <h2 className="admin-side__title">{group.title}</h2>
            <ul>
              {group.items.map((item) => (
                <li key={item.path}>
                  <NavLink to={item.path} className="admin-side__link" title={item.title}>
                    <span className="admin-side__mark" aria-hidden="true">
                      {item.mark}
                    </span>
                    <span className="admin-side__label">{item.title}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {drawerOpen && (
        <button
          type="button"
          className="admin-backdrop"
          aria-label="Close menu"
          tabIndex={-1}
          onClick={() => setDrawerOpen(false)}
        />
      )}
      <div className="admin-body">
        <main id="admin-main" className="admin-main" tabIndex={-1}>
          <nav aria-label="Breadcrumb" className="admin-crumbs">
            <ol>
              {crumbs.map((c, i) => (
                <li key={c.title}>
                  {c.path ? (
                    <Link to={c.path}>{c.title}</Link>
                  ) : (
                    <span aria-current={i === crumbs.length - 1 ? 'page' : undefined}>{c.title}</span>
                  )}
                </li>
              ))}
            </ol>
          </nav>
          {/* A screen that suspends (a part of it loaded with React.lazy) shows the bar, inside the layout. */}
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </main>
        <footer className="admin-foot">
          <Link to="/home">Home</Link>
          <Link to="/privacy">Privacy Policy</Link>
          <Link to="/contact">Contact us</Link>
        </footer>
      </div>
    </div>
  );
}
