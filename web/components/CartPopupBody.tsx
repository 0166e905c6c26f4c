import { type RefObject, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { type CartLine, cartSubtotal } from '../../domain/cart.js';
import { storefrontMessages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { CartLineRow } from './CartLineRow.js';

/**
 * The header's "Your Cart" list: lines with their controls, the total, and the way to the cart page.
 * While open, a tap outside or Escape closes it: those listeners live here, in the list's lazy
 * chunk, because the header's own code is on the first screen (every byte there is on its budget).
 */
export default function CartPopupBody({
  lines,
  open,
  setOpen,
  box,
  button,
  onViewCart,
}: {
  lines: CartLine[] | undefined;
  open: boolean;
  setOpen: (open: boolean) => void;
  box: RefObject<HTMLDivElement | null>;
  button: RefObject<HTMLButtonElement | null>;
  onViewCart: () => void;
}) {
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      const lost = document.activeElement === document.body || box.current?.contains(document.activeElement);
      setOpen(false);
      // Focus in the hidden popup would fall to the page: back to the button that opened it.
      if (lost) button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, setOpen, box, button]);

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
