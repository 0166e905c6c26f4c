import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ADDED_POPUP_MS } from '../../domain/shop.js';

/**
 * The add-to-cart confirmation of product details and category products: it
 * closes itself after the spec's 5 s, at once with Close, or with Escape. It
 * is a status message, not a modal: it never takes focus from the Add button
 * the shopper is on, and it is a named region next in the tab order, so a
 * keyboard reaches View Cart. Closed while focus is inside it, focus returns
 * to where the shopper was when it appeared.
 */
export function AddedPopup({ text, onClose }: { text: string; onClose: () => void }) {
  const close = useRef(onClose);
  close.current = onClose;
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const t = setTimeout(() => close.current(), ADDED_POPUP_MS);
    // On the window, after the header's own Escape handlers (cart popup, menu, search) had their turn.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(t);
      window.removeEventListener('keydown', onKey);
      if (box.current?.contains(document.activeElement) && before?.isConnected) before.focus();
    };
  }, []);
  return (
    // Not a live region itself: the alert region announces the same text (see useAddWithPopup).
    <section className="added-popup" aria-label="Added to cart" ref={box}>
      <p>{text}</p>
      <div className="added-popup__actions">
        <Link to="/cart" className="btn btn--outline">
          View Cart
        </Link>
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
