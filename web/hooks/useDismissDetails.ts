import { type RefObject, useEffect } from 'react';

/**
 * A `<details>` used as a menu stays open by itself; a menu closes on a tap elsewhere or on Escape.
 * Escape inside it marks the key handled (the page's own Escape, closing a message, waits for the
 * next press) and returns focus to its summary, since focus left in the closed list falls to the page.
 */
export function useDismissDetails(ref: RefObject<HTMLDetailsElement | null>): void {
  useEffect(() => {
    const close = (e: Event) => {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent) {
        if (e.key !== 'Escape') return;
        // A modal dialog the menu opened (the logout question) closes on the same press: its Escape is not
        // taken from it, and the menu behind it closes too.
        if (document.activeElement?.closest('dialog[open]')) {
          el.open = false;
          return;
        }
        e.preventDefault();
        const inside = el.contains(document.activeElement);
        el.open = false;
        if (inside) el.querySelector('summary')?.focus();
      } else if (!el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [ref]);
}
