import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  matchPath,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useBlocker,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from '../../web/app/router.js';

afterEach(cleanup);

function Where() {
  const { pathname, search, state } = useLocation();
  return (
    <output data-testid="where">{`${pathname}${search}${state ? ` ${JSON.stringify(state)}` : ''}`}</output>
  );
}
const where = () => screen.getByTestId('where').textContent;

function Params() {
  return <p data-testid="params">{JSON.stringify(useParams())}</p>;
}

describe('matchPath', () => {
  it('matches case-insensitively, ignores a trailing slash, decodes params', () => {
    expect(matchPath('/VryOtpLogin', '/vryotplogin/')).toEqual({ params: {} });
    expect(matchPath('/products-details/:id', '/products-details/42')).toEqual({ params: { id: '42' } });
    expect(matchPath('/category/:name', '/category/All%20Chocolate')).toEqual({
      params: { name: 'All Chocolate' },
    });
    expect(matchPath('/admin/*', '/admin/a/b')).toEqual({ params: { '*': 'a/b' } });
  });

  it('refuses longer, shorter and different paths', () => {
    expect(matchPath('/products', '/products/1')).toBeNull();
    expect(matchPath('/products-details/:id', '/products-details')).toBeNull();
    expect(matchPath('/cart', '/carts')).toBeNull();
    expect(matchPath('/', '/home')).toBeNull();
  });
});

describe('Routes', () => {
  const table = (
    <Routes>
      <Route
        element={
          <div data-testid="layout">
            <Outlet />
          </div>
        }
      >
        <Route path="/home" element={<p>home</p>} />
        <Route path="/products-details/:id" element={<Params />} />
      </Route>
      <Route path="*" element={<p>elsewhere</p>} />
      <Route path="/products-details/new" element={<p>static wins</p>} />
    </Routes>
  );
  const at = (path: string) =>
    render(
      <MemoryRouter initialEntries={[path]}>
        {table}
        <Where />
      </MemoryRouter>,
    );

  it('renders a leaf inside its layout, with its params', () => {
    at('/products-details/7');
    expect(screen.getByTestId('layout').textContent).toBe('{"id":"7"}');
  });

  it('picks the most specific route whatever the order: static over param over splat', () => {
    at('/products-details/new');
    expect(screen.getByText('static wins')).toBeTruthy();
    expect(screen.queryByTestId('layout')).toBeNull();
    cleanup();
    at('/nowhere');
    expect(screen.getByText('elsewhere')).toBeTruthy();
  });

  it('renders nothing when no route matches', () => {
    const { container } = render(
      <MemoryRouter initialEntries={['/x']}>
        <Routes>
          <Route path="/home" element={<p>home</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(container.textContent).toBe('');
  });
});

describe('navigation', () => {
  function Buttons() {
    const navigate = useNavigate();
    const [params, setParams] = useSearchParams();
    return (
      <>
        <button type="button" onClick={() => navigate('/login', { state: { notice: 'x' } })}>
          login
        </button>
        <button type="button" onClick={() => navigate(-1)}>
          back
        </button>
        <button
          type="button"
          onClick={() => setParams({ q: 'rose', page: String(Number(params.get('page') ?? 1) + 1) })}
        >
          more
        </button>
      </>
    );
  }

  it('pushes with state, goes back, and sets the query on the same path', async () => {
    render(
      <MemoryRouter initialEntries={['/home']}>
        <Buttons />
        <Where />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByText('more'));
    await waitFor(() => expect(where()).toBe('/home?q=rose&page=2'));
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(where()).toBe('/login {"notice":"x"}'));
    fireEvent.click(screen.getByText('back'));
    await waitFor(() => expect(where()).toBe('/home?q=rose&page=2'));
  });

  it('redirects with Navigate, replacing the entry', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="/" element={<Navigate to="/home" replace />} />
          <Route path="/home" element={<Buttons />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    await waitFor(() => expect(where()).toBe('/home'));
    // Replaced: Back has nowhere to go (it stays on the only entry).
    fireEvent.click(screen.getByText('back'));
    await act(async () => {});
    expect(where()).toBe('/home');
  });
});

describe('links in the browser history', () => {
  it('follows a plain click in the app, leaves modified clicks to the browser, replaces a link to here', async () => {
    history.replaceState(null, '', '/home');
    const before = history.length;
    render(
      <BrowserRouter>
        <Link to="/cart">Cart</Link>
        <Link to="/home">Home</Link>
        <NavLink to="/products" className="menu">
          Products
        </NavLink>
        <Where />
      </BrowserRouter>,
    );
    const cart = screen.getByRole('link', { name: 'Cart' });
    expect(cart.getAttribute('href')).toBe('/cart');
    // A ctrl-click (new tab) is not the app's to take: the browser's default stays.
    const ctrl = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    cart.dispatchEvent(ctrl);
    expect(ctrl.defaultPrevented).toBe(false);
    expect(where()).toBe('/home');

    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(history.length).toBe(before);
    fireEvent.click(cart);
    await waitFor(() => expect(where()).toBe('/cart'));
    expect(location.pathname).toBe('/cart');
    expect(history.length).toBe(before + 1);

    const products = screen.getByRole('link', { name: 'Products' });
    expect(products.className).toBe('menu');
    expect(products.getAttribute('aria-current')).toBeNull();
    fireEvent.click(products);
    await waitFor(() => expect(products.className).toBe('menu active'));
    expect(products.getAttribute('aria-current')).toBe('page');

    // The browser's Back (popstate) is heard.
    history.back();
    await waitFor(() => expect(where()).toBe('/cart'));
  });
});

describe('useBlocker', () => {
  /** A screen with unsaved work: leaving waits for Leave or Stay. */
  function Guarded({ dirty }: { dirty: boolean }) {
    const blocker = useBlocker(() => dirty);
    const navigate = useNavigate();
    return (
      <>
        <Link to="/product-list">List</Link>
        <Link to="/add-product">Here</Link>
        <button type="button" onClick={() => navigate(-1)}>
          back
        </button>
        {blocker.state === 'blocked' && (
          <div role="dialog">
            <button type="button" onClick={blocker.proceed}>
              Leave
            </button>
            <button type="button" onClick={blocker.reset}>
              Stay
            </button>
          </div>
        )}
      </>
    );
  }

  it('holds a link while there is unsaved work, and lets it go on Leave', async () => {
    render(
      <MemoryRouter initialEntries={['/add-product']}>
        <Guarded dirty />
        <Where />
      </MemoryRouter>,
    );
    // A link to the screen itself leaves nothing behind: nothing to ask.
    fireEvent.click(screen.getByRole('link', { name: 'Here' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'List' }));
    await screen.findByRole('dialog');
    expect(where()).toBe('/add-product');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/add-product');
    fireEvent.click(screen.getByRole('link', { name: 'List' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe('/product-list'));
  });

  it('does not ask without unsaved work', async () => {
    render(
      <MemoryRouter initialEntries={['/add-product']}>
        <Guarded dirty={false} />
        <Where />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'List' }));
    await waitFor(() => expect(where()).toBe('/product-list'));
  });

  it("holds the browser's Back: the URL comes back until the answer is Leave", async () => {
    history.replaceState(null, '', '/dashboard');
    function App() {
      const { pathname } = useLocation();
      return <Guarded dirty={pathname === '/add-product'} />;
    }
    render(
      <BrowserRouter>
        <Link to="/add-product">Add</Link>
        <App />
        <Where />
      </BrowserRouter>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Add' }));
    await waitFor(() => expect(where()).toBe('/add-product'));
    history.back();
    await screen.findByRole('dialog');
    await waitFor(() => expect(location.pathname).toBe('/add-product'));
    expect(where()).toBe('/add-product');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(location.pathname).toBe('/add-product');

    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe('/dashboard'));
    expect(location.pathname).toBe('/dashboard');
  });
});
