import {
  type AnchorHTMLAttributes,
  Children,
  createContext,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/**
 * The app's router: the part of React Router's API the shop uses (BrowserRouter,
 * MemoryRouter, Routes and Route with layout routes and Outlet, Link, NavLink,
 * Navigate, useNavigate, useLocation, useParams, useSearchParams, matchPath), with
 * React Router's meaning, in a few hundred bytes instead of its 39 KB: every
 * byte of the first screen is paid on a phone's first visit (DESIGN.md's budget).
 *
 * What it keeps of React Router on purpose: paths match case-insensitively and
 * ignore a trailing slash (the spec's links mix `/VryOtpLogin` and friends);
 * the most specific route wins whatever the order (static over `:param` over
 * `*`); a navigation is a transition, so a screen whose code is still loading
 * leaves the current one up until it arrives; a link to the current URL
 * replaces instead of pushing; `location.state` travels in `history.state`.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** New for every navigation ("default" for the first entry). */
  key: string;
}
export type To = string | { pathname?: string; search?: string; hash?: string };
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}
export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
}

interface RouterValue {
  location: Location;
  navigate: NavigateFunction;
  /** Where a screen with unsaved work registers its question (see `useBlocker`). */
  blocking: Blocking;
}

/**
 * The one blocker a router has at a time: `when()` says whether leaving now must be asked first;
 * `held` is the navigation waiting for the answer (run by `proceed`, dropped by `reset`).
 */
interface Blocking {
  when: (() => boolean) | null;
  held: (() => void) | null;
  onHold: ((held: boolean) => void) | null;
}
const newBlocking = (): Blocking => ({ when: null, held: null, onHold: null });
const isBlocked = (b: Blocking) => !!b.when?.();
function hold(b: Blocking, go: () => void): void {
  b.held = go;
  b.onHold?.(true);
}
const RouterContext = createContext<RouterValue | null>(null);

interface RouteValue {
  params: Record<string, string>;
  outlet: ReactNode;
}
const RouteContext = createContext<RouteValue>({ params: {}, outlet: null });

const newKey = () => Math.random().toString(36).slice(2, 10);

/** `to` against the current location: an object or a query-only string keeps the current path. */
function resolve(to: To, from: Location): { pathname: string; search: string; hash: string } {
  if (typeof to !== 'string') {
    return { pathname: to.pathname ?? from.pathname, search: to.search ?? '', hash: to.hash ?? '' };
  }
  const url = new URL(to, `http://x${from.pathname}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}
const href = (l: { pathname: string; search: string; hash: string }) => `${l.pathname}${l.search}${l.hash}`;

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('a router hook is used outside <BrowserRouter> or <MemoryRouter>');
  return router;
}

function useNavigateFunction(
  location: Location,
  blocking: Blocking,
  apply: (next: Location, replace: boolean) => void,
  go: (delta: number) => void,
): NavigateFunction {
  // Stable, like React Router's: effects that depend on `navigate` do not rerun on every navigation.
  const current = useRef(location);
  current.current = location;
  return useMemo(
    () =>
      ((to: To | number, options: NavigateOptions = {}) => {
        if (typeof to === 'number') {
          if (isBlocked(blocking)) hold(blocking, () => go(to));
          else go(to);
          return;
        }
        const target = resolve(to, current.current);
        const run = () =>
          apply({ ...target, state: options.state ?? null, key: newKey() }, options.replace ?? false);
        // Staying on the same URL (a link to the current screen) leaves nothing behind: nothing to ask.
        if (href(target) !== href(current.current) && isBlocked(blocking)) hold(blocking, run);
        else run();
      }) as NavigateFunction,
    [blocking, apply, go],
  );
}

/** What the router keeps in `history.state`: the navigation's state, its key, its place in the stack. */
interface Entry {
  usr?: unknown;
  key?: string;
  idx?: number;
}
const saved = (): Entry => (history.state ?? {}) as Entry;

function read(): Location {
  const { pathname, search, hash } = globalThis.location;
  const entry = saved();
  return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(read);
  const [blocking] = useState(newBlocking);
  // The entry's place in the session history: what lets a blocked Back be undone (go forward again).
  const idx = useRef(0);
  // A move through the history that was already allowed (asked, or nothing to ask): its pop passes.
  const allowed = useRef(false);
  const go = useMemo(
    () => (delta: number) => {
      allowed.current = true;
      history.go(delta);
    },
    [],
  );
  useEffect(() => {
    if (saved().idx === undefined) history.replaceState({ ...saved(), idx: 0 }, '');
    idx.current = saved().idx ?? 0;
    // The pop that undoes a blocked one is the router's own.
    let undoing = false;
    const onPop = () => {
      const to = saved().idx ?? 0;
      if (undoing) {
        undoing = false;
        return;
      }
      if (!allowed.current && isBlocked(blocking)) {
        // The URL has already changed: put it back, and move on only if the answer is to leave.
        const delta = idx.current - to;
        undoing = true;
        history.go(delta);
        hold(blocking, () => go(-delta));
        return;
      }
      allowed.current = false;
      idx.current = to;
      startTransition(() => setLocation(read()));
    };
    globalThis.addEventListener('popstate', onPop);
    return () => globalThis.removeEventListener('popstate', onPop);
  }, [blocking, go]);
  const apply = useMemo(
    () => (next: Location, replace: boolean) => {
      if (!replace) idx.current += 1;
      const entry: Entry = { usr: next.state, key: next.key, idx: idx.current };
      if (replace) history.replaceState(entry, '', href(next));
      else history.pushState(entry, '', href(next));
      startTransition(() => setLocation(next));
    },
    [],
  );
  const navigate = useNavigateFunction(location, blocking, apply, go);
  const value = useMemo(() => ({ location, navigate, blocking }), [location, navigate, blocking]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** A router with its history in memory (tests): `initialEntries` as paths or `{ pathname, state }`. */
export function MemoryRouter({
  children,
  initialEntries = ['/'],
}: {
  children: ReactNode;
  initialEntries?: (string | { pathname: string; search?: string; state?: unknown })[];
}) {
  const [stack, setStack] = useState(() => ({
    entries: initialEntries.map((e, i): Location => {
      const l = resolve(typeof e === 'string' ? e : { ...e, search: e.search ?? '' }, {
        pathname: '/',
        search: '',
        hash: '',
        state: null,
        key: '',
      });
      return { ...l, state: typeof e === 'string' ? null : (e.state ?? null), key: i ? newKey() : 'default' };
    }),
    index: initialEntries.length - 1,
  }));
  const location = stack.entries[stack.index] as Location;
  const [blocking] = useState(newBlocking);
  const apply = useMemo(
    () => (next: Location, replace: boolean) =>
      startTransition(() =>
        setStack((s) => {
          const keep = s.entries.slice(0, replace ? s.index : s.index + 1);
          return { entries: [...keep, next], index: keep.length };
        }),
      ),
    [],
  );
  const go = useMemo(
    () => (delta: number) =>
      startTransition(() =>
        setStack((s) => ({ ...s, index: Math.min(s.entries.length - 1, Math.max(0, s.index + delta)) })),
      ),
    [],
  );
  const navigate = useNavigateFunction(location, blocking, apply, go);
  const value = useMemo(() => ({ location, navigate, blocking }), [location, navigate, blocking]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export interface Blocker {
  /** "blocked" while a navigation (a link, `navigate`, the browser's Back or Forward) waits for an answer. */
  state: 'unblocked' | 'blocked';
  /** Lets the waiting navigation go on. */
  proceed(): void;
  /** Drops it: the screen stays. */
  reset(): void;
}

/**
 * React Router's `useBlocker`, for one screen at a time: while `when()` is true, leaving (an
 * in-app link, `navigate`, Back or Forward) is held until `proceed()` or `reset()`. Closing or
 * reloading the tab is the browser's own question (`beforeunload`), not the router's.
 */
export function useBlocker(when: () => boolean): Blocker {
  const { blocking } = useRouter();
  const [state, setState] = useState<Blocker['state']>('unblocked');
  const latest = useRef(when);
  latest.current = when;
  useEffect(() => {
    blocking.when = () => latest.current();
    blocking.onHold = (held) => setState(held ? 'blocked' : 'unblocked');
    return () => {
      blocking.when = null;
      blocking.onHold = null;
      blocking.held = null;
    };
  }, [blocking]);
  return useMemo(
    () => ({
      state,
      proceed() {
        const go = blocking.held;
        blocking.held = null;
        setState('unblocked');
        if (!go) return;
        // The held navigation runs unasked (the answer was to leave).
        const when = blocking.when;
        blocking.when = null;
        go();
        blocking.when = when;
      },
      reset() {
        blocking.held = null;
        setState('unblocked');
      },
    }),
    [state, blocking],
  );
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): NavigateFunction => useRouter().navigate;
export const useParams = <
  T extends Record<string, string | undefined> = Record<string, string | undefined>,
>() => useContext(RouteContext).params as T;

type ParamsInit = URLSearchParams | string | Record<string, string>;
export function useSearchParams(): [
  URLSearchParams,
  (next: ParamsInit | ((prev: URLSearchParams) => ParamsInit), options?: NavigateOptions) => void,
] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = (next: ParamsInit | ((prev: URLSearchParams) => ParamsInit), options?: NavigateOptions) => {
    const value = new URLSearchParams(typeof next === 'function' ? next(new URLSearchParams(params)) : next);
    const search = value.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, options);
  };
  return [params, set];
}

// ---------------------------------------------------------------------------
// Matching

export interface PathMatch {
  params: Record<string, string>;
}

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * Matches `pattern` (`/a/:id`, `/a/*`, `*`) against `pathname`, case-insensitively, ignoring a
 * trailing slash. With `end: false` the pattern may match only the start (a layout's path).
 */
export function matchPath(pattern: string, pathname: string): PathMatch | null {
  const want = segments(pattern);
  const have = segments(pathname);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    if (w === '*') {
      params['*'] = have.slice(i).map(decode).join('/');
      return { params };
    }
    const h = have[i];
    if (h === undefined) return null;
    if (w.startsWith(':')) params[w.slice(1)] = decode(h);
    else if (w.toLowerCase() !== decode(h).toLowerCase()) return null;
  }
  return have.length === want.length ? { params } : null;
}
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** React Router's ranking, reduced to what the shop's tables need: more and more static segments win. */
function score(pattern: string): number {
  return segments(pattern).reduce((n, s) => n + (s === '*' ? -2 : s.startsWith(':') ? 3 : 10), 0);
}

interface RouteProps {
  path?: string;
  element?: ReactNode;
  children?: ReactNode;
}
/** Declares a route inside <Routes>; <Routes> reads its props and renders nothing of it itself. */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

interface Branch {
  /** Outermost first: the layout routes, then the matched leaf. */
  chain: RouteProps[];
  pattern: string;
}
function branches(children: ReactNode, parents: RouteProps[] = []): Branch[] {
  return Children.toArray(children).flatMap((child) => {
    if (!isValidElement<RouteProps>(child) || child.type !== Route) return [];
    const props = child.props;
    const chain = [...parents, props];
    if (props.path === undefined) return branches(props.children, chain);
    return [{ chain, pattern: props.path }];
  });
}

/** Renders the best-matching route for the current path (null when none matches). */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  let best: { branch: Branch; match: PathMatch; score: number } | null = null;
  for (const branch of branches(children)) {
    const match = matchPath(branch.pattern, pathname);
    const s = score(branch.pattern);
    if (match && (!best || s > best.score)) best = { branch, match, score: s };
  }
  if (!best) return null;
  const { params } = best.match;
  const { chain } = best.branch;
  // Each route inside its parent's outlet: the layout element stays the same, so it stays mounted.
  const nest = (i: number): ReactNode => {
    const route = chain[i];
    if (!route) return null;
    const outlet = nest(i + 1);
    return (
      <RouteContext.Provider value={{ params, outlet }}>{route.element ?? outlet}</RouteContext.Provider>
    );
  };
  return nest(0);
}

export const Outlet = () => <>{useContext(RouteContext).outlet}</>;

// ---------------------------------------------------------------------------
// Links

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;
export interface LinkProps extends AnchorProps {
  to: To;
  replace?: boolean;
  state?: unknown;
}

/** An <a> that navigates in the app (a plain click) and stays a real link (new tab, copy, middle click). */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  const url = href(resolve(to, location));
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || (target && target !== '_self')) return;
    if (e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    // A link to where the shopper already is replaces the entry (Back still leaves), as React Router does.
    navigate(to, { replace: replace ?? url === href(location), state });
  };
  return <a {...rest} href={url} target={target} onClick={follow} />;
}

/** A Link that knows it is the current page: class "active" and aria-current="page". */
export function NavLink({ className, end, ...props }: LinkProps & { end?: boolean }) {
  const { location } = useRouter();
  const to = resolve(props.to, location).pathname.toLowerCase().replace(/\/$/, '');
  const here = location.pathname.toLowerCase().replace(/\/$/, '');
  const active = here === to || (!end && to !== '' && here.startsWith(`${to}/`));
  return (
    <Link
      {...props}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}

/** Navigates once rendered (a redirect in a route table). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, where it is rendered.
  useEffect(() => navigate(to, { replace, state }), []);
  return null;
}
