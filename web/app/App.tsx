import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { onSessionLapsed, setReturnUrl } from '../../sw/session.js';
import { type LoginState, setLoginNotice } from '../account/guards.js';
import { isAdminPath } from '../admin/paths.js';
import { AlertsProvider } from '../components/Alerts.js';
import { Footer } from '../components/Footer.js';
import { Header } from '../components/Header.js';
import { OutboxNotice } from '../components/OutboxStatus.js';
import { ProgressBar, RouteLoading } from '../components/ProgressBar.js';
import '../styles/app.css';
import { RouteErrorBoundary } from './RouteErrorBoundary.js';
import { type RouteEntry, storefrontRoutes } from './routes.js';

/**
 * The shopper's app. `status` is the PWA's own strip (offline, last synced,
 * install, update ready) rendered by `web/pwa/`; the app only gives it a place.
 */
export function App({ status }: { status?: ReactNode }) {
  return (
    <BrowserRouter>
      <Shell status={status} />
    </BrowserRouter>
  );
}

/** Everything inside the router, so tests can render it in a MemoryRouter at any URL. */
export function Shell({ status, routes = storefrontRoutes }: { status?: ReactNode; routes?: RouteEntry[] }) {
  // The admin area brings its own layout (top bar, sidebar, footer) inside its lazy route chunks.
  const { pathname } = useLocation();
  const admin = isAdminPath(pathname);
  if (admin)
    return (
      <AlertsProvider>
        <SessionLapse />
        <ProgressBar />
        {status}
        <RouteErrorBoundary path={pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Routes>
              {routes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
            </Routes>
          </Suspense>
        </RouteErrorBoundary>
      </AlertsProvider>
    );
  return (
    <AlertsProvider>
      <SessionLapse />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ProgressBar />
      <Header />
      {status}
      <OutboxNotice />
      <main id="main" tabIndex={-1}>
        <FocusOnNavigate />
        <RouteErrorBoundary path={pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Routes>
              {routes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
            </Routes>
          </Suspense>
        </RouteErrorBoundary>
      </main>
      {/* In the first bundle although below the fold: loaded lazily it was one more request, made by the
          first render, that a phone's first paint waited for (and its code loaded on every first visit anyway). */}
      <Footer />
    </AlertsProvider>
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
 * A new screen starts at the top, and keyboard and screen-reader users land
 * on its content, as with a page load (not on the first visit: the browser
 * already starts there).
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
    globalThis.scrollTo?.(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, search]);
  return null;
}
