import {
  type FormEvent,
  lazy,
  type KeyboardEvent as ReactKeyboardEvent,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { SEARCH_SUGGESTIONS } from '../../domain/shop.js';
import { useCartLines } from '../hooks/useCatalogue.js';
import { useDismissDetails } from '../hooks/useDismissDetails.js';
import { shopName } from '../shop-name.js';
import { usePincode } from '../storefront/delivery-pincode.js';
import { AccountNav } from './AccountNav.js';
import { OutboxBadge } from './OutboxStatus.js';

const CartPopupBody = lazy(() => import('./CartPopupBody.js'));
const CategoryMenu = lazy(() => import('./CategoryMenu.js'));
// The chip's popover is the product page's check (its code loads when first opened).
const PincodePopover = lazy(() => import('../storefront/CheckDelivery.js'));

export { categoryUrl } from './category-url.js';

/** The shared storefront header (spec section 2): logo, search, cart, login, category menus. */
export function Header() {
  const location = useLocation();
  const name = shopName();
  return (
    <header className="header">
      <div className="header__bar">
        <Link to="/home" className="logo" aria-label={`${name}, home`}>
          <span aria-hidden="true" className="logo__mark">
            ✿
          </span>
          <span className="logo__text">{name}</span>
        </Link>
        <div className="header__find">
          <SearchBox />
          <PincodeChip />
        </div>
        <div className="header__actions">
          <OutboxBadge />
          <CartButton />
          <AccountNav />
        </div>
      </div>
      {showsMenu(location.pathname) && (
        // Its own chunk: the categories it names come from the device (web/hooks/useShopNav.ts), and
        // until it arrives an empty strip of the same height holds its place (no layout shift).
        <Suspense
          fallback={
            <div className="menu" aria-hidden="true">
              <div className="menu__list" />
            </div>
          }
        >
          <CategoryMenu key={location.pathname} />
        </Suspense>
      )}
    </header>
  );
}

/**
 * The spec: the top navigation bar shows only on a fixed list of URLs. These
 * are the shop's browsing pages; forms (login, register, checkout, later
 * issues) and unknown paths go without it, keeping the shopper on the task.
 */
const MENU_PATHS = [
  '/home',
  '/products',
  '/products-details',
  '/products-by-category',
  '/all-categories',
  '/search',
  '/cart',
  '/about-us',
  '/contact',
  '/privacy',
] as const;
export function showsMenu(pathname: string): boolean {
  return MENU_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

const PLACEHOLDERS = ['cakes', 'flowers', 'chocolates', 'plants', 'gifts'];
const PLACEHOLDER_MS = 3000;

function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [placeholder, setPlaceholder] = useState(0);
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The suggestion the arrows point at (-1: none); focus stays in the box (aria-activedescendant).
  const [active, setActive] = useState(-1);
  const listId = useId();
  const inputId = useId();
  const typed = text.trim().toLowerCase();
  const options = SEARCH_SUGGESTIONS.filter((s) => !typed || s.label.toLowerCase().includes(typed));
  const expanded = open && options.length > 0;

  useEffect(() => {
    // Rotate only while the box is empty and unfocused: a changing hint under the caret distracts.
    if (text) return;
    const t = setInterval(() => {
      if (document.activeElement !== input.current) setPlaceholder((i) => (i + 1) % PLACEHOLDERS.length);
    }, PLACEHOLDER_MS);
    return () => clearInterval(t);
  }, [text]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const go = (q: string) => {
    const query = q.trim();
    if (!query) return;
    navigate(`/search?q=${encodeURIComponent(query)}`);
    setText('');
    close();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const picked = expanded ? options[active] : undefined;
    go(picked ? picked.query : text);
  };
  // The combobox pattern of the ARIA APG: arrows move through the suggestions, Enter picks, Escape closes.
  const onKeyDown = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = options.length;
      if (!n) return;
      setOpen(true);
      const down = e.key === 'ArrowDown';
      setActive((i) => (!expanded || i < 0 ? (down ? 0 : n - 1) : (i + (down ? 1 : n - 1)) % n));
    } else if (e.key === 'Escape') {
      // Handled here, so the page's own Escape (closing a message) waits for the next press.
      e.preventDefault();
      if (expanded) close();
      else setText('');
    }
  };

  return (
    <search className="search">
      <form onSubmit={onSubmit} className="search__form">
        <label htmlFor={inputId} className="visually-hidden">
          Search products
        </label>
        <input
          id={inputId}
          className="search__input"
          type="search"
          role="combobox"
          name="q"
          autoComplete="off"
          enterKeyHint="search"
          value={text}
          ref={input}
          placeholder={`Search for ${PLACEHOLDERS[placeholder]}`}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            setOpen(true);
            // Build the search index while the shopper types; loaded on demand to keep it out of the first bundle.
            void import('../hooks/useSearch.js').then((m) => m.warmSearch());
          }}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="search__submit">
          <span className="visually-hidden">Search</span>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
            <path d="M15.5 15.5 L21 21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </button>
      </form>
      <div className="search__panel" hidden={!expanded}>
        <p className="search__panel-title" id={`${listId}-title`}>
          Popular searches
        </p>
        {/* The APG's listbox: the box keeps focus and points at an option with aria-activedescendant. */}
        <div id={listId} role="listbox" aria-labelledby={`${listId}-title`} className="search__options">
          {options.map((s, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard picks options through the box's arrows and Enter.
            <div
              key={s.label}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className="chip"
              // Keep the box's focus until the click lands, or blur would hide the panel first.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => go(s.query)}
            >
              {s.label}
            </div>
          ))}
        </div>
      </div>
    </search>
  );
}

function CartButton() {
  const lines = useCartLines();
  const [open, setOpen] = useState(false);
  // Set when the shopper points at or focuses the button, so the list's code is fetched before the click.
  const [wanted, setWanted] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popupId = useId();
  const count = lines?.length ?? 0;
  const { pathname } = useLocation();

  // Following a link (View Cart, a product) closes the popup; remounting instead would blink the badge.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <div className="cart-button" ref={box}>
      <button
        ref={button}
        type="button"
        className="btn btn--icon"
        aria-expanded={open}
        aria-controls={popupId}
        onPointerEnter={() => setWanted(true)}
        onFocus={() => setWanted(true)}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path
            d="M3 4h2l2.2 10.2a2 2 0 0 0 2 1.6h7.6a2 2 0 0 0 2-1.5L20.5 8H6.2"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
          <circle cx="9.5" cy="20" r="1.5" fill="currentColor" />
          <circle cx="17" cy="20" r="1.5" fill="currentColor" />
        </svg>
        <span className="visually-hidden">Cart, {count === 1 ? '1 item' : `${count} items`}</span>
        <span className="badge" aria-hidden="true">
          {count}
        </span>
      </button>
      <section
        id={popupId}
        className="cart-popup"
        aria-labelledby={`${popupId}-title`}
        hidden={!open}
        data-removal-focus
      >
        <h2 id={`${popupId}-title`} className="cart-popup__title">
          Your Cart
        </h2>
        {/* The list's code (cart actions, line controls) loads on first open, keeping it out of the first screen's bundle. */}
        {(open || wanted) && (
          <Suspense fallback={null}>
            {/* On /cart the link changes no path, so it closes the popup itself. */}
            <CartPopupBody
              lines={lines}
              open={open}
              setOpen={setOpen}
              box={box}
              button={button}
              onViewCart={() => setOpen(false)}
            />
          </Suspense>
        )}
      </section>
    </div>
  );
}

/**
 * Where the shop's answers are for: the saved pincode ("Delivering to 160062"), or an invitation to
 * give one. Its popover changes it, and every answer (the product page, the checkout) follows.
 */
function PincodeChip() {
  const [pincode] = usePincode();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="pin-chip" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span>{pincode ? 'Delivering to' : 'Check'}</span> {pincode ?? 'delivery'}
      </button>
      {open && (
        <Suspense fallback={null}>
          <PincodePopover onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
