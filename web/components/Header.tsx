import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useCartLines } from '../hooks/useCatalogue.js';
import { shopName } from '../shop-name.js';
import { usePincode } from '../storefront/delivery-pincode.js';
import { AccountNav } from './AccountNav.js';
import { CategoryMenu } from './CategoryMenu.js';
import { OutboxBadge } from './OutboxStatus.js';
import { SearchBox } from './SearchBox.js';

const CartPopupBody = lazy(() => import('./CartPopupBody.js'));
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
      {showsMenu(location.pathname) && <CategoryMenu key={location.pathname} />}
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
