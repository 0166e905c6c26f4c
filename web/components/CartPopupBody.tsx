import { Link } from 'react-router-dom';
import { type CartLine, cartSubtotal } from '../../domain/cart.js';
import { storefrontMessages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { CartLineRow } from './CartLineRow.js';

/** The header's "Your Cart" list: lines with their controls, the total, and the way to the cart page. */
export default function CartPopupBody({
  lines,
  onViewCart,
}: {
  lines: CartLine[] | undefined;
  onViewCart: () => void;
}) {
  return (
    <>
      {lines && lines.length > 0 ? (
        <>
          <ul className="lines">
            {lines.map((l) => (
              <CartLineRow key={l.key} line={l} compact />
            ))}
          </ul>
          <p className="cart-popup__total">
            Total: <strong>{formatRupees(cartSubtotal(lines))}</strong>
          </p>
        </>
      ) : (
        <p>{storefrontMessages.cartEmpty}</p>
      )}
      <Link to="/cart" className="btn btn--primary btn--block" onClick={onViewCart}>
        View Cart
      </Link>
    </>
  );
}
