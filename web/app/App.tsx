import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { onSessionLapsed, setReturnUrl } from '../../sw/session.js';
import { type LoginState, setLoginNotice } from '../account/guards.js';
import { AlertsProvider } from '../components/Alerts.js';
import { Footer } from '../components/Footer.js';
import { Header } from '../components/Header.js';
import { OutboxNotice } from '../components/OutboxStatus.js';
import { ProgressBar, RouteLoading } from '../components/ProgressBar.js';
import { BrowserRouter, Outlet, Route, Routes, useLocation, useNavigate } from './router.js';
import '../styles/app.css';
import { RouteErrorBoundary } from './RouteErrorBoundary.js';
import { type RouteEntry, storefrontRoutes } from './routes.js';

const Elsewhere = lazy(() => import('./Elsewhere.js'));

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

/**
 * Everything inside the router, so tests can render it in a MemoryRouter at any URL. The
 * storefront's routes share its layout; every other path (the admin area, or "Page not found")
 * is decided in a lazy chunk (`Elsewhere.tsx`), so the shopper's first screen carries no admin
 * paths or code, and the admin area brings its own layout instead of the storefront's.
 */
export function Shell({ status, routes = storefrontRoutes }: { status?: ReactNode; routes?: RouteEntry[] }) {
  const { pathname } = useLocation();
  return (
    <AlertsProvider>
      <SessionLapse />
      <ProgressBar />
      <Routes>
        <Route element={<StorefrontLayout status={status} />}>
          {routes.map((r) => (
            <Route key={r.path} path={r.path} element={r.element} />
          ))}
        </Route>
        <Route
          path="*"
          element={
            <RouteErrorBoundary path={pathname}>
              <Suspense fallback={<RouteLoading />}>
                <Elsewhere status={status} />
              </Suspense>
            </RouteErrorBoundary>
          }
        />
      </Routes>
    </AlertsProvider>
  );
}

/** The storefront's page: header, the PWA strip, the outbox notice, the screen, footer. */
export function StorefrontLayout({ status, children }: { status?: ReactNode; children?: ReactNode }) {
  const { pathname } = useLocation();
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
        <RouteErrorBoundary path={pathname}>
          <Suspense fallback={<RouteLoading />}>{children ?? <Outlet />}</Suspense>
        </RouteErrorBoundary>
      </main>
      {/* In the first bundle although below the fold: loaded lazily it was one more request, made by the
          first render, that a phone's first paint waited for (and its code loaded on every first visit anyway). */}
      <Footer />
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
