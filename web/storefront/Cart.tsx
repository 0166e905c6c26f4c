import { Link, useNavigate } from 'react-router-dom';
import { cartSubtotal } from '../../domain/cart.js';
import { messages, storefrontMessages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { clearCart } from '../../sw/cart.js';
import { currentSession, setReturnUrl } from '../../sw/session.js';
import { CartLineRow } from '../components/CartLineRow.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useCartLines } from '../hooks/useCatalogue.js';
import { useTitle } from '../hooks/useTitle.js';

/**
 * The cart page: the device's cart lines with quantity controls (minus at 1
 * removes), remove, Clear Cart, the total in rupees, and the way to checkout.
 * Without a session the spec's message shows and the shopper goes to log in,
 * then comes back to checkout.
 */
export default function Cart() {
  useTitle('Your Cart');
  const lines = useCartLines();
  const notify = useNotify();
  const navigate = useNavigate();

  const proceed = () => {
    if (!currentSession()) {
      // The cart stays on the device (Dexie); after logging in the shopper comes back to checkout.
      notify(messages.loginToCheckout, 'error');
      try {
        setReturnUrl('/checkout');
      } catch {
        // Without storage the shopper simply lands on the home page after logging in.
      }
      navigate('/login');
      return;
    }
    navigate('/checkout');
  };

  return (
    <div className="page cart-page" data-removal-focus>
      <h1>Your Cart</h1>
      {lines &&
        (lines.length ? (
          <div className="cart-page__body">
            <ul className="lines" aria-label="Cart items">
              {lines.map((l) => (
                <CartLineRow key={l.key} line={l} />
              ))}
            </ul>
            <div className="cart-page__summary">
              <p className="cart-page__total">
                Total: <strong>{formatRupees(cartSubtotal(lines))}</strong>
              </p>
              <div className="cart-page__actions">
                <button type="button" className="btn btn--outline" onClick={() => void clearCart()}>
                  Clear Cart
                </button>
                <button type="button" className="btn btn--primary" onClick={proceed}>
                  Proceed to checkout
                </button>
              </div>
            </div>
          </div>
        ) : (
          <div className="empty">
            <p>{storefrontMessages.cartEmpty}</p>
            <Link to="/products" className="btn btn--primary">
              Continue shopping
            </Link>
          </div>
        ))}
    </div>
  );
}
