import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ADDED_POPUP_MS } from '../../domain/shop.js';

/**
 * The add-to-cart confirmation of product details and category products: it
 * closes itself after the spec's 5 s, or at once with Close. It is a status
 * message, not a modal, so it never traps focus or blocks the page.
 */
export function AddedPopup({ text, onClose }: { text: string; onClose: () => void }) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const t = setTimeout(() => close.current(), ADDED_POPUP_MS);
    return () => clearTimeout(t);
  }, []);
  return (
    // Not a live region itself: the alert region announces the same text (see useAddWithPopup).
    <div className="added-popup">
      <p>{text}</p>
      <div className="added-popup__actions">
        <Link to="/cart" className="btn btn--outline">
          View Cart
        </Link>
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
