import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, matchPath, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { accountsApi } from '../../domain/accounts.contract.js';
import { adminApi } from '../../domain/admin.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { clearSession } from '../../sw/session.js';
import { ApiError, call, serverMessageOr } from '../api/client.js';
import { RouteLoading } from '../components/ProgressBar.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useSession } from '../hooks/useSession.js';
import './admin.css';
import { useAdminQuery, useOnline } from './connection.js';
import { ConfirmHost, SignInAgain } from './dialogs.js';
import { LeaveGuardProvider } from './leave-guard.js';
import { ADMIN_MENU, breadcrumbs, pageTitle } from './menu.js';

/**
 * The admin layout (spec section 2, "Admin layout"): top bar (menu toggle,
 * search, notifications, profile), sidebar from the menu, breadcrumbs, the
 * page title, footer. Each screen is a chunk of its own, chosen from the path,
 * so the dashboard does not bring the product form's sanitizer, nor the order
 * list the dashboard's chart (vite.config.ts names them admin-*, which the
 * worker's precache leaves out: they are not part of the offline shop).
 */
const Dashboard = lazy(() => import('./Dashboard.js'));
const ProductList = lazy(() => import('./ProductList.js'));
const Orders = lazy(() => import('./Orders.js'));
const OrderDetail = lazy(() => import('./OrderDetail.js'));
const AddCategory = lazy(() => import('./Categories.js').then((m) => ({ default: m.AddCategory })));
const CategoryList = lazy(() => import('./Categories.js').then((m) => ({ default: m.CategoryList })));
const AddProduct = lazy(() => import('./ProductForm.js').then((m) => ({ default: m.AddProduct })));
const Backups = lazy(() => import('./Backups.js'));
const Slots = lazy(() => import('./Slots.js'));
const EditProduct = lazy(() => import('./ProductForm.js').then((m) => ({ default: m.EditProduct })));

function screenFor(pathname: string): ReactNode {
  const edit = matchPath('/edit-products/:id', pathname);
  if (edit?.params.id) return <EditProduct key={edit.params.id} id={edit.params.id} />;
  const order = matchPath('/admin-orders/:id', pathname);
  if (order?.params.id) return <OrderDetail key={order.params.id} id={order.params.id} />;
  switch (pathname) {
    case '/dashboard':
      return <Dashboard />;
    case '/add-new-category':
      return <AddCategory />;
    case '/category-list':
      return <CategoryList />;
    case '/product-list':
      return <ProductList />;
    case '/add-product':
      return <AddProduct />;
    case '/all-admin-orders':
      return <Orders />;
    case '/backups':
      return <Backups />;
    case '/delivery-slots':
      return <Slots />;
    default:
      return null;
  }
}

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
    <LeaveGuardProvider>
      <SignInAgain>
        <Layout />
        <ConfirmHost />
      </SignInAgain>
    </LeaveGuardProvider>
  );
}

function Layout() {
  const { pathname } = useLocation();
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
  useEffect(() => {
    setDrawerOpen(false);
    document.title = pageTitle(pathname);
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
  const crumbs = breadcrumbs(pathname);
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
          Bakery &amp; Blooms <span>Admin</span>
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
          <Suspense fallback={<RouteLoading />}>{screenFor(pathname)}</Suspense>
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

/** The top bar's search: products by title or id, orders by id, email or phone. */
function AdminSearch() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  const enabled = q.length >= 2;
  const products = useAdminQuery(adminApi.products, { query: { q, pageSize: '5' } }, `p:${q}`, { enabled });
  const orders = useAdminQuery(adminApi.orders, { query: { q, pageSize: '5' } }, `o:${q}`, { enabled });
  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);
  const go = (to: string) => {
    setOpen(false);
    setText('');
    navigate(to);
  };
  const productItems = enabled ? (products.data?.items ?? []) : [];
  const orderItems = enabled ? (orders.data?.items ?? []) : [];
  const count = productItems.length + orderItems.length;
  return (
    <div className="admin-search" ref={box}>
      <search>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) go(`/product-list?q=${encodeURIComponent(text.trim())}`);
          }}
        >
          <label htmlFor="admin-search-input" className="visually-hidden">
            Search products and orders
          </label>
          <input
            id="admin-search-input"
            type="search"
            placeholder="Search here..."
            value={text}
            autoComplete="off"
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpen(false);
            }}
            aria-controls={open && enabled ? 'admin-search-results' : undefined}
          />
        </form>
      </search>
      {open && enabled && (
        <div id="admin-search-results" className="admin-search__results">
          <p className="visually-hidden" aria-live="polite">
            {products.loading || orders.loading ? '' : `${count} results`}
          </p>
          {productItems.length > 0 && (
            <>
              <h2>Products</h2>
              <ul>
                {productItems.map((p) => (
                  <li key={p.productID}>
                    <button type="button" onClick={() => go(`/edit-products/${p.productID}`)}>
                      #{p.productID} {p.title} <span className="muted">{formatRupees(p.price)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {orderItems.length > 0 && (
            <>
              <h2>Orders</h2>
              <ul>
                {orderItems.map((o) => (
                  <li key={o.orderID}>
                    <button type="button" onClick={() => go(`/admin-orders/${o.orderID}`)}>
                      #{o.orderID} {o.customerEmail} <span className="muted">{o.status}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {!products.loading && !orders.loading && count === 0 && (
            <p className="muted">{adminMessages.noSearchResults}</p>
          )}
        </div>
      )}
    </div>
  );
}

const SEEN_KEY = 'adminOrdersSeenAt';
const POLL_MS = 60_000;

/** The bell: real orders placed since this admin last opened it (the time is kept on this device). */
function Notifications() {
  const [since, setSince] = useState(() => globalThis.localStorage?.getItem(SEEN_KEY) ?? '');
  const [open, setOpen] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), POLL_MS);
    return () => clearInterval(t);
  }, []);
  const result = useAdminQuery(adminApi.notifications, { query: since ? { since } : {} }, `${since}:${tick}`);
  const data = result.data;
  const count = data?.count ?? 0;
  const markSeen = useCallback(() => {
    if (!data) return;
    const at = String(data.now);
    globalThis.localStorage?.setItem(SEEN_KEY, at);
    setSince(at);
  }, [data]);
  return (
    <Dropdown
      label={
        <>
          <span aria-hidden="true" className="admin-bell" />
          <span className="visually-hidden">Notifications: {adminMessages.newOrders(count)}</span>
          {count > 0 && (
            <span className="admin-badge" aria-hidden="true">
              {count > 99 ? '99+' : count}
            </span>
          )}
        </>
      }
      open={open}
      setOpen={(o) => {
        if (!o && open) markSeen();
        setOpen(o);
      }}
      id="admin-notifications"
    >
      <h2 className="admin-drop__title">{adminMessages.newOrders(count)}</h2>
      {data && data.orders.length === 0 && <p className="muted">{adminMessages.noNotifications}</p>}
      <ul>
        {data?.orders.map((o) => (
          <li key={o.orderID}>
            <Link to={`/admin-orders/${o.orderID}`} onClick={() => setOpen(false)}>
              Order #{o.orderID} from {o.customerName}, {formatRupees(o.totalAmount)}
            </Link>
          </li>
        ))}
      </ul>
      {count > 0 && (
        <button
          type="button"
          className="btn btn--link"
          onClick={() => {
            markSeen();
            setOpen(false);
          }}
        >
          Mark all as seen
        </button>
      )}
    </Dropdown>
  );
}

function Profile() {
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

function Dropdown({
  id,
  label,
  open,
  setOpen,
  children,
}: {
  id: string;
  label: ReactNode;
  open: boolean;
  setOpen(open: boolean): void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', key);
    };
  }, [open, setOpen]);
  return (
    <div className="admin-drop" ref={box}>
      <button
        type="button"
        className="admin-drop__button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      <div id={id} className="admin-drop__panel" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
