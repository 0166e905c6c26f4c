/** The PWA's own strip (offline, last synced, install, update ready), rendered by `web/pwa/`; layouts give it a place. */
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import {
  type DataRouter,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import { onSessionLapsed, setReturnUrl } from '../../sw/session.js';
import { type LoginState, setLoginNotice } from '../account/login-notice.js';
import { AlertsProvider } from '../components/Alerts.js';
import { FooterSlot } from '../components/FooterSlot.js';
import { Header } from '../components/Header.js';
import { OutboxNotice } from '../components/OutboxStatus.js';
import { ProgressBar } from '../components/ProgressBar.js';
import '../styles/app.css';

const StatusSlot = createContext<ReactNode>(null);
export const useStatusSlot = (): ReactNode => useContext(StatusSlot);

/**
 * The shopper's app: a data router (`createBrowserRouter` in main.tsx, `createMemoryRouter` in
 * tests, over the one route table in `routes.tsx`) and the PWA's status strip.
 */
export function App({ router, status }: { router: DataRouter; status?: ReactNode }) {
  return (
    <StatusSlot.Provider value={status}>
      <RouterProvider router={router} />
    </StatusSlot.Provider>
  );
}

/**
 * The root route: what every page has (the alert region, the session watch, the progress bar,
 * the scroll restoration), around the storefront's layout or the admin area's.
 */
export function Root() {
  return (
    <AlertsProvider>
      <SessionLapse />
      <ProgressBar />
      {/* Back and Forward get their old scroll position; a new page starts at the top, or at its #section. */}
      <ScrollRestoration />
      <Outlet />
    </AlertsProvider>
  );
}

/**
 * The storefront's page: header, the PWA strip, the outbox notice, the screen, footer. Its
 * `errorElement` and the first visit's loading state are this same layout with other children
 * (routes.tsx), so the header and footer stay mounted when a screen fails or arrives.
 */
export function StorefrontLayout({ children }: { children?: ReactNode }) {
  const status = useStatusSlot();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      {status}
      <OutboxNotice />
      <main id="main" tabIndex={-1}>
        <FocusOnNavigate />
        {children ?? <Outlet />}
      </main>
      {/* Loaded as the shopper nears it: mounted with the page, its code was one more request that a phone's
          first visit made before the network went quiet, for a footer a screen or more below the fold. */}
      <FooterSlot />
    </>
  );
}

/**
 * A session the server refused (a 401 to any call, see `web/api/client.ts`)
 * has already ended on the device when this hears of it; the shopper goes to
 * /login, which says why, and comes back afterwards (the URL was kept).
 */
function SessionLapse() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const here = useRef('');
  here.current = `${pathname}${search}`;
  useEffect(
    () =>
      onSessionLapsed(() => {
        // The router's URL is the one to come back to (the client only knows the document's).
        if (here.current !== '/login') setReturnUrl(here.current);
        const state: LoginState = { notice: 'sessionEnded' };
        setLoginNotice(state.notice);
        navigate('/login', { state });
      }),
    [navigate],
  );
  return null;
}

/**
 * On a new screen keyboard and screen-reader users land on its content, as
 * with a page load (not on the first visit: the browser already starts there).
 */
function FocusOnNavigate() {
  const { pathname, search } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of URL is the trigger.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The scroll position is ScrollRestoration's (the top, a #section, or Back's old place).
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, search]);
  return null;
}
