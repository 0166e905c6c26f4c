/**
 * One cart line with its controls, used by the header's popup and the cart
 * page alike (both key lines the same way, a deliberate fix of the spec).
 * Minus at quantity 1 removes the line: the cart page's rule, and the
 * header's "zero or below removes" gives the same result.
 */
import { useRef } from 'react';
import type { CartLine } from '../../domain/cart.js';
import { lineLabel, lineTotal } from '../../domain/cart.js';
import { formatRupees } from '../../domain/money.js';
import { removeFromCart, setCakeMessage, setQuantity } from '../../sw/cart.js';
import { CartLineGift } from './CakeGift.js';
import { ProductImage } from './ProductImage.js';

/**
 * Removing a line takes the focused button with it; focus would fall to the
 * page. It moves to the same control of the next line (or the previous one),
 * or, when the list is empty, to the first control of the surrounding
 * `[data-removal-focus]` box (the popup's View Cart, the cart page's
 * Continue shopping).
 */
function removeKeepingFocus(row: HTMLElement | null, remove: () => Promise<void>): void {
  const neighbour = (row?.nextElementSibling ?? row?.previousElementSibling) as HTMLElement | null;
  const box = row?.closest<HTMLElement>('[data-removal-focus]') ?? null;
  const hadFocus = !!row?.contains(document.activeElement);
  void remove().then(() => {
    if (!hadFocus) return;
    // After React has rendered the shorter list.
    requestAnimationFrame(() => {
      const target =
        neighbour?.querySelector<HTMLElement>('.btn--link') ??
        box?.querySelector<HTMLElement>('a[href], button:not([disabled])') ??
        null;
      target?.focus();
    });
  });
}

export function CartLineRow({ line, compact = false }: { line: CartLine; compact?: boolean }) {
  const name = lineLabel(line);
  const row = useRef<HTMLLIElement>(null);
  return (
    <li className={compact ? 'line line--compact' : 'line'} ref={row}>
      <ProductImage className="line__img" src={line.image} alt="" width={64} height={64} />
      <div className="line__body">
        <p className="line__title">{name}</p>
        <CartLineGift
          message={line.cakeMessage ?? null}
          // A line put back from a cancelled order has its message but not the product's flag.
          takesMessage={line.takesMessage === true || !!line.cakeMessage}
          photo={line.photo?.blob ?? null}
          compact={compact}
          name={name}
          onSave={async (message) => {
            await setCakeMessage(line.key, message);
          }}
        />
        <p className="line__price">
          {formatRupees(line.price)}
          {line.quantity > 1 && (
            <span className="line__sum">
              {' '}
              × {line.quantity} = {formatRupees(lineTotal(line))}
            </span>
          )}
        </p>
        <div className="line__controls">
          {/* biome-ignore lint/a11y/useSemanticElements: a fieldset is for form fields; this groups two buttons and a count. */}
          <div className="qty" role="group" aria-label={`Quantity of ${name}`}>
            <button
              type="button"
              className="qty__btn"
              onClick={() =>
                line.quantity <= 1
                  ? removeKeepingFocus(row.current, () => removeFromCart(line.key))
                  : void setQuantity(line.key, line.quantity - 1)
              }
              aria-label={line.quantity <= 1 ? `Remove ${name}` : `Decrease quantity of ${name}`}
            >
              −
            </button>
            <output className="qty__value" aria-live="polite">
              {line.quantity}
            </output>
            <button
              type="button"
              className="qty__btn"
              onClick={() => void setQuantity(line.key, line.quantity + 1)}
              aria-label={`Increase quantity of ${name}`}
            >
              +
            </button>
          </div>
          {/* Named in full: a hidden span's leading space is dropped by some accessible-name engines ("RemoveChoco cake"). */}
          <button
            type="button"
            className="btn btn--link"
            aria-label={`Remove ${name}`}
            onClick={() => removeKeepingFocus(row.current, () => removeFromCart(line.key))}
          >
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}
