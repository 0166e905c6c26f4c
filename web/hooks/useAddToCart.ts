import { useCallback, useState } from 'react';
import type { Product, Variation } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { addToCart, type CakeChoices } from '../../sw/cart.js';
import { useNotify } from './useAlerts.js';

/** Adds to the device's cart and announces it with the spec's "{title} added to cart!". */
export function useAddToCart(): (product: Product, variation?: Variation | null) => Promise<void> {
  const notify = useNotify();
  return useCallback(
    async (product, variation = null) => {
      try {
        await addToCart(product, variation);
        notify(messages.addedToCart(product.title), 'success');
      } catch {
        notify(messages.somethingWentWrongTryAgain, 'error');
      }
    },
    [notify],
  );
}

/** The same, with the screen's own popup (product details, category products) instead of the alert region. */
export function useAddWithPopup(): {
  add: (product: Product, variation?: Variation | null, choices?: CakeChoices) => Promise<void>;
  popup: { text: string; id: number } | null;
  closePopup: () => void;
} {
  const notify = useNotify();
  const [popup, setPopup] = useState<{ text: string; id: number } | null>(null);
  const add = useCallback(
    async (product: Product, variation: Variation | null = null, choices: CakeChoices = {}) => {
      try {
        await addToCart(product, variation, 1, undefined, choices);
        // A new id remounts the popup, so adding again restarts its 5 s.
        setPopup((old) => ({ text: messages.addedToCart(product.title), id: (old?.id ?? 0) + 1 }));
        // A popup inserted with its text is not reliably read out; the page's live region, present from the start, is.
        notify(messages.addedToCart(product.title), 'announce');
      } catch {
        notify(messages.somethingWentWrongTryAgain, 'error');
      }
    },
    [notify],
  );
  return { add, popup, closePopup: useCallback(() => setPopup(null), []) };
}
